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
 * Why: every instance hears every rejection, so at the first rejection of a burst each can
 * take its share of the origin's rate: what its own requests got accepted over the same span
 * before it. The shares add up to what the origin accepted. Spaced by its own rate alone, each
 * instance's slots run beside the others' and the fleet's requests land in clumps; and each
 * instance's learned rate describes sample windows of its own, which do not add up.
 * <p>
 * How: the script keeps, in a hash {@code <prefix>learned:{<cooldown key>}}, each instance's
 * last share, when it took it and when it last took a slot, a theoretical arrival time
 * (TAT) and the interval it was spaced at. On Redis's own clock it sums the shares of the
 * instances seen in the last 10 s that took theirs within half a server delay of the newest
 * (a share from an earlier rejection describes the origin before its rate changed), rescales
 * the queue still ahead of the TAT to the summed rate's interval when that changed (a queue
 * built at a rate learned too low otherwise kept every later request waiting at that rate:
 * 9 s of windows with one request accepted in 20, in one run), gives the slot at the later of
 * Redis's now plus what is left of the cooldown holding the request and the TAT, and
 * moves the TAT one interval of the summed rate past the slot. The instance then spaces its
 * own slots by the fleet's rate for 10 s, and a request it would let go at once while the
 * fleet's queue, as last answered, still stands (or stood less than a server delay ago) takes
 * a fleet slot too. The key expires 2 s after its TAT, and never before the instances' shares
 * would be forgotten.
 * <p>
 * Four more notes keep the sum whole. A share is sent when a rejection takes it, in the
 * background, so that an instance counts though it takes no slot. An instance hears only the
 * rejections that moved the fleet's cooldown, so the script answers how old the newest share
 * is, and an instance whose own is older than that sample by more than half a server delay
 * takes it again, dated to the sample, and sends it (left out of the sum, it paced the fleet
 * at the others' shares alone, a fraction of the origin's rate, with no rejection to correct
 * it). Each retry an instance lets go (retries are not paced, but the origin counts them)
 * moves the TAT one interval with the next slot it takes. And an instance with no learned
 * rate of its own sends the first attempts its cooldown holds into the fleet's schedule
 * rather than all at the cooldown's instant.
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

	// What the script answers when no instance has a rate: nothing to pace by.
	private static final long NO_RATE = -3;

	// How long ago an instance without a rate says it learned one: older than any live share,
	// so that it never makes the others' shares look stale.
	private static final long NO_SAMPLE_MICROS = 1_000L * LIVE_MILLIS * 1000;

	// Every instance takes its share at the first rejection of a burst it hears, within
	// milliseconds of the others, and the next no sooner than one server delay later: shares
	// within half a delay of the newest belong to its rejection (never closer than 100 ms); an
	// older one is left out of the sum, and taken again.
	private static final long MIN_ONE_REJECTION_NANOS = 100_000_000L;

	// KEYS[1] the key; ARGV[1] the cooldown's wait (us); ARGV[2] this instance's share (per second,
	// 0 without one); ARGV[3] the longest wait that fits the request's budget (us); ARGV[4]
	// this instance; ARGV[5] how long an instance's share counts (us); ARGV[6] how long the key
	// outlives its TAT (ms); ARGV[7] when its caller stops waiting, by Redis's clock as this
	// instance estimates it (us), or 0; ARGV[8] how long ago this instance's share was taken
	// (us); ARGV[9] how far apart shares taken at one rejection may be (us); ARGV[10] how many of
	// this instance's requests went unpaced since its last slot (retries), each moving the
	// TAT one interval. Returns {wait (us), or -1 when the slot does not fit, -2 when the
	// caller has stopped waiting, -3 when no instance has a rate; the fleet's interval (us);
	// the next free slot (us from now); how long ago the newest share was taken (us)}.
	private static final RedisScript<List> TAKE = RedisScript.of(FleetRoundTrips.SCRIPT_PREAMBLE + """
			local tat = 0
			local built = 0
			local seen = {}
			local rates = {}
			local learned = {}
			local fields = redis.call('HGETALL', KEYS[1])
			for i = 1, #fields, 2 do
			  local name = fields[i]
			  if name == 'tat' then
			    tat = tonumber(fields[i + 1]) or 0
			  elseif name == 'iv' then
			    built = tonumber(fields[i + 1]) or 0
			  elseif string.sub(name, 1, 2) == 'r:' then
			    rates[string.sub(name, 3)] = tonumber(fields[i + 1]) or 0
			  elseif string.sub(name, 1, 2) == 'l:' then
			    learned[string.sub(name, 3)] = tonumber(fields[i + 1]) or 0
			  else
			    seen[name] = tonumber(fields[i + 1]) or 0
			  end
			end
			local own = tonumber(ARGV[2]) or 0
			local ownLearned = now - (tonumber(ARGV[8]) or 0)
			local live = {}
			local newest = ownLearned
			for name, at in pairs(seen) do
			  if name ~= ARGV[4] then
			    if now - at > tonumber(ARGV[5]) then
			      redis.call('HDEL', KEYS[1], name, 'r:' .. name, 'l:' .. name)
			    elseif rates[name] and rates[name] > 0 then
			      live[name] = rates[name]
			      if learned[name] and learned[name] > newest then
			        newest = learned[name]
			      end
			    end
			  end
			end
			for name, rate in pairs(rates) do
			  if seen[name] == nil and name ~= ARGV[4] then
			    redis.call('HDEL', KEYS[1], 'r:' .. name, 'l:' .. name)
			  end
			end
			-- Only the shares taken at the newest rejection add up to the origin's rate: one
			-- taken before it describes the origin before its rate changed. A share without a
			-- note of when counts, as it did before the note.
			local oldest = newest - (tonumber(ARGV[9]) or 0)
			local sum = 0
			if ownLearned >= oldest then
			  sum = own
			end
			for name, rate in pairs(live) do
			  if learned[name] == nil or learned[name] >= oldest then
			    sum = sum + rate
			  end
			end
			redis.call('HSET', KEYS[1], ARGV[4], string.format('%.0f', now))
			if learned[ARGV[4]] == nil or learned[ARGV[4]] <= ownLearned then
			  redis.call('HSET', KEYS[1], 'r:' .. ARGV[4], ARGV[2], 'l:' .. ARGV[4], string.format('%.0f', ownLearned))
			end
			local keep = math.floor(tonumber(ARGV[5]) / 1000)
			local deadline = tonumber(ARGV[7]) or 0
			if sum <= 0 or (deadline > 0 and now > deadline) then
			  redis.call('PEXPIRE', KEYS[1], math.max(math.floor((tat - now) / 1000) + tonumber(ARGV[6]), keep))
			  if sum <= 0 then
			    return {-3, 0, 0}
			  end
			  return {-2, 0, 0}
			end
			local interval = math.max(1, math.floor(1000000 / sum))
			-- The queue ahead was spaced at the interval of its day: at a new rate, what is
			-- left of it is as long as it would be at this one.
			if tat > now and built > 0 and built ~= interval then
			  tat = now + (tat - now) * interval / built
			end
			local spent = tonumber(ARGV[10]) or 0
			if spent > 0 then
			  tat = math.max(tat, now) + spent * interval
			end
			local slot = math.max(now + tonumber(ARGV[1]), tat)
			local wait = slot - now
			if wait > tonumber(ARGV[3]) then
			  redis.call('PEXPIRE', KEYS[1], math.max(math.floor((tat - now) / 1000) + tonumber(ARGV[6]), keep))
			  return {-1, interval, math.floor(math.max(tat - now, 0)), math.floor(now - newest)}
			end
			local nextTat = slot + interval
			redis.call('HSET', KEYS[1], 'tat', string.format('%.0f', nextTat), 'iv', string.format('%.0f', interval))
			redis.call('PEXPIRE', KEYS[1], math.max(math.floor((nextTat - now) / 1000) + tonumber(ARGV[6]), keep))
			return {math.floor(wait), interval, math.floor(nextTat - now), math.floor(now - newest)}
			""", List.class);

	// KEYS[1] the key; ARGV[1] this instance's rate (per second); ARGV[2] this instance;
	// ARGV[3] how long ago it was learned (us); ARGV[4] how long an instance's rate counts
	// (us). Notes the rate as a slot would, and takes none; a share older than the one kept
	// (two notes run out of order on the pool's threads) changes nothing.
	private static final RedisScript<Long> SHARE = RedisScript.of(FleetRoundTrips.SCRIPT_PREAMBLE + """
			local taken = now - (tonumber(ARGV[3]) or 0)
			local kept = tonumber(redis.call('HGET', KEYS[1], 'l:' .. ARGV[2]))
			if kept and kept > taken then
			  return 0
			end
			redis.call('HSET', KEYS[1], ARGV[2], string.format('%.0f', now), 'r:' .. ARGV[2], ARGV[1],
			  'l:' .. ARGV[2], string.format('%.0f', taken))
			local keep = math.floor(tonumber(ARGV[4]) / 1000)
			if redis.call('PTTL', KEYS[1]) < keep then
			  redis.call('PEXPIRE', KEYS[1], keep)
			end
			return 1
			""", Long.class);

	private final RedisLink link;

	private final FleetRoundTrips roundTrips;

	private final LongAdder fallbacks = new LongAdder();

	private final LongAdder taken = new LongAdder();

	FleetLearnedSlots(RedisLink link, FleetRoundTrips roundTrips) {
		this.link = Objects.requireNonNull(link, "link");
		this.roundTrips = Objects.requireNonNull(roundTrips, "roundTrips");
		rates().onSample(this::sampled);
	}

	/** The scripts, for the round trips to load before a request needs them. */
	static List<RedisScript<?>> scripts() {
		return List.of(TAKE, SHARE);
	}

	// A rejection took a new share of the fleet's rate: the fleet hears it now, so that its
	// rate is the sum of the newest shares though this instance takes no slot.
	private void sampled(CooldownKey key, long nowNanos) {
		double share = rates().fleetShare(key);
		if (!(share > 0)) {
			// Nothing accepted yet (the first rejection an instance hears): nothing to add,
			// and no key written for it.
			return;
		}
		this.roundTrips.send(SHARE, key(key), () -> {
			long ago = Math.max(0, this.link.monotonicClock().nanoTime() - nowNanos);
			return new String[] { Double.toString(share), this.link.instance(),
					Long.toString(FleetRoundTrips.micros(ago)), Long.toString(LIVE_MILLIS * 1000) };
		});
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
	 * @return the admission; a learned-pace hold at the fleet's slot, never before the cooldown's
	 * instant, whatever this instance's own queue said
	 */
	Admission admit(AdmissionRequest request, Admission local, boolean queueStands) {
		Admission.Wait pacedWait = (local instanceof Admission.Wait wait && wait.reason() == HoldReason.PACING) ? wait
				: null;
		CooldownKey key = pacerKey(request);
		double own = rates().own(key);
		// Without a share of its own (its requests got nothing accepted in the fleet's last
		// sample, or it has heard no sample yet) an instance's first attempts that the
		// cooldown holds anyway take the fleet's slots too: let go at the cooldown's instant
		// plus jitter, beside the slots spaced at the others' rates, they took the whole of
		// the origin's next window within milliseconds.
		Admission.Wait heldWithoutRate = (Double.isNaN(own) && local instanceof Admission.Wait wait
				&& (wait.reason() == HoldReason.COOLDOWN || wait.reason() == HoldReason.RELEASE_WINDOW)
				&& rates().paces(request, key)) ? wait : null;
		if (pacedWait == null && heldWithoutRate == null && !(local == Admission.PROCEED && queueStands)) {
			return local;
		}
		long nowNanos = request.nowNanos();
		// What the fleet sums is each instance's share, taken at the same rejection, not the
		// rate each one learned between rejections of its own choosing.
		double share = rates().fleetShare(key);
		long shareAgo = rates().fleetShareAgoNanos(key, nowNanos);
		if (Double.isNaN(share) || shareAgo < 0) {
			share = 0;
			shareAgo = NO_SAMPLE_MICROS * 1000;
		}
		long oneRejection = Math.max(MIN_ONE_REJECTION_NANOS, rates().serverDelayNanos(key) / 2);
		Admission.Wait localHold = (pacedWait != null) ? pacedWait : heldWithoutRate;
		long localWait = (localHold != null) ? localHold.delay().toNanos() : 0;
		// A local slot lies behind this instance's own queue, spaced at its own share until the
		// fleet first answers: asking the fleet for a slot that late moved the fleet's TAT there
		// and left the fleet's slots before it empty (13-19 requests in the window the first
		// cooldown released into, where 20 were allowed). The fleet's schedule counts every
		// instance's slots and retries; from here only the cooldown's instant bounds it.
		long askedWait = (pacedWait != null) ? Math.min(localWait, cooldownNanos(request, key)) : localWait;
		long budget = DurationMath.saturatedNanos(request.remainingBudget(), DurationMath.DURATION_LIMIT_NANOS);
		long reserve = Math.max(0,
				DurationMath.saturatedNanos(request.attemptReserve(), DurationMath.DURATION_LIMIT_NANOS));
		long maxWait = Math.max(localWait, budget - reserve);
		long spent = rates().takeSpent(key);
		String ownShare = Double.toString(share);
		long ownShareAgo = shareAgo;
		List<?> reply = this.roundTrips.call(TAKE, key(key),
				(deadline) -> new String[] { Long.toString(FleetRoundTrips.micros(askedWait)), ownShare,
						Long.toString(FleetRoundTrips.micros(maxWait)), this.link.instance(),
						Long.toString(LIVE_MILLIS * 1000), Long.toString(EXPIRY_SLACK_MILLIS), deadline,
						Long.toString(FleetRoundTrips.micros(ownShareAgo)),
						Long.toString(FleetRoundTrips.micros(oneRejection)),
						Long.toString(spent) });
		if (reply != null && !reply.isEmpty() && reply.get(0) instanceof Number none && none.longValue() == NO_RATE) {
			// Nobody in the fleet has a rate: nothing paces the request but its cooldown.
			return local;
		}
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
		if (reply.size() > 3 && reply.get(3) instanceof Number newestAgo
				&& ownShareAgo - newestAgo.longValue() * 1000 > oneRejection) {
			// This instance's share is older than the fleet's newest sample, and the fleet's
			// sum left it out: take it again, for the sample the others took theirs at.
			long sampleNanos = nowNanos - Math.max(0, newestAgo.longValue()) * 1000;
			if (rates().joinShare(key, nowNanos, sampleNanos)) {
				sampled(key, sampleNanos);
			}
		}
		if (fleetWait.longValue() < 0) {
			// The fleet's slot does not fit the budget: not taken, the local one stands.
			return local;
		}
		this.taken.increment();
		long fleetNanos = fleetWait.longValue() * 1000;
		if (pacedWait != null) {
			return (fleetNanos > 0) ? new Admission.Wait(Duration.ofNanos(fleetNanos), HoldReason.PACING)
					: Admission.PROCEED;
		}
		return (fleetNanos > localWait) ? new Admission.Wait(Duration.ofNanos(fleetNanos), HoldReason.PACING) : local;
	}

	// How long the cooldown holding the request still lasts: a fleet slot is never before it.
	private long cooldownNanos(AdmissionRequest request, CooldownKey pacerKey) {
		long nowNanos = request.nowNanos();
		return Math.max(this.link.protection().remaining(request.key(), nowNanos).toNanos(),
				this.link.protection().remaining(pacerKey, nowNanos).toNanos());
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
