package dev.retryafter.call;

import java.net.URI;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.store.CooldownStore;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * The first-attempt shortcut of a request whose origin announces its quota (public for the
 * client adapters, not for applications). An origin that sends its fields on every response
 * would otherwise send every call down the whole call path, since its quota may hold the
 * next request; but a quota far from spent holds nobody (docs/PACING.md), and a success that
 * only tells the quota again ends its call whatever it says. So:
 * <ul>
 * <li>{@link #admit} lets a first attempt go at once, in one step, when nothing but its
 * quota can hold it and the quota needs no slot for it. It takes the same share of the quota
 * the whole call path's admission would have taken; a request the quota would hold goes the
 * whole path, and nothing is taken.</li>
 * <li>{@link #settle} ends a call on a first response below 400 without {@code Retry-After}
 * that carries quota fields, recording them under the request's key (or the bucket it names)
 * as the whole call path does. Any error and any redirect go on as a call.</li>
 * </ul>
 * A client that splits cooldowns by request headers reads its key from the request as sent,
 * so it takes the whole call path, as does a call a listener follows from its start.
 */
public final class FirstAttemptQuota {

	private final CallContext context;

	FirstAttemptQuota(CallContext context) {
		this.context = context;
	}

	/**
	 * Admits a first attempt at once when the only thing that may hold it is a quota that
	 * needs no slot for it: no cooldown, learned rate or route probe is kept anywhere, and
	 * its key has no quota, or one far from spent (its share is then taken), or the client
	 * in mode {@code fail-fast} is never held for a quota.
	 * @param settings the client's settings
	 * @param uri the request URI
	 * @param headers the request headers
	 * @return the request's cooldown key, the request admitted; {@code null} when the whole
	 * call path must admit it
	 */
	public @Nullable CooldownKey admit(RetrySettings settings, URI uri, HttpHeaders headers) {
		CooldownStore cooldowns = this.context.cooldowns();
		if (this.context.partitioned(settings) || !cooldowns.holdsByQuotaOnly()) {
			return null;
		}
		CooldownKey key = RequestOrigins.cooldownKey(settings, uri, headers, cooldowns);
		if (key == null) {
			return null;
		}
		// The whole path's admission takes a quota slot only for a client that reads quotas
		// and may be held; a cooldown cannot hold this request, so the slot is now or later.
		if (!RateLimitFieldReader.reads(settings) || settings.cooldown().mode() == CooldownMode.FAIL_FAST) {
			return key;
		}
		long nowNanos = this.context.monotonicClock().nanoTime();
		return cooldowns.takeQuotaAtOnce(key.declared(), nowNanos) ? key : null;
	}

	/**
	 * Settles a first response below 400 without {@code Retry-After} that announces a quota,
	 * and records the quota under the request's key, as the whole call path would before
	 * ending the call on it.
	 * @param rules the client's first-attempt rules
	 * @param key the key {@link #admit} gave, or {@code null} when it was not asked
	 * @param uri the request URI
	 * @param requestHeaders the request headers
	 * @param status the response status
	 * @param headers the response headers
	 * @param sentNanos when the request was sent, from {@link CallContext#firstAttemptStarts}
	 * @return the stop, or {@code null} when the response must go on as a call
	 */
	public RetryDecision.@Nullable Stop settle(FirstAttemptRules rules, @Nullable CooldownKey key, URI uri,
			HttpHeaders requestHeaders, int status, HttpHeaders headers, long sentNanos) {
		RetrySettings settings = rules.settings();
		if (status >= 400 || ResponseOutcomes.hasRetryAfter(headers)) {
			return null;
		}
		RetryDecision.Stop stop = rules.stopWithoutRetryAfter(status);
		if (stop == null) {
			return null;
		}
		CooldownKey recorded = key;
		if (recorded == null) {
			if (this.context.partitioned(settings)) {
				return null;
			}
			recorded = RequestOrigins.cooldownKey(settings, uri, requestHeaders, this.context.cooldowns());
		}
		if (recorded != null) {
			CooldownKey bucket = CallCooldown.bucketKey(recorded, headers, uri, this.context.cooldowns());
			this.context.quotaFields()
				.record(settings, (bucket != null) ? bucket : recorded.declared(), status, headers, sentNanos);
		}
		return stop;
	}

}
