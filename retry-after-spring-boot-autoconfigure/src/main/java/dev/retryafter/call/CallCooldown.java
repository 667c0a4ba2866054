package dev.retryafter.call;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.store.CooldownStore;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * The cooldown side of one {@link RetryCall}: the key its request honours and sets, resolved
 * on first use, the admission before each send (a cooldown hold, a quota slot), and what its
 * responses tell the cooldown store. It asks the call for its collaborators, URI, headers and
 * time left only when used, so most calls, which never meet a cooldown, resolve nothing.
 * <p>
 * The key is the one of the request as it was last sent, once the adapter's innermost element
 * (after the application's own interceptors or filters, which may add the partition headers)
 * has seen it; until then, the request as the call holds it. Where the two keys differ, the
 * request as sent is admitted again under its own key, unless the request was already held for
 * this attempt: a request is held at most once per attempt, save a learned-pace slot that a new
 * cooldown overtook ({@link #holdAgain}).
 */
final class CallCooldown {

	// Lower case: Spring's header maps look names up lower-cased, at no cost for these.
	private static final String BUCKET = "x-ratelimit-bucket";

	private static final String RESOURCE = "x-ratelimit-resource";

	private final RetryCall call;

	private final RetrySettings settings;

	private final String client;

	/** The cooldown key, resolved on first use: most requests never need it. */
	private @Nullable CooldownKey key;

	private boolean resolved;

	// What held the request last, and under which key, reported when its hold ends.
	private HoldReason holdReason = HoldReason.COOLDOWN;

	private @Nullable CooldownKey holder;

	// A request waits for another route's probe once: then it goes, whatever the probe's fate.
	private boolean probeAwaited;

	// A request whose learned-pace slot a new cooldown overtook is admitted again once.
	private boolean pacedAgain;

	/** The URI of the request as last sent, or {@code null} until an innermost element saw it. */
	private @Nullable URI sentUri;

	/** The headers of the request as last sent, or {@code null} until an innermost element saw them. */
	private @Nullable HttpHeaders sentHeaders;

	/** The key the current attempt was admitted under, {@code null} when nothing was asked. */
	private @Nullable CooldownKey admittedKey;

	/** Whether the current attempt is a first attempt, as its admission was asked. */
	private boolean admittingFirst = true;

	/** The key the current attempt's refusal started its cooldown under, until its retry is planned. */
	private @Nullable CooldownKey recorded;

	/** Whether the current attempt has been held already. */
	private boolean heldThisAttempt;

	/** When the attempt whose answer is read next was sent, once one was. */
	private long sentAt;

	private boolean sentKnown;

	/**
	 * The cooldown side of a call.
	 * @param sent whether its first attempt was sent already, at {@code sentNanos}
	 */
	CallCooldown(RetryCall call, RetrySettings settings, String client, boolean sent, long sentNanos) {
		this.call = call;
		this.settings = settings;
		this.client = client;
		this.sentKnown = sent;
		this.sentAt = sentNanos;
	}

	/**
	 * The attempt about to be sent: its answer's round trip bounds how late the reset its
	 * quota fields name may be.
	 * @param nowNanos the current monotonic reading
	 */
	void attemptSent(long nowNanos) {
		this.sentKnown = true;
		this.sentAt = nowNanos;
	}

	/**
	 * Asks the cooldowns whether a request may be sent now (see {@link RetryCall#admission()}).
	 * @param firstAttempt whether the request has not been sent yet: only a first attempt
	 * queues behind a release window or takes a quota slot
	 * @return {@code null} to send now, an {@link Admission.Wait} (whose reason is kept for
	 * {@link #holdReason()}) or an {@link Admission.Refuse}
	 */
	@Nullable Admission admit(boolean firstAttempt) {
		this.admittingFirst = firstAttempt;
		this.admittedKey = null;
		this.heldThisAttempt = false;
		return admitNow();
	}

	/**
	 * Admits the request as an innermost element saw it about to be sent, under its own key
	 * when that differs from the one the attempt was admitted under (the application's
	 * interceptors or filters added a partition header), unless the attempt was held already.
	 * @param uri the URI as sent
	 * @param headers the headers as sent
	 * @return as {@link #admit(boolean)}; {@code null} when nothing more holds the request
	 */
	@Nullable Admission admitAsSent(URI uri, HttpHeaders headers) {
		sentAs(uri, headers);
		// Nothing cooling on the host: the key (a keyed digest) is left to be read if needed.
		if (this.heldThisAttempt || !this.call.context().mayHold(this.settings, uri)
				|| Objects.equals(key(), this.admittedKey)) {
			return null;
		}
		return admitNow();
	}

	/**
	 * Takes the key from the request as sent, for what its response records; it is read from
	 * those headers when first needed.
	 * @param uri the URI as sent
	 * @param headers the headers as sent
	 */
	void sentAs(URI uri, HttpHeaders headers) {
		this.sentUri = uri;
		this.sentHeaders = headers;
		this.resolved = false;
	}

	/**
	 * Charges the response to the origin that sent it, when the transport followed a redirect
	 * to another origin: its cooldown, quota and acceptances are that origin's, under the
	 * partition the same headers give there (the digest is the origin's own) and the scope of
	 * the responder's path. A responder with no usable origin is charged nothing, rather than
	 * the wrong origin.
	 * @param responder the URI that sent the response
	 */
	void respondedFrom(URI responder) {
		HttpHeaders sent = this.sentHeaders;
		this.sentUri = responder;
		this.key = RequestOrigins.cooldownKey(this.settings, responder,
				(sent != null) ? sent : this.call.requestHeaders(), this.call.context().cooldowns());
		this.resolved = true;
	}

	private @Nullable Admission admitNow() {
		boolean firstAttempt = this.admittingFirst;
		// With no origin cooling down at all, nothing can hold this request: skip building
		// its origin and asking the store. A cooldown another thread records while this
		// check runs may be missed by this one request, exactly as if the request had been
		// admitted a moment earlier; every request that checks after the record sees it.
		CallContext context = this.call.context();
		if (!context.mayHold(this.settings, uri())) {
			return null;
		}
		CooldownKey key = key();
		if (key == null) {
			return null;
		}
		this.admittedKey = key;
		// A retry already waited out the server's delay: only a first attempt queues behind
		// requests still leaving in a cooldown's release window.
		AdmissionRequest request = AdmissionRequest.of(key, context.monotonicClock().nanoTime(), this.call.timeLeft(),
				this.settings, context.random(), firstAttempt);
		// The door takes a quota slot too, for a first attempt of a client that reads quotas.
		Admission admission = context.cooldowns().admit(request);
		if (admission instanceof Admission.Wait wait) {
			if (wait.reason() == HoldReason.PROBE) {
				if (this.probeAwaited) {
					return null;
				}
				this.probeAwaited = true;
			}
			this.holdReason = wait.reason();
			this.holder = context.cooldowns().holder(key, wait.reason(), request.nowNanos());
			this.heldThisAttempt = true;
			return admission;
		}
		return (admission instanceof Admission.Refuse) ? admission : null;
	}

	/**
	 * Tells the cooldowns that the request the last admission held is sent now, however late
	 * its thread woke: its answer is heard as its cooldown's wave's (rule 1 of the door).
	 * @param sinceNanos when the hold began
	 * @return how long the request was held
	 */
	Duration left(long sinceNanos) {
		CallContext context = this.call.context();
		long nowNanos = context.monotonicClock().nanoTime();
		CooldownKey holder = holder();
		if (holder != null) {
			context.cooldowns().left(holder, this.holdReason, nowNanos);
		}
		return Duration.ofNanos(nowNanos - sinceNanos);
	}

	/**
	 * The hold still ahead of a request whose learned-pace slot has just come: a rejection
	 * started a cooldown of its key while it waited, so the slot, spaced before that rejection,
	 * now falls inside the server's delay, where the request would only be turned away too.
	 * It is admitted again: held to the new cooldown's instant or a slot after it. Once per
	 * call, so that a stream of rejections never holds one request again and again; and never
	 * refused for it (a new cooldown that does not fit the budget lets it go as it would have).
	 * A cooldown that was there when the slot was given ended before it: a slot is never
	 * earlier than the cooldown's instant.
	 * @return the hold, or {@code null} to send the request now
	 */
	Admission.@Nullable Wait holdAgain() {
		if (this.holdReason != HoldReason.PACING || this.pacedAgain) {
			return null;
		}
		CallContext context = this.call.context();
		long nowNanos = context.monotonicClock().nanoTime();
		CooldownKey holder = holder();
		CooldownKey admitted = this.admittedKey;
		this.pacedAgain = (holder != null && !context.cooldowns().remaining(holder, nowNanos).isZero())
				|| (admitted != null && !context.cooldowns().remaining(admitted, nowNanos).isZero());
		return (this.pacedAgain && admitNow() instanceof Admission.Wait wait) ? wait : null;
	}

	/**
	 * What held the request last.
	 * @return the reason of the last {@link Admission.Wait}
	 */
	HoldReason holdReason() {
		return this.holdReason;
	}

	/**
	 * The key whose cooldown held the request last: its whole origin's, or its own scope's.
	 * @return the key of the last {@link Admission.Wait}, or {@link #key()} before any
	 */
	@Nullable CooldownKey holder() {
		return (this.holder != null) ? this.holder : key();
	}

	/**
	 * Records the quota a response announced under this request's key, if it announced one.
	 * @param headers the response headers
	 */
	void quota(int status, HttpHeaders headers) {
		RateLimitFieldReader quotaFields = this.call.context().quotaFields();
		if (quotaFields.present(this.settings, status, headers)) {
			CooldownKey key = key();
			CooldownKey bucket = (key != null) ? bucketKey(key, headers) : null;
			CooldownKey under = (bucket != null) ? bucket : (key != null) ? key.declared() : null;
			if (this.sentKnown) {
				quotaFields.record(this.settings, under, status, headers, this.sentAt);
			}
			else {
				quotaFields.record(this.settings, under, status, headers);
			}
		}
	}

	/**
	 * Starts this request's key's cooldown for a server-requested delay.
	 * @param delay the delay the response asked for
	 */
	void record(Duration delay, HttpHeaders headers) {
		CooldownKey key = key();
		if (key == null) {
			return;
		}
		CallContext context = this.call.context();
		long nowNanos = context.monotonicClock().nanoTime();
		CooldownKey bucket = bucketKey(key, headers);
		// A bucket the server named is its word on the scope; otherwise a second route's
		// refusal may widen the cooldown to the whole origin.
		CooldownKey target = (bucket != null) ? bucket : context.cooldowns().recordKey(key, nowNanos);
		if (bucket != null) {
			// The retry honours the bucket's cooldown, not its route's.
			this.key = bucket;
		}
		context.cooldowns().record(target, delay, nowNanos);
		this.recorded = target;
	}

	/**
	 * Tells the cooldown the current attempt's refusal started that its retry leaves
	 * {@code delay} from now (see {@link dev.retryafter.core.protection.OriginProtection#retryPlanned});
	 * nothing when the attempt recorded no cooldown or is not retried.
	 * @param decision what the planner decided after the attempt
	 */
	void planned(RetryDecision decision) {
		CooldownKey target = this.recorded;
		this.recorded = null;
		if (target != null && decision instanceof RetryDecision.Retry retry) {
			CallContext context = this.call.context();
			context.cooldowns().retryPlanned(target, retry.delay(), context.monotonicClock().nanoTime());
		}
	}

	/**
	 * The key of the bucket a response names in {@code X-RateLimit-Bucket} (Discord) or
	 * {@code X-RateLimit-Resource} (GitHub), learned for this request's route so that the
	 * route's next requests honour the bucket's cooldown. A configured scope is the user's
	 * word and stays.
	 * @return the request's key narrowed to the bucket, or {@code null} when the response
	 * names none in the safe form
	 */
	private @Nullable CooldownKey bucketKey(CooldownKey key, HttpHeaders headers) {
		return bucketKey(key, headers, uri(), this.call.context().cooldowns());
	}

	/** As {@link #bucketKey(CooldownKey, HttpHeaders)}, for a request to {@code uri}. */
	static @Nullable CooldownKey bucketKey(CooldownKey key, HttpHeaders headers, URI uri, CooldownStore cooldowns) {
		if (key.scope() != null && key.scope().kind() == CooldownScope.Kind.PREFIX) {
			return null;
		}
		String named = headers.getFirst(BUCKET);
		CooldownScope bucket = CooldownScope.bucket((named != null) ? named : headers.getFirst(RESOURCE));
		if (bucket == null) {
			return null;
		}
		CooldownScope route = CooldownScope.route(uri.getRawPath());
		if (route != null) {
			cooldowns.learnBucket(key.withScope(route), bucket);
		}
		return key.withScope(bucket);
	}

	/**
	 * Tells the cooldowns that the origin accepted this request, so that a key it has turned
	 * requests away for learns the rate it accepts. While no key is cooling down or paced,
	 * only the host's count of what it accepted lately, without building the key.
	 */
	void accepted() {
		CallContext context = this.call.context();
		if (context.mayHold(this.settings, uri())) {
			CooldownKey key = key();
			if (key != null) {
				context.cooldowns().accepted(key, context.monotonicClock().nanoTime());
			}
		}
		else {
			context.acceptedAtOnce(this.settings, uri(), context.monotonicClock().nanoTime());
		}
	}

	/** The request's URI as last sent, or as the call holds it until an innermost element saw it. */
	private URI uri() {
		return (this.sentUri != null) ? this.sentUri : this.call.uri();
	}

	/**
	 * The cooldown this request honours and sets: its origin, split by the client's
	 * partition headers as the request was last sent (see the class comment) and narrowed to
	 * its scope; {@code null} when the client's cooldown is off (or the URI has no usable
	 * origin).
	 * @return the key, or {@code null}
	 */
	@Nullable CooldownKey key() {
		if (!this.resolved) {
			HttpHeaders sent = this.sentHeaders;
			this.key = RequestOrigins.cooldownKey(this.settings, uri(),
					(sent != null) ? sent : this.call.requestHeaders(), this.call.context().cooldowns());
			this.resolved = true;
			if (sent != null && this.key != null) {
				this.call.context().partitionWarnings().noPartitionAsSent(this.client, this.settings, this.key);
			}
		}
		return this.key;
	}

}
