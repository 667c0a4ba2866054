package dev.retryafter.store;

import java.util.List;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The script {@link FleetQuotaSlots} takes a fleet's quota slot with, in one step on Redis's
 * own clock: kept apart so that the schedule's Java stays readable beside it.
 */
final class FleetQuotaScript {

	// KEYS[1] the quota's key; ARGV[1] the local wait (us); ARGV[2] the interval before the
	// reset (us), ARGV[8] the one after it (us), ARGV[9] the time to the reset (us): a slot
	// before the reset is followed by the next a t / r later, but never later than an interval
	// of the rate past the reset, since the window the reset opens has its own allowance;
	// ARGV[3] the longest wait that fits the request's budget (us); ARGV[4] this instance;
	// ARGV[5] how long an instance counts as live (us); ARGV[6] how long the key outlives its
	// TAT (ms); ARGV[7] when its caller stops waiting, by Redis's clock as this instance
	// estimates it (us), or 0; ARGV[10] how many slots may go in any ARGV[11] (us), or 0 when
	// slots are only spaced by the intervals: the last slots are kept in fields '#0'... with
	// their count in '#n' (a slot goes no earlier than one span after the oldest of them, nor
	// than the start of the window after the oldest's: ARGV[13] (us) is how late the reset
	// ahead may be, plus a slot's way, ARGV[15] (us), and ARGV[14] (us) the window, 0 when not
	// known; an oldest that went before the earliest the current window may have begun frees
	// the slot at once, and one that went before the earliest the reset may be frees it at the
	// reset), and a slot before the reset is then followed by the next no later than the
	// reset, when the window's allowance may go at once; ARGV[12] how many of this instance's
	// requests went outside the fleet's slots since its last one (retries, requests a cooldown
	// held), each logged now and moving the TAT one interval; ARGV[16] '1' when this
	// instance's log has seen a window ('@p' then says so to the fleet for two windows).
	// The fleet keeps the closest bounds on the reset any instance's answers set ('@rs' the
	// earliest it may be late to, '@rl' the latest it lies after): an instance's bounds that
	// meet the fleet's within a window bound the same reset, and the two are narrowed
	// together; bounds a window and more later are the next window's, and replace them; bounds
	// that neither meet nor lie a window apart are left alone. While the log paces alone (here
	// or in another instance), the instance's spread is not the fleet's (its wait for a spread
	// slot does not count once the log holds a window), and its local wait counts up to the
	// fleet's reset, no later: it waits for a reset its own answers named. Slots spread before
	// a reset are spaced by the widest spread any instance told until that reset ('@b', kept
	// until '@bt'): each instance spreads what its own answers counted left, and the fewest
	// left is the fleet's. ARGV[17] is the fewest left this instance's answers counted before
	// the reset while it spreads, or -1, and ARGV[18] (us) how long ago the request that count
	// answered went: the log's slots after it, and before the reset (late if anything, so
	// this counts more, never fewer), are not in the count, and once they are as many, the
	// slot goes at the reset. The count that leaves the fewest is kept for the fleet ('@mc'
	// counted, '@ms' its request's instant, until its reset '@mu'), and holds the slots of a
	// reset within half a window of its own (resets named in whole seconds lie up to a second
	// apart), not the next window's. Returns
	// {wait (us), or -1 when the slot does not fit, or -2 when the caller has stopped waiting
	// and took a local share, live instances, 1 when the log paced alone}.
	static final RedisScript<List> TAKE = RedisScript.of(FleetRoundTrips.SCRIPT_PREAMBLE + """
			local tat = 0
			local live = 1
			local logged = {}
			local bounds = {}
			local fields = redis.call('HGETALL', KEYS[1])
			for i = 1, #fields, 2 do
			  local name = fields[i]
			  if name == 'tat' then
			    tat = tonumber(fields[i + 1]) or 0
			  elseif string.sub(name, 1, 1) == '#' then
			    logged[name] = tonumber(fields[i + 1]) or 0
			  elseif string.sub(name, 1, 1) == '@' then
			    bounds[name] = tonumber(fields[i + 1]) or 0
			  elseif name ~= ARGV[4] then
			    local seen = tonumber(fields[i + 1]) or 0
			    if now - seen > tonumber(ARGV[5]) then
			      redis.call('HDEL', KEYS[1], name)
			    else
			      live = live + 1
			    end
			  end
			end
			redis.call('HSET', KEYS[1], ARGV[4], string.format('%.0f', now))
			local entries = math.floor(tonumber(ARGV[10]) or 0)
			local span = tonumber(ARGV[11]) or 0
			if span <= 0 or entries < 0 then
			  entries = 0
			end
			local count = logged['#n'] or 0
			if count > 0 and (logged['#e'] ~= entries or logged['#s'] ~= span) then
			  for name in pairs(logged) do
			    redis.call('HDEL', KEYS[1], name)
			  end
			  count = 0
			end
			local before = tonumber(ARGV[2])
			local after = tonumber(ARGV[8])
			local resetIn = tonumber(ARGV[9]) or 0
			local late = tonumber(ARGV[13]) or 0
			local window = tonumber(ARGV[14]) or 0
			local way = tonumber(ARGV[15]) or 0
			local alone = 0
			if entries > 0 and (ARGV[16] == '1' or (bounds['@p'] or 0) > now) then
			  alone = 1
			  if ARGV[16] == '1' then
			    local hold = 2 * math.max(window, span)
			    redis.call('HSET', KEYS[1], '@p', string.format('%.0f', now + hold))
			  end
			end
			local spent = math.min(math.floor(tonumber(ARGV[12]) or 0), 64)
			if spent > 0 then
			  local step = after
			  if before > 0 then
			    step = before
			  end
			  tat = math.max(tat, now) + spent * step
			  redis.call('HSET', KEYS[1], 'tat', string.format('%.0f', tat))
			  if entries > 0 then
			    for i = 1, spent do
			      logged['#' .. (count % entries)] = now
			      redis.call('HSET', KEYS[1], '#' .. (count % entries), string.format('%.0f', now))
			      count = count + 1
			    end
			    redis.call('HSET', KEYS[1], '#n', count, '#e', entries, '#s', string.format('%.0f', span))
			  end
			  redis.call('PEXPIRE', KEYS[1], math.floor(math.max(tat - now, span) / 1000) + tonumber(ARGV[6]))
			end
			local deadline = tonumber(ARGV[7]) or 0
			if deadline > 0 and now > deadline then
			  if tat <= now and count == 0 then
			    redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[6]))
			  end
			  return {-2, live}
			end
			if resetIn > 0 and window > 0 and late - way < window then
			  local rs = now + resetIn
			  local rl = rs - (late - way)
			  local srs = bounds['@rs'] or 0
			  local srl = bounds['@rl'] or 0
			  local adopted = true
			  if srs > now and math.max(rs, srs) - math.min(rl, srl) < window then
			    if math.max(rl, srl) <= math.min(rs, srs) then
			      rs = math.min(rs, srs)
			      rl = math.max(rl, srl)
			    else
			      adopted = false
			    end
			  elseif srs > now and rs < srs then
			    adopted = false
			  end
			  if adopted then
			    redis.call('HSET', KEYS[1], '@rs', string.format('%.0f', rs), '@rl', string.format('%.0f', rl))
			    resetIn = rs - now
			    late = rs - rl + way
			  end
			end
			local asked = tonumber(ARGV[1])
			if alone == 1 then
			  if before > 0 and count >= entries then
			    asked = 0
			  elseif resetIn > 0 then
			    asked = math.min(asked, resetIn)
			  end
			  before = 0
			end
			if before > 0 then
			  if (bounds['@bt'] or 0) > now then
			    before = math.max(before, bounds['@b'] or 0)
			  end
			  redis.call('HSET', KEYS[1], '@b', string.format('%.0f', before), '@bt', string.format('%.0f', now + resetIn))
			end
			local slot = math.max(now + asked, tat)
			if entries > 0 and count >= entries then
			  local oldest = logged['#' .. (count % entries)] or 0
			  local free = oldest + span
			  local sure = now + resetIn - late
			  if resetIn > 0 and window > 0 and oldest < sure - window then
			    free = math.min(free, now + resetIn - window)
			  elseif resetIn > 0 and oldest < sure then
			    free = math.min(free, now + resetIn)
			  end
			  slot = math.max(slot, free)
			end
			local counted = math.floor(tonumber(ARGV[17]) or -1)
			if before > 0 and entries > 0 and slot < now + resetIn then
			  local function unspent(left, since)
			    local went = 0
			    for i = 0, math.min(count, entries) - 1 do
			      local at = logged['#' .. i] or 0
			      if at > since and at < now + resetIn then
			        went = went + 1
			      end
			    end
			    return left - went
			  end
			  local fewest = nil
			  local told = bounds['@mu'] or 0
			  if told > now and math.abs(now + resetIn - told) < math.max(window / 2, 1000000) then
			    fewest = unspent(bounds['@mc'] or 0, bounds['@ms'] or 0)
			  end
			  if counted >= 0 then
			    local since = now - (tonumber(ARGV[18]) or 0)
			    local own = unspent(counted, since)
			    if fewest == nil or own < fewest then
			      fewest = own
			      redis.call('HSET', KEYS[1], '@mc', counted, '@ms', string.format('%.0f', since),
			        '@mu', string.format('%.0f', now + resetIn))
			    end
			  end
			  if fewest ~= nil and fewest <= 0 then
			    slot = now + resetIn
			  end
			end
			local wait = slot - now
			if wait > tonumber(ARGV[3]) then
			  if tat <= now and count == 0 then
			    redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[6]))
			  end
			  return {-1, live}
			end
			local reset = now + resetIn
			local nextTat
			if before > 0 and (slot < reset or after <= 0) then
			  nextTat = slot + before
			  if entries > 0 then
			    nextTat = math.min(nextTat, math.max(slot, reset))
			  elseif after > 0 then
			    nextTat = math.min(nextTat, math.max(slot, reset) + after)
			  end
			elseif entries > 0 then
			  nextTat = slot
			else
			  nextTat = slot + after
			end
			redis.call('HSET', KEYS[1], 'tat', string.format('%.0f', nextTat))
			local keep = nextTat - now
			if entries > 0 then
			  redis.call('HSET', KEYS[1], '#' .. (count % entries), string.format('%.0f', slot), '#n', count + 1,
			    '#e', entries, '#s', string.format('%.0f', span))
			  keep = math.max(keep, slot + span - now)
			end
			redis.call('PEXPIRE', KEYS[1], math.floor(keep / 1000) + tonumber(ARGV[6]))
			return {math.floor(wait), live, alone}
			""", List.class);

	private FleetQuotaScript() {
	}

}
