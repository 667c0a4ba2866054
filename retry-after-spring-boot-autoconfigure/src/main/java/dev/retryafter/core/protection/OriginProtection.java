package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.DurationMath;
import dev.retryafter.core.Origin;
import dev.retryafter.core.header.RetryAfter;
import org.jspecify.annotations.Nullable;

/**
 * Host cooldowns: each {@link CooldownKey}'s "not before" instant on the monotonic clock, set
 * by a response's {@code Retry-After} and kept at the later of old and new. No cooldown lasts
 * longer than {@code maxDuration}, whatever the server asked or another instance reported: a
 * server asking for hours (or an epoch timestamp sent by mistake) cools the origin down for
 * that long at most, after which one request goes out and learns the state again.
 * <p>
 * Thread-safe without a global lock: {@link #admit} is one lock-free map read (a request
 * that is held also takes the key's own lock, to note when it leaves), and {@link #record}
 * updates a single map entry atomically.
 * <p>
 * Bounded by {@code maxHosts}: expired entries are purged from time to time, and when the
 * map is still too large the cooldowns that end soonest are forgotten first (they protect
 * the least). The bound is exact for one writer and may be exceeded by the number of threads
 * recording at the same moment.
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

	private final ConcurrentHashMap<CooldownKey, CooldownHold> notBefore = new ConcurrentHashMap<>();

	private final ConcurrentHashMap<CooldownKey, OriginPacer> pacers = new ConcurrentHashMap<>();

	private final QuotaPacing quotas;

	private final CooldownBound bound;

	private final RouteProbes probes;

	private final RouteBuckets buckets;

	private final KeyAdmission admission;

	/**
	 * Creates an empty map whose cooldowns last at most {@link #DEFAULT_MAX_DURATION}.
	 * @param maxHosts how many keys to remember at most, at least 1
	 * @throws IllegalArgumentException if {@code maxHosts} is below 1
	 */
	public OriginProtection(int maxHosts) {
		this(maxHosts, DEFAULT_MAX_DURATION);
	}

	/**
	 * Creates an empty map.
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
		this.quotas = new QuotaPacing(maxHosts);
		this.bound = new CooldownBound(maxHosts, this.notBefore, this.pacers);
		this.probes = new RouteProbes(maxHosts);
		this.buckets = new RouteBuckets(maxHosts);
		this.admission = new KeyAdmission(this.notBefore, this.pacers);
	}

	/**
	 * The buckets the origins named for their routes, bounded like the cooldowns.
	 * @return the learned map from route to bucket
	 */
	public RouteBuckets buckets() {
		return this.buckets;
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
		if (key.scope() == null) {
			return key;
		}
		CooldownHold whole = this.notBefore.get(key.unscoped());
		if (whole != null && whole.until - nowNanos > 0) {
			return key.unscoped();
		}
		return this.probes.widened(key, nowNanos);
	}

	/**
	 * The quotas the origins announce, paced per key beside the cooldowns and bounded alike.
	 * @return the quota pacing
	 */
	public QuotaPacing quotas() {
		return this.quotas;
	}

	/**
	 * Records that {@code key} asked for {@code delay} (from now) before the next request,
	 * cut to the longest cooldown. The later of the held and the new not-before instant wins.
	 * @param key the origin, or partition of an origin
	 * @param nowNanos the current monotonic reading
	 * @param delay the delay; zero or negative records nothing, more than the map's
	 * {@code maxDuration} counts as {@code maxDuration}
	 * @return whether the key's not-before instant is now the one this call asked for
	 */
	public boolean record(CooldownKey key, long nowNanos, Duration delay) {
		Objects.requireNonNull(key, "key");
		long delayNanos = DurationMath.saturatedNanos(delay, this.maxDurationNanos);
		if (delayNanos <= 0) {
			return false;
		}
		// May wrap, as nanoTime readings do; only differences are ever compared.
		long until = nowNanos + delayNanos;
		CooldownHold candidate = new CooldownHold(until, delayNanos);
		CooldownHold held = this.notBefore.merge(key, candidate, CooldownHold::later);
		this.probes.cooled(key, nowNanos, held.until);
		OriginPacer pacer = this.pacers.get(key);
		if (pacer == null) {
			pacer = this.pacers.putIfAbsent(key, new OriginPacer(nowNanos, delayNanos));
		}
		if (pacer != null) {
			pacer.rejected(nowNanos, delayNanos);
		}
		this.bound.recorded(key, nowNanos);
		return held == candidate;
	}

	/**
	 * Records that the origin accepted a request under {@code key}: a response whose status
	 * starts no cooldown. What the origin accepts between two of its rejections is the rate
	 * its requests are paced at afterwards; a key the origin never turned away keeps no state.
	 * @param key the origin, or partition of an origin
	 * @param nowNanos the current monotonic reading
	 */
	public void accepted(CooldownKey key, long nowNanos) {
		OriginPacer pacer = this.pacers.get(Objects.requireNonNull(key, "key"));
		if (pacer != null) {
			pacer.accepted(nowNanos);
		}
		if (key.scope() != null) {
			// A scoped acceptance is also one of the whole origin's, whose rate a widened
			// cooldown learns.
			OriginPacer whole = this.pacers.get(key.unscoped());
			if (whole != null) {
				whole.accepted(nowNanos);
			}
			this.probes.accepted(key);
		}
	}

	/**
	 * Decides whether a request may be sent now. A cooling origin makes the request wait until
	 * its not-before instant plus jitter uniform in
	 * {@code [0, jitter x the delay that set the cooldown]}, the jitter trimmed so that the
	 * wait plus the reserve fits the budget; if even the bare wait does not fit, or in
	 * fail-fast mode, it is refused.
	 * <p>
	 * The jitter is scaled by the server's whole delay, not by the time left: requests held
	 * just before the instant would otherwise all get a tiny jitter and leave together, a
	 * spike that the origin's own retries (each jittered by the whole delay) do
	 * not make. Scaled this way, held requests spread over the same window as those retries.
	 * <p>
	 * After the cooldown's instant nothing is ever refused, and a first attempt is held only
	 * behind requests the cooldown really held that are still leaving (the release window): it
	 * waits until the last of them has left, plus jitter of its own, so that it does not cut in
	 * ahead of them (on a rate-limited origin that turned released requests into fresh 429s
	 * and calls that failed). When the origin has turned away more than one request, that
	 * jitter spans the whole delay rather than {@code jitter x} it: the first attempt belongs
	 * to the next wave, which must not land at once on an origin the released requests have
	 * just used up. When no held request is still leaving, or that queue does not fit the
	 * budget, it is sent at once. A retry does not queue: it has already waited out the
	 * server's delay.
	 * <p>
	 * Once the origin has turned requests away twice, far enough apart to tell, the key is
	 * paced in mode {@code wait}: while it cools down, and after its instant for as long as
	 * requests held for their slots are still leaving, every first attempt gets the next slot
	 * at the rate the origin accepted between those rejections (see {@link #accepted}), at or
	 * after the cooldown's instant. The slot is the request's one hold. A slot that does not
	 * fit the budget is not taken, and the cooldown alone decides; pacing never refuses. A
	 * retry is not paced: it has already waited out the server's delay for its own request.
	 * <p>
	 * A scoped key (see {@link CooldownScope}) is first held by its whole origin's (or
	 * partition's) cooldown, then by its own; a guessed route that neither holds may wait
	 * for the probe of another route's cooldown ({@link RouteProbes}). Each
	 * {@link Admission.Wait} names what held the request; {@link #protection} shows the state
	 * behind each reason.
	 * @param request the request, its budget and its cooldown settings
	 * @return the admission
	 */
	public Admission admit(AdmissionRequest request) {
		CooldownKey key = request.key();
		if (key.scope() == null) {
			return this.admission.admit(request, key);
		}
		Admission whole = this.admission.admit(request, key.unscoped());
		if (whole != Admission.PROCEED) {
			return whole;
		}
		Admission own = this.admission.admit(request, key);
		if (own != Admission.PROCEED || !key.scope().guessed()) {
			return own;
		}
		Admission.Wait probe = this.probes.admit(request);
		return (probe != null) ? probe : Admission.PROCEED;
	}

	/**
	 * The key whose cooldown held a request under {@code key}: its whole origin's (or
	 * partition's) while that can hold a request (it is checked first), else {@code key}.
	 * @param key the request's key
	 * @param nowNanos the current monotonic reading
	 * @return the key to report the hold under
	 */
	public CooldownKey holder(CooldownKey key, long nowNanos) {
		if (key.scope() == null) {
			return key;
		}
		CooldownKey whole = key.unscoped();
		CooldownHold hold = this.notBefore.get(whole);
		OriginPacer pacer = this.pacers.get(whole);
		boolean holds = (hold != null && !hold.ended(nowNanos)) || (pacer != null && !Double.isNaN(pacer.rate()));
		return holds ? whole : key;
	}

	/**
	 * The rate learned for {@code key} in requests per second, or {@code NaN} when its origin
	 * has not turned requests away twice far enough apart to tell; for tests.
	 */
	double pacedRate(CooldownKey key) {
		OriginPacer pacer = this.pacers.get(key);
		return (pacer != null) ? pacer.rate() : Double.NaN;
	}

	/**
	 * What can hold a first attempt under each key now, for every key with a cooldown kept
	 * (running, or past its instant with held requests still leaving) or a learned rate,
	 * ordered by key text. Purges the expired entries it passes.
	 * @param nowNanos the current monotonic reading
	 * @return one view per key
	 */
	public List<KeyProtection> protection(long nowNanos) {
		this.bound.purgeExpired(nowNanos);
		return CooldownViews.protection(this.notBefore, this.pacers, nowNanos);
	}

	/**
	 * The time left until {@code key}'s not-before instant.
	 * @param key the origin, or partition of an origin
	 * @param nowNanos the current monotonic reading
	 * @return the time left, or {@link Duration#ZERO} if the key is not cooling down
	 */
	public Duration remaining(CooldownKey key, long nowNanos) {
		return Duration.ofNanos(Math.max(0, remainingNanos(key, nowNanos)));
	}

	/**
	 * Ends cooldowns at once, as an operator may ask.
	 * @param origin the origin whose cooldowns (every partition of it) end, or {@code null}
	 * to end every cooldown
	 * @return the keys whose cooldown was ended
	 */
	public List<CooldownKey> endAll(@Nullable Origin origin) {
		List<CooldownKey> ended = new ArrayList<>();
		for (CooldownKey key : this.notBefore.keySet()) {
			if ((origin == null || key.origin().equals(origin)) && this.notBefore.remove(key) != null) {
				ended.add(key);
			}
		}
		// What was learned about the origin's rate ends with its cooldowns: an operator who
		// ends them wants requests to go now.
		this.pacers.keySet().removeIf((key) -> origin == null || key.origin().equals(origin));
		this.quotas.forget(origin);
		this.probes.forget(origin);
		return ended;
	}

	/**
	 * Ends one key's cooldown at once, e.g. when another instance reports that it was ended.
	 * @param key the key
	 * @return whether a cooldown was held for it
	 */
	public boolean end(CooldownKey key) {
		this.pacers.remove(key);
		return this.notBefore.remove(key) != null;
	}

	/**
	 * The longest cooldown this map keeps.
	 * @return the cap on every recorded delay
	 */
	public Duration maxDuration() {
		return Duration.ofNanos(this.maxDurationNanos);
	}

	/**
	 * How many origins are cooling down now (the {@code http.client.retry.cooldown.hosts}
	 * gauge). Purges the expired entries it passes.
	 * @param nowNanos the current monotonic reading
	 * @return the number of origins with time left
	 */
	public int activeCount(long nowNanos) {
		this.bound.purgeExpired(nowNanos);
		return CooldownViews.activeCount(this.notBefore, nowNanos);
	}

	/**
	 * The keys cooling down now with their time left, ordered by key text (for the
	 * actuator endpoint). Purges the expired entries it passes.
	 * @param nowNanos the current monotonic reading
	 * @return an unmodifiable map from key to time left, positive
	 */
	public Map<CooldownKey, Duration> snapshot(long nowNanos) {
		this.bound.purgeExpired(nowNanos);
		return CooldownViews.snapshot(this.notBefore, nowNanos);
	}

	/**
	 * Whether no entry is held at all, expired ones included: then no origin is cooling
	 * down, paced, or pacing inside an announced quota. Cheap and lock-free, for a check
	 * before every request.
	 * @return {@code true} if the map is empty
	 */
	public boolean isEmpty() {
		return this.notBefore.isEmpty() && this.pacers.isEmpty() && this.quotas.isEmpty();
	}

	/**
	 * Whether a request to {@code host} may be held: some origin is cooling down or paced,
	 * or a quota is kept for that host (see {@link QuotaPacing#mayPace}). Cheap and
	 * lock-free, for a check before every request.
	 * @param host the request's host, or {@code null} when it has none
	 * @return {@code false} only if {@link #admit} would let the request go at once
	 */
	public boolean mayHold(@Nullable String host) {
		return !this.notBefore.isEmpty() || !this.pacers.isEmpty() || this.quotas.mayPace(host);
	}

	/**
	 * How many entries are held, expired ones not yet purged included.
	 * @return the number of entries
	 */
	public int size() {
		return this.notBefore.size();
	}

	/**
	 * How many origins (or partitions) keep a cooling route's probe state, for tests of the
	 * bound.
	 */
	int probeFamilies() {
		return this.probes.size();
	}

	/**
	 * How many keys keep a pacer (learning or learned), for tests of the bound.
	 */
	int pacedKeys() {
		return this.pacers.size();
	}

	/**
	 * The bound on remembered origins.
	 * @return the maximum number of origins
	 */
	public int maxHosts() {
		return this.maxHosts;
	}

	private long remainingNanos(CooldownKey key, long nowNanos) {
		CooldownHold hold = this.notBefore.get(key);
		return (hold != null) ? remainingNanos(key, hold, nowNanos) : 0;
	}

	private long remainingNanos(CooldownKey key, CooldownHold hold, long nowNanos) {
		long left = hold.until - nowNanos;
		if (left <= 0 && hold.releases.leaving(nowNanos) == 0) {
			this.notBefore.remove(key, hold);
		}
		return left;
	}

}
