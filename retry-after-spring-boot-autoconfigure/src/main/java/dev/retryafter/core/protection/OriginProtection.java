package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.DurationMath;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.core.header.RateLimitReading;
import dev.retryafter.core.header.RetryAfter;
import org.jspecify.annotations.Nullable;

/**
 * The one door of origin protection: whether a request may be sent now, and what each
 * response tells about its origin. It keeps, per {@link CooldownKey}, the host cooldown a
 * response's {@code Retry-After} set (the later of old and new wins; rule 1 says whom a
 * later one may hold), the rate the origin accepted between two of its rejections, the probe
 * state of cooling routes, the buckets the origin named for its routes, and its quota. No
 * cooldown lasts longer than {@code maxDuration}, whatever the server asked or another
 * instance reported; then one request goes out and learns the state again.
 * <p>
 * {@link #admit} applies its rules in this order; each has one method, named after the
 * {@link HoldReason} of the wait it gives (rules 1-3 in {@link KeyAdmission}, which reads a
 * key's cooldown and pacer once for the three, rule 5 in {@link RateLimitPacing}):
 * <ol>
 * <li>{@code cooldown}: before the instant, the request waits for it plus jitter, or is
 * refused when that does not fit its budget or in mode {@code fail-fast}. A request is held
 * once per attempt. A rejection recorded up to one server delay after the instant (or after
 * the last held request was sent, see {@link #left}) answers the wave the cooldown released:
 * it starts or renews a <em>follow-up</em>, which holds first attempts only.</li>
 * <li>{@code releaseWindow}: past the instant, a first attempt queues behind the requests
 * the cooldown held, and the retries it planned ({@link #retryPlanned}), still to leave.</li>
 * <li>{@code pacing}: once the origin turned requests away, a first attempt in mode
 * {@code wait} takes the next slot at the rate it accepted before (between two rejections,
 * or at the first, over the seconds before it and the delay asked), never earlier than
 * the instant (it replaces the wait of rule 1 or 2). It never saves a request rule 1
 * refused; a key whose origin announces its quota to a client that reads it takes rule 5.</li>
 * <li>{@code probe}: a guessed route nothing holds waits once for another route's probe.</li>
 * <li>{@code quota}: a first attempt of a client that reads quotas takes its slot in the
 * quota its origin announced, when that is later than what the rules above give.</li>
 * </ol>
 * A scoped key (see {@link CooldownScope}) is held by its whole origin's (or partition's)
 * rules 1-3 first, then by its own. Pacing never refuses: a slot that does not fit the budget
 * is not taken. A retry is neither paced nor queued: it has already waited out the server's
 * delay.
 * <p>
 * Thread-safe without a global lock. Bounded by {@code maxHosts}: expired entries are
 * purged as cooldowns are recorded, then the cooldowns that end soonest. The views
 * ({@link #snapshot}, {@link #protection}, {@link #quotas(long)}, {@link #activeCount},
 * {@link #remaining}) change nothing.
 * <p>
 * Times are monotonic nanosecond readings passed in by the caller and compared only as
 * differences, as {@link System#nanoTime()} requires. Delays saturate at
 * {@link RetryAfter#MAX_DELAY}, so no arithmetic here can overflow.
 *
 * @since 0.1.0
 */
public final class OriginProtection {

	/**
	 * How many keys a map remembers unless told otherwise: the default of
	 * {@code retry-after.cooldown.max-hosts}, with or without Spring.
	 */
	public static final int DEFAULT_MAX_HOSTS = 10_000;

	/**
	 * The longest cooldown unless told otherwise: the default of
	 * {@code retry-after.cooldown.max-duration}, with or without Spring.
	 */
	public static final Duration DEFAULT_MAX_DURATION = Duration.ofSeconds(60);

	private static final long MAX_DELAY_NANOS = RetryAfter.MAX_DELAY.toNanos();

	private final int maxHosts;

	private final long maxDurationNanos;

	private final HostCooldowns cooldowns;

	private final RateLimitPacing quotas;

	private final RouteProbes probes;

	private final RouteBuckets buckets;

	private final ScopedKeys scoped;

	private final LearnedRates learnedRates;

