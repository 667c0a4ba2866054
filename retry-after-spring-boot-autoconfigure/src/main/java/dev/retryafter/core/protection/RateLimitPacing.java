package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.DurationMath;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.core.header.RateLimitReading;
import org.jspecify.annotations.Nullable;

/**
 * Pacing inside the quota an origin announces (the {@code RateLimit} and
 * {@code X-RateLimit-*} fields), per cooldown key: each first attempt gets the next free slot,
 * so that no more requests go out before the reset than the origin said remain, and after it
 * no more than its policy allows. The slot is the request's one hold. Pacing never refuses: a
 * slot that does not fit the request's budget is not taken, and the request is admitted as it
 * would be without the fields. Retries are not paced: they follow {@code Retry-After}.
 * <p>
 * A quota is the key's: its origin's, or the partition of it the client's partition headers
 * name. A quota the server scopes by a partition key of its own ({@code pk}) paces only a
 * partitioned key, since requests of an unpartitioned key may fall into any of the server's
 * partitions. How slots are given is in docs/PACING.md.
 * <p>
 * The server named its quota, so slots are not jittered: they are already an interval apart.
 * <p>
 * Bounded by {@code maxKeys}: once more keys are paced, the quiet schedules are forgotten
 * first, then those whose last response is the oldest. Thread-safe; a key's schedule locks only itself.
 *
 * @since 0.2.0
 */
public final class RateLimitPacing {

	/** Above this many paced keys, {@link #mayPace} says yes rather than scan them all. */
	static final int HOSTS_SCANNED = 8;

	private final int maxKeys;

	private final ConcurrentHashMap<CooldownKey, RateLimitSchedule> schedules = new ConcurrentHashMap<>();

	private volatile boolean logsWindows;

	/**
	 * Creates an empty pacing.
	 * @param maxKeys how many keys to pace at most, at least 1
	 * @throws IllegalArgumentException if {@code maxKeys} is below 1
	 */
	public RateLimitPacing(int maxKeys) {
		if (maxKeys < 1) {
			throw new IllegalArgumentException("maxKeys must be at least 1: " + maxKeys);
		}
		this.maxKeys = maxKeys;
	}

	/**
	 * Records what a response under {@code key} said about its origin's quota.
	 * @param key the origin, or partition of an origin
	 * @param reading the reading
	 * @param nowNanos the current monotonic reading
	 */
	public void record(CooldownKey key, RateLimitReading reading, long nowNanos) {
		record(key, reading, false, nowNanos);
	}

	/**
	 * Records what a response under {@code key} said about its origin's quota.
	 * @param key the origin, or partition of an origin
	 * @param reading the reading
	 * @param accepted whether the response was a success: two that report the same count
	 * before the reset show an origin that refills as it goes (docs/PACING.md)
	 * @param nowNanos the current monotonic reading
	 * @since 0.2.0
	 */
	public void record(CooldownKey key, RateLimitReading reading, boolean accepted, long nowNanos) {
		record(key, reading, accepted, -1, nowNanos);
	}

	/**
	 * Records what a response under {@code key} said about its origin's quota, and how long
	 * after its request was sent it was read: the reset then lies after the send plus the
	 * draft's {@code t} less a second, which bounds how late a reset named in whole seconds is
	 * (docs/PACING.md, rule 11).
	 * @param key the origin, or partition of an origin
	 * @param reading the reading
	 * @param accepted whether the response was a success
	 * @param roundTripNanos from sending the request to reading the response, or negative when
	 * not known
	 * @param nowNanos the current monotonic reading
	 * @since 0.3.0
	 */
	public void record(CooldownKey key, RateLimitReading reading, boolean accepted, long roundTripNanos,
			long nowNanos) {
		Objects.requireNonNull(key, "key");
		Objects.requireNonNull(reading, "reading");
		if (reading.partitioned() && key.partition() == null) {
			// The server counts this quota per partition of its own (pk), and a key that the
			// client does not partition cannot tell which requests fall into which: pacing
			// by it would let one tenant's spent quota hold every tenant (docs/PACING.md).
			return;
		}
		RateLimitSchedule schedule = this.schedules.get(key);
		if (schedule != null) {
			schedule.update(reading, accepted, roundTripNanos, nowNanos);
			return;
		}
		RateLimitSchedule raced = this.schedules.putIfAbsent(key,
				new RateLimitSchedule(reading, accepted, roundTripNanos, nowNanos, this::logsWindows));
		if (raced != null) {
			raced.update(reading, accepted, roundTripNanos, nowNanos);
		}
		if (this.schedules.size() > this.maxKeys) {
			forgetQuietest(key, nowNanos);
		}
	}

