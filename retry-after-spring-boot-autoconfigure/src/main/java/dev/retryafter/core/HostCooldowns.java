package dev.retryafter.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

import org.jspecify.annotations.Nullable;

/**
 * Host cooldowns: each {@link CooldownKey}'s "not before" instant on the monotonic clock, set
 * by a response's {@code Retry-After} and kept at the later of old and new. No cooldown lasts
 * longer than {@code maxDuration}, whatever the server asked or another instance reported: a
 * server asking for hours (or an epoch timestamp sent by mistake) cools the origin down for
 * that long at most, after which one request goes out and learns the state again.
 * <p>
 * Thread-safe without a global lock: {@link #admit} is one lock-free map read, and
 * {@link #record} updates a single map entry atomically.
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
public final class HostCooldowns {

	/**
	 * How many keys a map remembers unless told otherwise: the default of
	 * {@code retry-after.cooldown.max-hosts}, for callers without Spring.
	 */
	public static final int DEFAULT_MAX_HOSTS = 10_000;

	/**
	 * The longest cooldown unless told otherwise: the default of
	 * {@code retry-after.cooldown.max-duration}, for callers without Spring.
	 */
	public static final Duration DEFAULT_MAX_DURATION = Duration.ofSeconds(60);

	private static final long MAX_DELAY_NANOS = RetryAfter.MAX_DELAY.toNanos();

	// Budget and reserve are clamped to about 146 years: with a wait of at most MAX_DELAY,
	// budget - wait then stays inside the range of a long.
	private static final long DURATION_LIMIT_NANOS = 1L << 62;

	// Expired entries are purged every this many records even while the map is small, so a
	// map that never reaches its bound does not keep dead entries for ever.
	private static final int PURGE_EVERY = 256;

	private final int maxHosts;

	private final long maxDurationNanos;

	private final ConcurrentHashMap<CooldownKey, Hold> notBefore = new ConcurrentHashMap<>();

	private final ConcurrentHashMap<CooldownKey, OriginPacer> pacers = new ConcurrentHashMap<>();

	private final QuotaPacing quotas;

	private final AtomicInteger recordsSincePurge = new AtomicInteger();

	private final AtomicBoolean maintaining = new AtomicBoolean();

	/**
	 * Creates an empty map whose cooldowns last at most {@link #DEFAULT_MAX_DURATION}.
	 * @param maxHosts how many keys to remember at most, at least 1
	 * @throws IllegalArgumentException if {@code maxHosts} is below 1
	 */
	public HostCooldowns(int maxHosts) {
		this(maxHosts, DEFAULT_MAX_DURATION);
	}

	/**
	 * Creates an empty map.
	 * @param maxHosts how many keys to remember at most, at least 1
	 * @param maxDuration the longest cooldown, positive; longer delays are cut to it
	 * @throws IllegalArgumentException if {@code maxHosts} is below 1 or {@code maxDuration}
	 * is not positive
	 */
	public HostCooldowns(int maxHosts, Duration maxDuration) {
		Objects.requireNonNull(maxDuration, "maxDuration");
		if (maxHosts < 1) {
			throw new IllegalArgumentException("maxHosts must be at least 1: " + maxHosts);
		}
		if (maxDuration.isNegative() || maxDuration.isZero()) {
			throw new IllegalArgumentException("maxDuration must be positive: " + maxDuration);
		}
		this.maxHosts = maxHosts;
		this.maxDurationNanos = saturatedNanos(maxDuration, MAX_DELAY_NANOS);
		this.quotas = new QuotaPacing(maxHosts);
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
		long delayNanos = saturatedNanos(delay, this.maxDurationNanos);
		if (delayNanos <= 0) {
			return false;
		}
		// May wrap, as nanoTime readings do; only differences are ever compared.
		long until = nowNanos + delayNanos;
		Hold candidate = new Hold(until, delayNanos);
		Hold held = this.notBefore.merge(key, candidate,
				(old, fresh) -> (fresh.until - old.until > 0) ? fresh : old);
		OriginPacer pacer = this.pacers.get(key);
		if (pacer == null) {
			pacer = this.pacers.putIfAbsent(key, new OriginPacer(nowNanos, delayNanos));
		}
		if (pacer != null) {
			pacer.rejected(nowNanos, delayNanos);
		}
		if (this.notBefore.size() > this.maxHosts || this.pacers.size() > this.maxHosts || this.recordsSincePurge.incrementAndGet() >= PURGE_EVERY) {
			maintain(key, nowNanos);
		}
		return held == candidate;
	}

	/**
	 * Records an absolute wall-clock not-before instant, e.g. one learned from another
	 * instance through a shared store. It is turned into a monotonic instant with a pair of
	 * readings taken together, after which the wall clock plays no part. It is cut to the
	 * longest cooldown like any other.
	 * @param key the origin, or partition of an origin
	 * @param notBefore the wall-clock instant before which no request should be sent
	 * @param wallNow the current wall-clock instant
	 * @param nowNanos the monotonic reading taken with {@code wallNow}
	 * @return whether the origin's not-before instant is now the one this call asked for
	 * (false too when {@code notBefore} is not after {@code wallNow})
	 */
	public boolean recordUntil(CooldownKey key, Instant notBefore, Instant wallNow, long nowNanos) {
		Objects.requireNonNull(notBefore, "notBefore");
		Objects.requireNonNull(wallNow, "wallNow");
		if (!notBefore.isAfter(wallNow)) {
			return false;
		}
		return record(key, nowNanos, Duration.between(wallNow, notBefore));
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
	}

	/**
	 * Decides whether a request under {@code key} may be sent now. A cooling origin makes the
	 * request wait until its not-before instant plus jitter uniform in
	 * {@code [0, jitter x the delay that set the cooldown]}, the jitter trimmed so that the
	 * wait plus the reserve fits the budget; if even the bare wait does not fit, or in
	 * fail-fast mode, it is refused.
	 * <p>
	 * The jitter is scaled by the server's whole delay, not by the time left: requests held
	 * just before the instant would otherwise all get a tiny jitter and leave together, a
	 * spike that the origin's own retries (each jittered by the whole delay) do
	 * not make. Scaled this way, held requests spread over the same window as those retries.
	 * @param key the request's cooldown key
	 * @param nowNanos the current monotonic reading
	 * @param remainingBudget the request's remaining total budget (may be negative)
	 * @param attemptReserve the time kept back for the attempt itself
	 * @param mode what a held request does
	 * @param jitter the jitter factor, between 0 and 1
	 * @param random the random source for jitter
	 * @return the admission
	 * @throws IllegalArgumentException if {@code jitter} is not between 0 and 1
	 */
	public Admission admit(CooldownKey key, long nowNanos, Duration remainingBudget, Duration attemptReserve,
			CooldownMode mode, double jitter, RandomGenerator random) {
		return admit(key, nowNanos, remainingBudget, attemptReserve, mode, jitter, random, true);
	}

	/**
	 * Decides whether a request under {@code key} may be sent now, as
	 * {@link #admit(CooldownKey, long, Duration, Duration, CooldownMode, double, RandomGenerator)}
	 * does for a first attempt. A first attempt that arrives just after the instant, while
	 * held requests are still leaving (the release window, {@code jitter x} the delay), waits
	 * for the window's end plus jitter of its own, so that it does not cut in ahead of them (on
	 * a rate-limited origin that turned released requests into fresh 429s and calls that
	 * failed). When the origin has turned away more than one request, that jitter spans the
	 * whole delay rather than {@code jitter x} it: the first attempt belongs to the next wave,
	 * which must not land at once on an origin the released requests have just used up. A
	 * retry does not queue: it has already waited out the server's delay.
	 * <p>
	 * Once the origin has turned requests away twice, far enough apart to tell, the key is
	 * paced in mode {@code wait}: every first attempt gets the next slot at the rate the
	 * origin accepted between those rejections (see {@link #accepted}), at or after the
	 * cooldown's instant. The slot is the request's one hold. A slot that does not fit the
	 * budget is not taken, and the cooldown alone decides; pacing never refuses. A retry is
	 * not paced: it has already waited out the server's delay for its own request.
	 * @param key the request's cooldown key
	 * @param nowNanos the current monotonic reading
	 * @param remainingBudget the request's remaining total budget (may be negative)
	 * @param attemptReserve the time kept back for the attempt itself
	 * @param mode what a held request does
	 * @param jitter the jitter factor, between 0 and 1
	 * @param random the random source for jitter
	 * @param firstAttempt whether the request has not been sent yet
	 * @return the admission
	 * @throws IllegalArgumentException if {@code jitter} is not between 0 and 1
	 */
	public Admission admit(CooldownKey key, long nowNanos, Duration remainingBudget, Duration attemptReserve,
			CooldownMode mode, double jitter, RandomGenerator random, boolean firstAttempt) {
		Objects.requireNonNull(mode, "mode");
		Objects.requireNonNull(random, "random");
		if (!(jitter >= 0 && jitter <= 1)) {
			throw new IllegalArgumentException("jitter must be between 0 and 1: " + jitter);
		}
		Hold hold = this.notBefore.get(key);
		// A retry is not paced: it has waited out the server's delay for its own request.
		if (mode == CooldownMode.WAIT && firstAttempt) {
			Admission paced = paced(key, hold, nowNanos, remainingBudget, attemptReserve, jitter, random);
			if (paced != null) {
				return paced;
			}
		}
		if (hold == null) {
			return Admission.PROCEED;
		}
		long left = hold.until - nowNanos;
		boolean windowed = false;
		if (left <= 0) {
			// The release window: held requests leave at the instant plus jitter, spread
			// over jitter x the delay. A request arriving inside it queues behind them (to
			// the window's end, plus its own jitter) instead of cutting in while they are
			// still held; that is its one hold.
			long windowLeft = left + (long) (jitter * hold.spread);
			if (windowLeft <= 0) {
				this.notBefore.remove(key, hold);
				return Admission.PROCEED;
			}
			if (!firstAttempt || mode == CooldownMode.FAIL_FAST) {
				return Admission.PROCEED;
			}
			left = windowLeft;
			windowed = true;
		}
		Duration timeLeft = Duration.ofNanos(left);
		if (mode == CooldownMode.FAIL_FAST) {
			return new Admission.Refuse(timeLeft);
		}
		long budget = saturatedNanos(remainingBudget, DURATION_LIMIT_NANOS);
		long reserve = Math.max(0, saturatedNanos(attemptReserve, DURATION_LIMIT_NANOS));
		long afterWait = budget - left;
		if (afterWait < reserve) {
			return new Admission.Refuse(timeLeft);
		}
		Duration limit = timeLeft.plusNanos(afterWait - reserve);
		// A first attempt queued behind the release window of an origin that turned away more
		// than one request is the next wave: spread over the server's whole delay rather than
		// its jitter window, it does not land all at once on an origin whose allowance the
		// released requests have just used up.
		double spread = (windowed && turnedAwayMoreThanOnce(key)) ? 1.0 : jitter;
		return new Admission.Wait(Jitter.apply(timeLeft, Duration.ofNanos(hold.spread), spread, random, limit));
	}

	/**
	 * The slot a learned rate gives the request, or {@code null} when the key has no pacer,
	 * no rate yet, or a slot that does not fit the budget.
	 */
	private @Nullable Admission paced(CooldownKey key, @Nullable Hold hold, long nowNanos, Duration remainingBudget,
			Duration attemptReserve, double jitter, RandomGenerator random) {
		OriginPacer pacer = this.pacers.get(key);
		if (pacer == null) {
			return null;
		}
		boolean cooling = hold != null && hold.until - nowNanos > 0;
		if (!cooling && pacer.quiet(nowNanos)) {
			this.pacers.remove(key, pacer);
			return null;
		}
		long budget = saturatedNanos(remainingBudget, DURATION_LIMIT_NANOS);
		long reserve = Math.max(0, saturatedNanos(attemptReserve, DURATION_LIMIT_NANOS));
		return pacer.admit(nowNanos, cooling ? hold.until : nowNanos, budget, reserve, jitter, random);
	}

	private boolean turnedAwayMoreThanOnce(CooldownKey key) {
		OriginPacer pacer = this.pacers.get(key);
		return pacer != null && pacer.rejections() > 1;
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
		purgeExpired(nowNanos);
		int count = 0;
		for (Hold hold : this.notBefore.values()) {
			if (hold.until - nowNanos > 0) {
				count++;
			}
		}
		return count;
	}

	/**
	 * The keys cooling down now with their time left, ordered by key text (for the
	 * actuator endpoint). Purges the expired entries it passes.
	 * @param nowNanos the current monotonic reading
	 * @return an unmodifiable map from key to time left, positive
	 */
	public Map<CooldownKey, Duration> snapshot(long nowNanos) {
		purgeExpired(nowNanos);
		List<Map.Entry<CooldownKey, Long>> active = new ArrayList<>();
		this.notBefore.forEach((key, hold) -> {
			if (hold.until - nowNanos > 0) {
				active.add(Map.entry(key, hold.until));
			}
		});
		active.sort(Comparator.comparing((Map.Entry<CooldownKey, Long> entry) -> entry.getKey().toString()));
		Map<CooldownKey, Duration> snapshot = new LinkedHashMap<>();
		for (Map.Entry<CooldownKey, Long> entry : active) {
			snapshot.put(entry.getKey(), Duration.ofNanos(entry.getValue() - nowNanos));
		}
		return Collections.unmodifiableMap(snapshot);
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
	 * How many entries are held, expired ones not yet purged included.
	 * @return the number of entries
	 */
	public int size() {
		return this.notBefore.size();
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
		Hold hold = this.notBefore.get(key);
		return (hold != null) ? remainingNanos(key, hold, nowNanos) : 0;
	}

	private long remainingNanos(CooldownKey key, Hold hold, long nowNanos) {
		long left = hold.until - nowNanos;
		if (left <= 0) {
			this.notBefore.remove(key, hold);
		}
		return left;
	}

	// One thread at a time; the others carry on (the bound is approximate under contention).
	private void maintain(CooldownKey justRecorded, long nowNanos) {
		if (!this.maintaining.compareAndSet(false, true)) {
			return;
		}
		try {
			this.recordsSincePurge.set(0);
			purgeExpired(nowNanos);
			int excess = this.notBefore.size() - this.maxHosts;
			if (excess > 0) {
				// Evicting a little below the bound spares a full scan on every following record.
				evictSoonestEnding(justRecorded, nowNanos, excess + this.maxHosts / 16);
			}
			// A pacer without a cooldown is the first to go: it only spaces requests out.
			int pacerExcess = this.pacers.size() - this.maxHosts;
			for (CooldownKey key : this.pacers.keySet()) {
				if (pacerExcess <= 0) {
					break;
				}
				if (!key.equals(justRecorded) && !this.notBefore.containsKey(key) && this.pacers.remove(key) != null) {
					pacerExcess--;
				}
			}
		}
		finally {
			this.maintaining.set(false);
		}
	}

	private void purgeExpired(long nowNanos) {
		// A conditional remove per entry: a not-before renewed meanwhile is kept.
		this.notBefore.entrySet().removeIf((entry) -> entry.getValue().until - nowNanos <= 0);
		this.pacers.entrySet()
			.removeIf((entry) -> !this.notBefore.containsKey(entry.getKey()) && entry.getValue().quiet(nowNanos));
	}

	private void evictSoonestEnding(CooldownKey justRecorded, long nowNanos, int count) {
		List<Map.Entry<CooldownKey, Hold>> candidates = new ArrayList<>(this.notBefore.size());
		this.notBefore.forEach((key, hold) -> {
			if (!key.equals(justRecorded)) {
				candidates.add(Map.entry(key, hold));
			}
		});
		candidates.sort(
				Comparator.comparingLong((Map.Entry<CooldownKey, Hold> entry) -> entry.getValue().until - nowNanos));
		for (int i = 0; i < count && i < candidates.size(); i++) {
			Map.Entry<CooldownKey, Hold> entry = candidates.get(i);
			this.notBefore.remove(entry.getKey(), entry.getValue());
		}
	}

	/**
	 * An origin's not-before instant and the delay that set it (the width of the jitter
	 * window for requests held by it). Compared by identity in conditional removes, so a
	 * cooldown renewed meanwhile is never removed by mistake.
	 */
	private static final class Hold {

		private final long until;

		private final long spread;

		Hold(long until, long spread) {
			this.until = until;
			this.spread = spread;
		}

	}

	private static long saturatedNanos(Duration duration, long limit) {
		Objects.requireNonNull(duration, "duration");
		if (duration.compareTo(Duration.ofNanos(limit)) >= 0) {
			return limit;
		}
		if (duration.compareTo(Duration.ofNanos(-limit)) <= 0) {
			return -limit;
		}
		return duration.toNanos();
	}

}