	/**
	 * Creates an empty door whose cooldowns last at most {@link #DEFAULT_MAX_DURATION}.
	 * @param maxHosts how many keys to remember at most, at least 1
	 */
	public OriginProtection(int maxHosts) {
		this(maxHosts, DEFAULT_MAX_DURATION);
	}

	/**
	 * Creates an empty door.
	 * @param maxHosts how many keys to remember at most, at least 1
	 * @param maxDuration the longest cooldown, positive; longer delays are cut to it
	 * @throws IllegalArgumentException if {@code maxHosts} is below 1 or {@code maxDuration}
	 * is not positive
	 */
	public OriginProtection(int maxHosts, Duration maxDuration) {
		Objects.requireNonNull(maxDuration, "maxDuration");
		if (maxHosts < 1) {
			throw new IllegalArgumentException("maxHosts must be at least 1: " + maxHosts);
		}
		if (maxDuration.isNegative() || maxDuration.isZero()) {
			throw new IllegalArgumentException("maxDuration must be positive: " + maxDuration);
		}
		this.maxHosts = maxHosts;
		this.maxDurationNanos = DurationMath.saturatedNanos(maxDuration, MAX_DELAY_NANOS);
		this.quotas = new RateLimitPacing(maxHosts);
		this.cooldowns = new HostCooldowns(maxHosts, this.quotas::keeps);
		this.probes = new RouteProbes(maxHosts);
		this.buckets = new RouteBuckets(maxHosts);
		this.scoped = new ScopedKeys(this.cooldowns, this.probes);
		this.learnedRates = new LearnedRates(this.cooldowns, this.quotas::keeps);
	}

	/**
	 * Decides whether a request may be sent now, by the rules of the class comment, in order.
	 * @param request the request, its budget and its cooldown settings
	 * @return the admission; an {@link Admission.Wait} names the rule that held the request
	 */
	public Admission admit(AdmissionRequest request) {
		Admission admission = this.scoped.heldByKey(request);
		if (admission == Admission.PROCEED) {
			admission = this.scoped.probe(request);
		}
		if (request.firstAttempt() && request.readsQuotas() && request.mode() != CooldownMode.FAIL_FAST
				&& !(admission instanceof Admission.Refuse)) {
			admission = this.quotas.quota(request, admission);
		}
		return admission;
	}

	/**
	 * The key to report a hold under: the declared key for a quota slot, the request's own
	 * for a probe, and for a cooldown its whole origin's (or partition's) while that can hold
	 * a request (it is checked first), else the request's.
	 * @param key the request's key
	 * @param reason what held it
	 * @param nowNanos the current monotonic reading
	 * @return the key that held the request
	 */
	public CooldownKey holder(CooldownKey key, HoldReason reason, long nowNanos) {
		return this.scoped.holder(key, reason, nowNanos);
	}

	/**
	 * The key a refusal of a request under {@code key} starts its cooldown under: the whole
	 * origin's (or partition's) when that is cooling down already, or when the refusal is a
	 * second guessed route's while the first still cools down ({@link RouteProbes}); else
	 * {@code key}. What the server or the configuration scoped stays scoped.
	 * @param key the request's key
	 * @param nowNanos the current monotonic reading
	 * @return the key to record under
	 */
	public CooldownKey recordKey(CooldownKey key, long nowNanos) {
		return this.scoped.recordKey(key, nowNanos);
	}

	/**
	 * Records that {@code key} asked for {@code delay} (from now) before the next request,
	 * cut to the longest cooldown. The later instant wins; one recorded past the held instant
	 * (within one server delay of it, or of the last held request sent) is a follow-up, which
	 * holds first attempts only (rule 1).
	 * @param key the origin, or partition of an origin
	 * @param delay the delay; zero or negative records nothing, more than the map's
	 * {@code maxDuration} counts as {@code maxDuration}
	 * @param nowNanos the current monotonic reading
	 * @return whether the key's not-before instant is now the one this call asked for
	 */
	public boolean record(CooldownKey key, Duration delay, long nowNanos) {
		Objects.requireNonNull(key, "key");
		long delayNanos = DurationMath.saturatedNanos(delay, this.maxDurationNanos);
		if (delayNanos <= 0) {
			return false;
		}
		// May wrap, as nanoTime readings do; only differences are ever compared.
		CooldownHold candidate = new CooldownHold(nowNanos + delayNanos, delayNanos);
		CooldownHold held = this.cooldowns.hold(key, candidate, nowNanos);
		this.probes.cooled(key, nowNanos, held.until);
		this.quotas.crowded(key.declared(), nowNanos);
		return held == candidate;
	}