	/**
	 * The slot of a first attempt under {@code key}.
	 * @param key the request's cooldown key
	 * @param nowNanos the current monotonic reading
	 * @param cooldownLeft the time left of the key's cooldown: no slot comes earlier
	 * @param remainingBudget the request's remaining total budget (may be negative)
	 * @param attemptReserve the time kept back for the attempt itself
	 * @return a {@link Admission.Wait} for the slot (reason {@link HoldReason#QUOTA}), or
	 * {@code null} when the quota does not hold the request: its slot is now, the key has no
	 * quota, or the slot does not fit the budget
	 */
	public Admission.@Nullable Wait admit(CooldownKey key, long nowNanos, Duration cooldownLeft,
			Duration remainingBudget, Duration attemptReserve) {
		RateLimitSchedule schedule = this.schedules.get(key);
		if (schedule == null) {
			return null;
		}
		if (schedule.quiet(nowNanos)) {
			this.schedules.remove(key, schedule);
			return null;
		}
		long notBefore = nowNanos + Math.max(0, clamped(cooldownLeft));
		long wait = schedule.take(nowNanos, notBefore, clamped(remainingBudget), Math.max(0, clamped(attemptReserve)));
		return (wait > 0) ? new Admission.Wait(Duration.ofNanos(wait), HoldReason.QUOTA) : null;
	}

	/**
	 * Rule 5 of {@link OriginProtection}, {@link HoldReason#QUOTA}: a first attempt's slot
	 * inside the quota its origin announced, when that is later than what the cooldown alone
	 * gives it: the cooldown's instant is the earliest a slot may be. Pacing never refuses, so
	 * the cooldown's answer stands when the quota has no say.
	 */
	Admission quota(AdmissionRequest request, Admission admission) {
		Duration cooldownWait = (admission instanceof Admission.Wait wait) ? wait.delay() : Duration.ZERO;
		// On the same clock reading and budget as the cooldown's answer.
		Admission.Wait slot = admit(request.key().declared(), request.nowNanos(), cooldownWait,
				request.remainingBudget(), request.attemptReserve());
		return (slot != null && slot.delay().compareTo(cooldownWait) > 0) ? slot : admission;
	}

	/**
	 * Lets a first attempt under {@code key} that no cooldown holds go now when its quota
	 * needs no slot for it: the key has no quota, the quota has no say, or it is far from
	 * spent (then the request counts against what is left). {@link #admit} would let it go
	 * now too, and take the same share; a request it would hold gets {@code false}, and
	 * nothing is taken.
	 * @param key the request's cooldown key
	 * @param nowNanos the current monotonic reading
	 * @return whether the request may go now without a slot
	 * @since 0.3.0
	 */
	public boolean takeAtOnce(CooldownKey key, long nowNanos) {
		RateLimitSchedule schedule = this.schedules.get(key);
		return schedule == null || schedule.takeAtOnce(nowNanos);
	}

	/**
	 * Whether a first attempt under {@code key} that nothing else holds takes a slot of its
	 * quota, even one that is now: the quota is spread, not far from spent. A fleet sharing the
	 * quota takes its own slot for such a request too (docs/PACING.md, "Fleet"); one that goes
	 * at once or has no quota needs none. Takes nothing.
	 * @param key the request's cooldown key
	 * @param nowNanos the current monotonic reading
	 * @return whether the key's requests are spread
	 * @since 0.3.0
	 */
	public boolean spaces(CooldownKey key, long nowNanos) {
		RateLimitSchedule schedule = this.schedules.get(key);
		return schedule != null && schedule.spaces(nowNanos);
	}

	/**
	 * What a fleet sharing the quota of {@code key} spaces the slots it takes by: the interval
	 * before the reset, the one after it, and the time left until it (docs/PACING.md,
	 * "Fleet").
	 * @param key the request's cooldown key
	 * @param nowNanos the current monotonic reading
	 * @return the spacing, {@link QuotaSpacing#NONE} when the key is not paced
	 * @since 0.3.0
	 */
	public QuotaSpacing spacing(CooldownKey key, long nowNanos) {
		RateLimitSchedule schedule = this.schedules.get(key);
		return (schedule != null) ? schedule.spacing(nowNanos) : QuotaSpacing.NONE;
	}

	/**
	 * Sets whether a quota with a policy, while its origin is not seen to refill, is paced by a
	 * log of its last {@code q} requests (at most {@code q} in any {@code w / 0.99}, so a fixed
	 * window's allowance goes at its reset) rather than one every {@code w / q / 0.99}. The
	 * Redis store turns it on: its fleet's schedule counts every paced request of the key
	 * (docs/PACING.md, rule 10). Off otherwise, since instances on local stores may share an
	 * API key without knowing it, and each would send a whole window at once.
	 * @param logs whether windows are paced by the log
	 * @since 0.3.0
	 */
	public void logWindows(boolean logs) {
		this.logsWindows = logs;
	}

	/**
	 * Whether windows are paced by a log of their last requests ({@link #logWindows}).
	 * @return whether they are
	 * @since 0.3.0
	 */
	public boolean logsWindows() {
		return this.logsWindows;
	}

