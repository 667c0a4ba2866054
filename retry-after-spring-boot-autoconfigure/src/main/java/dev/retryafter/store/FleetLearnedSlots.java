package dev.retryafter.store;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.DurationMath;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.core.protection.LearnedRates;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * Learned-pace slots shared by a fleet through Redis: the slot a first attempt held by a
 * learned rate ({@link HoldReason#PACING}) waits for, taken from one schedule for every
 * instance, spaced by the fleet's rate.
 * <p>
 * Why: every instance hears every rejection, so each learns from the requests it sent
 * between two of them the share of the origin's rate it got. Spaced by its share alone, each
 * instance's slots run beside the others' and the fleet's requests land in clumps; and as
 * shares shift, each instance's estimate lags. The shares add up to the fleet's rate, since
 * the instances' sample windows open and close at the same rejections.
 * <p>
 * How: the script keeps, in a hash {@code <prefix>learned:{<cooldown key>}}, each instance's
 * last rate and when it last took a slot, and a theoretical arrival time (TAT). On Redis's own
 * clock it sums the rates of the instances seen in the last 10 s, gives the slot at the later
 * of Redis's now plus the local wait (which covers the cooldown's instant) and the TAT, and
 * moves the TAT one interval of the summed rate past the slot. The instance then spaces its
 * own slots by the fleet's rate for 10 s, and a request it would let go at once while the
 * fleet's queue, as last answered, still stands takes a fleet slot too. The key expires 2 s
 * after its TAT, and never before the instances' rates would be forgotten.
 * <p>
 * The round trip is bounded as for quota slots ({@link FleetRoundTrips}). Not connected,
 * slower than the bound, failed, or too many waiting: the request keeps its local slot and
 * the instance spaces by its own rate again, its measured share of the origin's; never a
 * refusal, and {@link #fallbackCount()} counts it. A fleet slot that does not fit the
 * request's budget is not taken.
 */
public final class FleetLearnedSlots {

	/** How long an instance's rate counts after it last took a slot. */
	static final long LIVE_MILLIS = 10_000;

	private static final long LIVE_NANOS = LIVE_MILLIS * 1_000_000;

	private static final long EXPIRY_SLACK_MILLIS = 2_000;

	// KEYS[1] the key; ARGV[1] the local wait (us); ARGV[2] this instance's rate (per second);
	// ARGV[3] the longest wait that fits the request's budget (us); ARGV[4] this instance;
	// ARGV[5] how long an instance's rate counts (us); ARGV[6] how long the key outlives its
	// TAT (ms); ARGV[7] when its caller stops waiting, by Redis's clock as this instance
	// estimates it (us), or 0. Returns {wait (us), or -1 when the slot does not fit, or -2 when
	// the caller has stopped waiting; the fleet's interval (us); the next free slot (us from now)}.
	private static final RedisScript<List> TAKE = RedisScript.of(FleetRoundTrips.SCRIPT_PREAMBLE + """
			local tat = 0
			local seen = {}
			local rates = {}
			local fields = redis.call('HGETALL', KEYS[1])
			for i = 1, #fields, 2 do
			  local name = fields[i]
			  if name == 'tat' then
			    tat = tonumber(fields[i + 1]) or 0
			  elseif string.sub(name, 1, 2) == 'r:' then
			    rates[string.sub(name, 3)] = tonumber(fields[i + 1]) or 0
			  else
			    seen[name] = tonumber(fields[i + 1]) or 0
			  end
			end
			local own = tonumber(ARGV[2]) or 0
			local sum = own
			for name, at in pairs(seen) do
			  if name ~= ARGV[4] then
			    if now - at > tonumber(ARGV[5]) then
			      redis.call('HDEL', KEYS[1], name, 'r:' .. name)
			    elseif rates[name] and rates[name] > 0 then
			      sum = sum + rates[name]
			    end
			  end
			end
			for name, rate in pairs(rates) do
			  if seen[name] == nil and name ~= ARGV[4] then
			    redis.call('HDEL', KEYS[1], 'r:' .. name)
			  end
			end
			redis.call('HSET', KEYS[1], ARGV[4], string.format('%.0f', now), 'r:' .. ARGV[4], ARGV[2])
			local keep = math.floor(tonumber(ARGV[5]) / 1000)
			local deadline = tonumber(ARGV[7]) or 0
			if sum <= 0 or (deadline > 0 and now > deadline) then
			  redis.call('PEXPIRE', KEYS[1], math.max(math.floor((tat - now) / 1000) + tonumber(ARGV[6]), keep))
			  return {-2, 0, 0}
			end
			local interval = math.max(1, math.floor(1000000 / sum))
			local slot = math.max(now + tonumber(ARGV[1]), tat)
			local wait = slot - now
			if wait > tonumber(ARGV[3]) then
			  redis.call('PEXPIRE', KEYS[1], math.max(math.floor((tat - now) / 1000) + tonumber(ARGV[6]), keep))
			  return {-1, interval, math.floor(math.max(tat - now, 0))}
			end
			local nextTat = slot + interval
			redis.call('HSET', KEYS[1], 'tat', string.format('%.0f', nextTat))
			redis.call('PEXPIRE', KEYS[1], math.max(math.floor((nextTat - now) / 1000) + tonumber(ARGV[6]), keep))
			return {math.floor(wait), interval, math.floor(nextTat - now)}
			""", List.class);

	private final RedisLink link;

	private final FleetRoundTrips roundTrips;

	private final LongAdder fallbacks = new LongAdder();

	private final LongAdder taken = new LongAdder();

	FleetLearnedSlots(RedisLink link, FleetRoundTrips roundTrips) {
		this.link = Objects.requireNonNull(link, "link");
		this.roundTrips = Objects.requireNonNull(roundTrips, "roundTrips");
	}

	/** The script, for the round trips to load before a request needs it. */
	static RedisScript<List> script() {
		return TAKE;
	}

	/**
	 * Whether a first attempt the local door may let go at once belongs to the fleet's queue
	 * of paced requests; asked before the door answers, as the door's own slot changes what
	 * it says.
	 * @param request the request
	 * @return whether a {@link Admission#PROCEED} from the door takes a fleet slot
	 */
	boolean queueStands(AdmissionRequest request) {
		return rates().fleetQueueStands(request, pacerKey(request));
	}

	/**
	 * The fleet's answer to the local door's: a learned-pace slot from the fleet's schedule,
	 * any other admission as it is.
	 * @param request the request
	 * @param local what the local door answered
	 * @param queueStands what {@link #queueStands} said before the door answered
	 * @return the admission; a learned-pace hold never shorter than the local one
	 */
	Admission admit(AdmissionRequest request, Admission local, boolean queueStands) {
		Admission.Wait pacedWait = (local instanceof Admission.Wait wait && wait.reason() == HoldReason.PACING) ? wait
				: null;
		if (pacedWait == null && !(local == Admission.PROCEED && queueStands)) {
			return local;
		}
		CooldownKey key = pacerKey(request);
		double own = rates().own(key);
		if (Double.isNaN(own)) {
			return local;
		}
		long nowNanos = request.nowNanos();
		long localWait = (pacedWait != null) ? pacedWait.delay().toNanos() : 0;
		long budget = DurationMath.saturatedNanos(request.remainingBudget(), DurationMath.DURATION_LIMIT_NANOS);
		long reserve = Math.max(0,
				DurationMath.saturatedNanos(request.attemptReserve(), DurationMath.DURATION_LIMIT_NANOS));
		long maxWait = Math.max(localWait, budget - reserve);
		List<?> reply = this.roundTrips.call(TAKE, key(key),
				(deadline) -> new String[] { Long.toString(FleetRoundTrips.micros(localWait)), Double.toString(own),
						Long.toString(FleetRoundTrips.micros(maxWait)), this.link.instance(),
						Long.toString(LIVE_MILLIS * 1000), Long.toString(EXPIRY_SLACK_MILLIS), deadline });
		if (reply == null || reply.size() < 3 || !(reply.get(0) instanceof Number fleetWait)
				|| !(reply.get(1) instanceof Number interval) || !(reply.get(2) instanceof Number queueEnd)
				|| fleetWait.longValue() == -2 || interval.longValue() <= 0) {
			// The instance's own rate is its measured share of the origin's: the local share.
			this.fallbacks.increment();
			rates().fleetPaced(key, Double.NaN, nowNanos, nowNanos);
			return local;
		}
		rates().fleetPaced(key, 1e6 / interval.longValue(), nowNanos + LIVE_NANOS,
				nowNanos + queueEnd.longValue() * 1000);
		if (fleetWait.longValue() < 0) {
			// The fleet's slot does not fit the budget: not taken, the local one stands.
			return local;
		}
		this.taken.increment();
		long fleetNanos = fleetWait.longValue() * 1000;
		return (fleetNanos > localWait) ? new Admission.Wait(Duration.ofNanos(fleetNanos), HoldReason.PACING) : local;
	}

	/**
	 * The Redis key of a learned rate: the store's prefix, then the cooldown key in a hash tag.
	 */
	String key(CooldownKey key) {
		return this.link.keyPrefix() + "learned:{" + key + "}";
	}

	/**
	 * How many paced requests kept their local slot because the fleet's was out of reach: not
	 * connected, slower than the bound, failed, or too many waiting (the
	 * {@code http.client.retry.store.quota.fallbacks} counter, {@code reason=pacing}).
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

	private CooldownKey pacerKey(AdmissionRequest request) {
		return this.link.protection().holder(request.key(), HoldReason.PACING, request.nowNanos());
	}

	private LearnedRates rates() {
		return this.link.protection().learnedRates();
	}

}