	/**
	 * Records that a request {@code reason} held under {@code key} (see {@link #holder}) was
	 * sent at {@code nowNanos}, however late a busy machine woke it: for one server delay the
	 * rejections still answer its cooldown's wave (rule 1). Other holds change nothing.
	 * @since 0.2.0
	 */
	public void left(CooldownKey key, HoldReason reason, long nowNanos) {
		if (reason == HoldReason.COOLDOWN) {
			this.cooldowns.left(Objects.requireNonNull(key, "key"), nowNanos);
		}
	}

	/**
	 * Records that the retry of a request whose refusal {@link #record}ed {@code key}'s
	 * cooldown leaves {@code delay} from now. Unless that is more than one server delay past
	 * the instant, a first attempt past the instant queues behind it (rule 2) rather than
	 * spend the allowance the retry waited for, which would leave the retry a second refusal.
	 * @param key the key the refusal was recorded under
	 * @param delay the retry's planned wait from now
	 * @param nowNanos the current monotonic reading
	 * @since 0.3.0
	 */
	public void retryPlanned(CooldownKey key, Duration delay, long nowNanos) {
		this.cooldowns.retryPlanned(Objects.requireNonNull(key, "key"),
				nowNanos + DurationMath.saturatedNanos(delay, this.maxDurationNanos), nowNanos);
	}

	/**
	 * Records that the origin accepted a request under {@code key}: a response whose status
	 * starts no cooldown. What the origin accepts between two of its rejections is the rate
	 * its requests are paced at afterwards; a key the origin never turned away keeps only its
	 * host's count ({@link #acceptedAtOnce}).
	 * @param key the origin, or partition of an origin
	 * @param nowNanos the current monotonic reading
	 */
	public void accepted(CooldownKey key, long nowNanos) {
		boolean paced = this.cooldowns.accepted(Objects.requireNonNull(key, "key"), nowNanos);
		if (key.scope() != null) {
			// A scoped acceptance is also one of the whole origin's, whose rate a widened
			// cooldown learns.
			paced |= this.cooldowns.accepted(key.unscoped(), nowNanos);
			this.probes.accepted(key);
		}
		if (!paced) {
			this.cooldowns.acceptedUnpaced(key.origin().host(), nowNanos);
		}
	}

	/**
	 * Records that {@code host} (any case, as {@code URI#getHost()} gives it) accepted a
	 * request nothing held, without building its key: a first rejection paces at what it
	 * accepted in the seconds before (rule 3). Cheap enough for every call.
	 * @since 0.3.0
	 */
	public void acceptedAtOnce(String host, long nowNanos) {
		this.cooldowns.acceptedUnpaced(host, nowNanos);
	}

	/**
	 * Records what a response under {@code key} said about its origin's quota.
	 * @param key the origin, or partition of an origin (or the bucket it named)
	 * @param reading the reading
	 * @param accepted whether the response was a success (see {@link RateLimitPacing#record})
	 * @param nowNanos the current monotonic reading
	 * @since 0.2.0
	 */
	public void recordQuota(CooldownKey key, RateLimitReading reading, boolean accepted, long nowNanos) {
		this.quotas.record(key, reading, accepted, nowNanos);
	}

	/**
	 * Learns that requests under {@code route} fall into {@code bucket}, as its origin named it.
	 * @since 0.2.0
	 */
	public void learnBucket(CooldownKey route, CooldownScope bucket) {
		this.buckets.learn(route, bucket);
	}

	/**
	 * @return the bucket learned for {@code route} (a key scoped to its route), or {@code null}
	 * @since 0.2.0
	 */
	public @Nullable CooldownScope bucketOf(CooldownKey route) {
		return this.buckets.bucketOf(route);
	}

	/** @return the quotas the origins announce, paced per key beside the cooldowns and bounded alike */
	public RateLimitPacing quotas() {
		return this.quotas;
	}

	/** @return the learned rates (rule 3), as a shared store spaces them for a fleet; since 0.2.0 */
	public LearnedRates learnedRates() {
		return this.learnedRates;
	}