	/**
	 * Records that the origin of {@code key} refused a request (a cooldown started under it,
	 * here or, with a shared store, in another instance): its quota is not the log's to spend
	 * at once, so its slots are spread for 10 s, or two windows if longer (docs/PACING.md,
	 * rule 10).
	 * @param key the cooldown key the refusal was recorded under
	 * @param nowNanos the current monotonic reading
	 * @since 0.3.0
	 */
	public void crowded(CooldownKey key, long nowNanos) {
		RateLimitSchedule schedule = this.schedules.get(Objects.requireNonNull(key, "key"));
		if (schedule != null) {
			schedule.crowded(nowNanos);
		}
	}

	/** Whether a quota is kept for {@code key}: its origin announced one, under that key. */
	boolean keeps(CooldownKey key) {
		return this.schedules.containsKey(key);
	}

	/**
	 * Whether no key is paced: then {@link #admit} never holds a request.
	 * @return {@code true} if no quota is known
	 */
	public boolean isEmpty() {
		return this.schedules.isEmpty();
	}

	/**
	 * Whether a request to {@code host} may be paced: some key of that host is paced, or
	 * more keys than are worth scanning (then the answer is yes, to be safe). Cheap enough
	 * for a check before every request, so that one origin's quota does not send the calls
	 * to every other origin down the whole call path.
	 * @param host the request's host, any case, or {@code null} when it has none
	 * @return {@code false} only if no key of {@code host} is paced
	 */
	public boolean mayPace(@Nullable String host) {
		if (this.schedules.isEmpty()) {
			return false;
		}
		if (host == null || this.schedules.size() > HOSTS_SCANNED) {
			return true;
		}
		for (CooldownKey key : this.schedules.keySet()) {
			if (sameHost(key.origin().host(), host)) {
				return true;
			}
		}
		return false;
	}

	// Origin hosts are lower case with IPv6 literals in brackets, as URI.getHost() gives them.
	private static boolean sameHost(String originHost, String host) {
		return originHost.equalsIgnoreCase(host)
				|| (host.indexOf(':') >= 0 && !host.startsWith("[") && originHost.equalsIgnoreCase("[" + host + "]"));
	}

	/**
	 * The last quota each paced key's origin announced, ordered by key text (for the actuator
	 * endpoint). Forgets the quiet ones it passes.
	 * @param nowNanos the current monotonic reading
	 * @return an unmodifiable map from key to its last quota
	 */
	public Map<CooldownKey, RateLimitState> snapshot(long nowNanos) {
		List<Map.Entry<CooldownKey, RateLimitState>> entries = new ArrayList<>();
		this.schedules.forEach((key, schedule) -> {
			if (schedule.quiet(nowNanos)) {
				this.schedules.remove(key, schedule);
			}
			else {
				entries.add(Map.entry(key, schedule.state(nowNanos)));
			}
		});
		entries.sort(Comparator.comparing((Map.Entry<CooldownKey, RateLimitState> entry) -> entry.getKey().toString()));
		Map<CooldownKey, RateLimitState> snapshot = new LinkedHashMap<>();
		for (Map.Entry<CooldownKey, RateLimitState> entry : entries) {
			snapshot.put(entry.getKey(), entry.getValue());
		}
		return Collections.unmodifiableMap(snapshot);
	}

	/**
	 * Forgets what the origins announced, as an operator who ends cooldowns asks.
	 * @param origin the origin whose keys (every partition of it) are forgotten, or
	 * {@code null} for every key
	 */
	public void forget(@Nullable Origin origin) {
		this.schedules.keySet().removeIf((key) -> origin == null || key.origin().equals(origin));
	}


	/**
	 * How many keys are paced, for tests of the bound.
	 */
	int size() {
		return this.schedules.size();
	}

	private void forgetQuietest(CooldownKey justRecorded, long nowNanos) {
		this.schedules.entrySet().removeIf((entry) -> entry.getValue().quiet(nowNanos));
		int excess = this.schedules.size() - this.maxKeys;
		if (excess <= 0) {
			return;
		}
		List<Map.Entry<CooldownKey, RateLimitState>> candidates = new ArrayList<>();
		this.schedules.forEach((key, schedule) -> {
			if (!key.equals(justRecorded)) {
				candidates.add(Map.entry(key, schedule.state(nowNanos)));
			}
		});
		// The longest since the last response goes first: it is the least likely to be used.
		candidates.sort(Comparator.comparing((Map.Entry<CooldownKey, RateLimitState> entry) -> entry.getValue().age())
			.reversed());
		// A little below the bound, as the cooldowns' bound does: the next new key then finds
		// room instead of paying for another full scan.
		int evicted = excess + this.maxKeys / 16;
		for (int i = 0; i < evicted && i < candidates.size(); i++) {
			this.schedules.remove(candidates.get(i).getKey());
		}
	}

	private static long clamped(Duration duration) {
		return DurationMath.saturatedNanos(duration, DurationMath.DURATION_LIMIT_NANOS);
	}

}
