package dev.retryafter.store;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.DurationMath;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.core.protection.QuotaSpacing;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * Quota slots shared by a fleet through Redis: the slot a first attempt's paced hold waits
 * for, taken from one schedule for every instance instead of each instance's own.
 * <p>
 * Each instance paces a quota the origin announces on its own ({@code RateLimitPacing}), but
 * the count the origin announces is the fleet's, so N instances would send N times what it
 * allows. When the local door holds a first attempt for a quota slot
 * ({@link HoldReason#QUOTA}), or lets it go because its slot is now, this takes the slot
 * from a schedule kept in Redis, in one script on Redis's own clock (a generic cell rate
 * algorithm): the key keeps a theoretical arrival time (TAT); the slot is the later of Redis's
 * now plus the local wait and the TAT, and the TAT moves to the slot plus the quota's interval
 * where the slot lies: {@code t / r} before the reset the local schedule sees, the policy's
 * rate after it ({@link QuotaSpacing}), since the fleet's slots run ahead of any one
 * instance's. While the origin is not seen to refill, the key also keeps the fleet's last
 * {@code q} slots (at most 64, {@link QuotaSpacing#logs()}): a slot is never earlier than one
 * span of the window after the {@code q}-th latest, and past the reset the TAT stays at the
 * slot, so a fixed window's allowance goes together at its reset (docs/PACING.md, rule 10).
 * A {@code q}-th latest that went in an earlier window than the slot's, as the asking
 * instance's answers bound its reset ({@link QuotaSpacing#resetLateBy()}), frees the slot as
 * the slot's window begins, if that is sooner (rule 11). The key keeps the closest bounds on
 * the reset that any instance's answers set, and once a log has seen a window (here or in
 * another instance), the log alone says when a slot goes: an instance's own reset, named by
 * its own answers, and its spread of a count its log has not seen a window of, no longer
 * hold the fleet's slots back (rule 12). While slots are spread before the reset, no more go
 * after the request whose answer counted the fewest left than that count (rule 15).
 * The request then waits the later of the fleet's slot and its local one. A
 * request the quota does not spread (far from spent, or no quota) never takes a fleet slot.
 * A retry, or a first attempt a cooldown holds, goes without one while the quota is spread,
 * yet the origin counts it: the next slot the instance takes tells the script how many went
 * so ({@link UnslottedRequests}), and each is logged and moves the TAT one interval.
 * <p>
 * The key is {@code <prefix>quota:{<cooldown key>}}, a hash with the TAT, the log's fields
 * ({@code #0}..., {@code #n}), the bounds on the reset ({@code @rs}, {@code @rl}), until when a
 * log paces alone ({@code @p}), the widest spread ({@code @b}, {@code @bt}), the count that
 * leaves the fewest ({@code @mc}, {@code @ms}, {@code @mu}) and the instances that took a slot
 * in the last 10 s (so that on a Cluster the key's hash tag puts it on one slot); it expires
 * 2 s after its TAT, or after its last slot's span if that is later.
 * <p>
 * The round trip is bounded (50 ms): the script runs on a small pool of
 * its own and the request waits for its answer that long at most. Not connected, slower than
 * that, failed, or the pool full: the request takes a local share instead (its local slot,
 * spaced by the interval times the number of instances the last answer counted), never a
 * refusal, and {@link #fallbackCount()} counts it. A fleet slot that does not fit the
 * request's budget is not taken, and the request keeps its local slot.
 */
public final class FleetQuotaSlots {

	/** How long an instance counts as live after it last took a slot. */
	static final long LIVE_MILLIS = 10_000;

	/** How long a key outlives its TAT. */
	static final long EXPIRY_SLACK_MILLIS = 2_000;

	/**
	 * Room for a slot's way to the origin, and for the script's run after the instance read
	 * its reset: a slot that went this long before the earliest the reset may be reached the
	 * origin before it.
	 */
	static final long SLOT_WAY_MICROS = 300_000;

	private static final int FALLBACK_KEYS = 1_024;


	private final RedisLink link;

	private final FleetRoundTrips roundTrips;

	private final LongAdder fallbacks = new LongAdder();

	private final LongAdder taken = new LongAdder();

	private volatile int liveInstances = 1;

	// The local shares' TATs during a fallback, monotonic.
	private final ConcurrentHashMap<CooldownKey, Long> fallbackSlots = new ConcurrentHashMap<>();

	// Requests that went outside the fleet's slots while their quota was spread, not yet told.
	private final UnslottedRequests unslotted = new UnslottedRequests();

	FleetQuotaSlots(RedisLink link, FleetRoundTrips roundTrips) {
		this.link = Objects.requireNonNull(link, "link");
		this.roundTrips = Objects.requireNonNull(roundTrips, "roundTrips");
	}

	/** The script, for the round trips to load before a request needs it. */
	static RedisScript<List> script() {
		return FleetQuotaScript.TAKE;
	}

	/**
	 * The fleet's answer to the local door's: a quota slot from the fleet's schedule, any
	 * other admission as it is.
	 * @param request the request
	 * @param local what the local door answered
	 * @param spread what {@link #spreads} said before the door answered
	 * @return the admission; a quota hold never shorter than the local one
	 */
	Admission admit(AdmissionRequest request, Admission local, boolean spread) {
		CooldownKey key = request.key().declared();
		Admission.Wait quotaWait = (local instanceof Admission.Wait wait && wait.reason() == HoldReason.QUOTA) ? wait
				: null;
		boolean quotaHold = quotaWait != null;
		// A slot that is now is a slot too: the local schedule falls behind the fleet's, so
		// most of an instance's slots come out now, and each must still take the fleet's.
		if (!quotaHold && !(local == Admission.PROCEED && spread)) {
			if (goesUnslotted(request, local)) {
				this.unslotted.add(key, request.nowNanos());
			}
			return local;
		}
		QuotaSpacing spacing = this.link.protection().quotas().spacing(key, request.nowNanos());
		if (spacing.isNone()) {
			// No rate is known: the quota only holds requests until its reset, the same for all.
			return local;
		}
		long localWait = quotaHold ? quotaWait.delay().toNanos() : 0;
		long before = spacing.beforeReset().toNanos();
		long after = spacing.afterReset().toNanos();
		long resetIn = spacing.resetIn().toNanos();
		// A local share is spaced as the local slot lies, before the reset or after it.
		long interval = (before > 0 && (localWait < resetIn || after <= 0)) ? before : after;
		long budget = DurationMath.saturatedNanos(request.remainingBudget(), DurationMath.DURATION_LIMIT_NANOS);
		long reserve = Math.max(0,
				DurationMath.saturatedNanos(request.attemptReserve(), DurationMath.DURATION_LIMIT_NANOS));
		long maxWait = Math.max(localWait, (budget - reserve) / 2);
		long[] args = { micros(localWait), micros(before), micros(maxWait), micros(after), micros(resetIn),
				spacing.logs() ? spacing.logEntries() : 0, spacing.logs() ? micros(spacing.logSpan().toNanos()) : 0,
				this.unslotted.take(key, request.nowNanos()),
				micros(saturated(spacing.resetLateBy())) + SLOT_WAY_MICROS, micros(saturated(spacing.window())) };
		// Measured on this clock: the slots' instants are Redis's, when each was to go, and a
		// request goes a return trip after its slot, so the count's own burst lies before it.
		long countedAgo = micros(spacing.leftCountedAgo().toNanos());
		List<?> reply = this.roundTrips.call(FleetQuotaScript.TAKE, key(key),
				(deadline) -> new String[] { Long.toString(args[0]), Long.toString(args[1]), Long.toString(args[2]),
						this.link.instance(), Long.toString(LIVE_MILLIS * 1000), Long.toString(EXPIRY_SLACK_MILLIS),
						deadline, Long.toString(args[3]), Long.toString(args[4]), Long.toString(args[5]),
						Long.toString(args[6]), Long.toString(args[7]), Long.toString(args[8]),
						Long.toString(args[9]), Long.toString(SLOT_WAY_MICROS),
						spacing.logAlone() ? "1" : "0", Long.toString(spacing.leftBeforeReset()),
						Long.toString(countedAgo) });
		if (reply == null || reply.size() < 2 || !(reply.get(0) instanceof Number fleetWait)
				|| !(reply.get(1) instanceof Number live)) {
			// Not known to be told: the next slot tells them again. A script that ran after all
			// then counts them twice, which only spaces the fleet's next slots further.
			this.unslotted.restore(key, args[7], request.nowNanos());
			return fallbackOutsideTheLog(key, local, localWait, interval, maxWait, request.nowNanos());
		}
		this.liveInstances = Math.max(1, live.intValue());
		if (fleetWait.longValue() == -2) {
			// Late by Redis's clock, though not by this one's: no slot was taken.
			return fallbackOutsideTheLog(key, local, localWait, interval, maxWait, request.nowNanos());
		}
		if (fleetWait.longValue() < 0) {
			// The fleet's slot does not fit the budget: not taken, the local one stands.
			return local;
		}
		this.taken.increment();
		long fleetNanos = fleetWait.longValue() * 1000;
		if (reply.size() > 2 && reply.get(2) instanceof Number alone && alone.intValue() == 1) {
			// The fleet's log paces alone: the local wait is at most this instance's own
			// reset, named by its own answers and up to a second late, or its spread of a
			// count its log has not seen a window of, where the fleet's log has.
			return (fleetNanos > 0) ? new Admission.Wait(Duration.ofNanos(fleetNanos), HoldReason.QUOTA) : Admission.PROCEED;
		}
		return (fleetNanos > localWait) ? new Admission.Wait(Duration.ofNanos(fleetNanos), HoldReason.QUOTA) : local;
	}

	// A retry, or a first attempt a cooldown holds, goes without a slot while its quota is
	// spread: the origin counts it all the same, so the fleet's schedule must (the next slot
	// this instance takes tells it). Unknown, they overran each window by the retries of the
	// last one's refusals, whose retries overran the next.
	private boolean goesUnslotted(AdmissionRequest request, Admission local) {
		if (local instanceof Admission.Refuse || !request.readsQuotas()
				|| (request.firstAttempt() && !(local instanceof Admission.Wait))) {
			return false;
		}
		return this.link.protection().quotas().spaces(request.key().declared(), request.nowNanos());
	}

	/**
	 * Whether the local door will take a slot for this first attempt, maybe one that is now:
	 * asked before the door takes it, since a request it lets go outside the slots (a spare
	 * the origin saved) needs no fleet slot, and the door does not say which it was.
	 * @param request the request
	 * @return whether a slot the door gives it now is a slot of the fleet's too
	 */
	boolean spreads(AdmissionRequest request) {
		return request.firstAttempt() && request.readsQuotas() && request.mode() != CooldownMode.FAIL_FAST
				&& this.link.protection().quotas().spaces(request.key().declared(), request.nowNanos());
	}

	/**
	 * The Redis key of a quota: the store's prefix, then the cooldown key in a hash tag.
	 */
	String key(CooldownKey key) {
		return this.link.keyPrefix() + "quota:{" + key + "}";
	}

	// A request that takes a local share goes outside the fleet's slots (the script takes none
	// for a caller that gave up on it), yet the origin counts it: the next slot this instance
	// takes tells the fleet, as for a retry. Untold, a window whose slots the fleet had handed
	// out took the shares on top (logged: three shares, three refusals in that window).
	private Admission fallbackOutsideTheLog(CooldownKey key, Admission local, long localWait, long interval,
			long maxWait, long nowNanos) {
		this.unslotted.add(key, nowNanos);
		return fallback(key, local, localWait, interval, maxWait, nowNanos);
	}

	// This instance's share: its local slot, spaced by the interval times the instances last
	// counted, never a refusal.
	private Admission fallback(CooldownKey key, Admission local, long localWait, long interval, long maxWait,
			long nowNanos) {
		this.fallbacks.increment();
		int live = this.liveInstances;
		if (live <= 1) {
			return local;
		}
		if (this.fallbackSlots.size() > FALLBACK_KEYS) {
			this.fallbackSlots.clear();
		}
		long[] wait = { localWait };
		long share = interval * live;
		this.fallbackSlots.compute(key, (k, tat) -> {
			long slot = nowNanos + wait[0];
			if (tat != null && tat - slot > 0) {
				slot = tat;
			}
			if (slot - nowNanos > maxWait) {
				return tat;
			}
			wait[0] = slot - nowNanos;
			return slot + share;
		});
		return (wait[0] > localWait) ? new Admission.Wait(Duration.ofNanos(wait[0]), HoldReason.QUOTA) : local;
	}

	/**
	 * How many paced requests took their slot from a local share instead of the fleet's: Redis
	 * was not connected, slower than the bound, failed, or too many were waiting for it (the
	 * {@code http.client.retry.store.quota.fallbacks} counter).
	 * @return the count
	 */
	public long fallbackCount() {
		return this.fallbacks.sum();
	}

	/**
	 * How many paced requests took their slot from the fleet's schedule.
	 * @return the count
	 */
	public long takenCount() {
		return this.taken.sum();
	}

	/**
	 * A quantile of the round trips to Redis that paced requests waited for (the last
	 * 16,384, learned-pace slots' included), measured from handing the script over to reading
	 * its answer.
	 * @param quantile between 0 and 1
	 * @return the round trip, or {@link Duration#ZERO} when none was made
	 */
	public Duration roundTrip(double quantile) {
		return this.roundTrips.quantile(quantile);
	}

	private static long saturated(Duration duration) {
		return DurationMath.saturatedNanos(duration, DurationMath.DURATION_LIMIT_NANOS);
	}

	private static long micros(long nanos) {
		return FleetRoundTrips.micros(nanos);
	}

}