	/**
	 * What can hold a first attempt under each key now, for every key with a cooldown kept
	 * (running, or past its instant with held requests still leaving) or a learned rate,
	 * ordered by key text.
	 * @param nowNanos the current monotonic reading
	 * @return one view per key
	 */
	public List<KeyProtection> protection(long nowNanos) {
		return this.cooldowns.protection(nowNanos);
	}

	/** @return the quotas kept, ordered by key text, to their state at {@code nowNanos}; unmodifiable; since 0.2.0 */
	public Map<CooldownKey, RateLimitState> quotas(long nowNanos) {
		return this.quotas.snapshot(nowNanos);
	}

	/** @return the time left until {@code key}'s not-before instant, or zero if it is not cooling down */
	public Duration remaining(CooldownKey key, long nowNanos) {
		return Duration.ofNanos(Math.max(0, this.cooldowns.remainingNanos(key, nowNanos)));
	}

	/**
	 * Ends cooldowns at once, as an operator may ask. What was learned about the origin's
	 * rate, its routes' probes and its quota ends with them: an operator who ends them wants
	 * requests to go now.
	 * @param origin the origin whose cooldowns (every partition of it) end, or {@code null}
	 * to end every cooldown
	 * @return the keys whose cooldown was ended
	 */
	public List<CooldownKey> endAll(@Nullable Origin origin) {
		List<CooldownKey> ended = this.cooldowns.endAll(origin);
		this.quotas.forget(origin);
		this.probes.forget(origin);
		return ended;
	}

	/** @return whether {@code key} had a cooldown, which ends at once (another instance ended it) */
	public boolean end(CooldownKey key) {
		return this.cooldowns.end(key);
	}

	/**
	 * Forgets the cooldowns past their instant whose held requests have all left (records do
	 * it from time to time; an idle map needs it for {@link #isEmpty} to become true again).
	 * @since 0.2.0
	 */
	public void purgeExpired(long nowNanos) {
		this.cooldowns.purgeExpired(nowNanos);
	}

	/** @return the longest cooldown this map keeps: the cap on every recorded delay */
	public Duration maxDuration() {
		return Duration.ofNanos(this.maxDurationNanos);
	}

	/** @return how many origins have time left at {@code nowNanos} (the {@code http.client.retry.cooldown.hosts} gauge) */
	public int activeCount(long nowNanos) {
		return this.cooldowns.activeCount(nowNanos);
	}

	/** @return the keys cooling down at {@code nowNanos}, ordered by key text, to their time left (positive); unmodifiable */
	public Map<CooldownKey, Duration> snapshot(long nowNanos) {
		return this.cooldowns.snapshot(nowNanos);
	}

	/**
	 * @return whether no entry is held at all, expired ones included: no origin is cooling
	 * down, paced, or pacing inside a quota. Cheap and lock-free, for every request.
	 */
	public boolean isEmpty() {
		return !this.cooldowns.holdsAny() && this.quotas.isEmpty();
	}

	/** Whether nothing but a quota can hold a request: no cooldown, learned rate or route probe is kept. Lock-free. */
	public boolean holdsByQuotaOnly() {
		return !this.cooldowns.holdsAny() && this.probes.size() == 0;
	}

	/**
	 * Whether a request to {@code host} may be held: some origin is cooling down or paced, or a
	 * quota is kept for that host ({@link RateLimitPacing#mayPace}). Cheap and lock-free.
	 * @param host the request's host, or {@code null} when it has none
	 * @return {@code false} only if {@link #admit} would let the request go at once
	 */
	public boolean mayHold(@Nullable String host) {
		return this.cooldowns.holdsAny() || this.quotas.mayPace(host);
	}

	/** @return how many entries are held, expired ones not yet purged included */
	public int size() {
		return this.cooldowns.size();
	}

	/** How many origins (or partitions) keep a cooling route's probe state; for tests. */
	int probeFamilies() {
		return this.probes.size();
	}

	/** How many keys keep a pacer (learning or learned); for tests. */
	int pacedKeys() {
		return this.cooldowns.pacedKeys();
	}

	/** @return the bound on remembered origins */
	public int maxHosts() {
		return this.maxHosts;
	}

}
