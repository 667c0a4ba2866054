package dev.retryafter.store;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * What a {@link RedisCooldownStore} has to tell Redis: cooldowns to write and ends to
 * publish, queued by requests (never waiting) and sent by the background thread while the
 * store is connected, or on recovery.
 */
final class WriteQueue {

	// KEYS[1] the key; ARGV[1] the delay (ms); ARGV[2] the channel; ARGV[3] the message to
	// publish if the delay wins; ARGV[4] this instance's max-duration (ms). The instant is
	// Redis's own, so instances' clocks play no part. Keys are not signed, so what a key holds
	// is trusted only as far as a store could have written it: a store's key expires at the
	// instant it holds, at most max-duration away. One without an expiry, or of another type,
	// is taken as absent; one beyond that is cut to the earliest of its instant, its expiry and
	// max-duration from now, and rewritten so, so a planted key heals within max-duration.
	// Returns the time left (ms) held afterwards.
	private static final RedisScript<Long> LATER_WINS = RedisScript.of("""
			local time = redis.call('TIME')
			local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
			local proposed = now + tonumber(ARGV[1])
			local value = redis.pcall('GET', KEYS[1])
			if type(value) == 'table' then
			  redis.call('DEL', KEYS[1])
			  value = false
			end
			local held = tonumber(value)
			if held then
			  local ttl = redis.call('PTTL', KEYS[1])
			  if ttl > 0 then
			    local trusted = math.min(held, now + ttl, now + tonumber(ARGV[4]))
			    if trusted >= proposed then
			      if trusted < held or now + ttl > trusted + 1 then
			        local repaired = string.format('%.0f', trusted)
			        redis.call('SET', KEYS[1], repaired)
			        redis.call('PEXPIREAT', KEYS[1], repaired)
			      end
			      return trusted - now
			    end
			  end
			end
			local written = string.format('%.0f', proposed)
			redis.call('SET', KEYS[1], written)
			redis.call('PEXPIREAT', KEYS[1], written)
			redis.call('PUBLISH', ARGV[2], ARGV[3])
			return tonumber(ARGV[1])
			""", Long.class);

	private static final String ALL = "*";

	private final RedisLink link;

	private final StoreKeys keys;

	private final ConnectionHealth health;

	// Monotonic not-before instant of each key recorded here and not yet written, per key: a
	// burst of 429s from one origin becomes one write, and the cooldowns recorded during an
	// outage are published on recovery (those still running).
	private final Map<CooldownKey, Long> writes = new ConcurrentHashMap<>();

	// Ends asked for while Redis could not be told: an origin's text form, or "*" for all.
	private final Set<String> ends = ConcurrentHashMap.newKeySet();

	// Monotonic end of each cooldown this instance wrote, while it runs (at most maxHosts):
	// written again after every outage or new subscription, because a write that a master
	// acknowledged may never have reached its replicas before a failover, and a Redis that
	// restarted without persistence lost every key.
	private final Map<CooldownKey, Long> sent = new ConcurrentHashMap<>();

	private final AtomicBoolean flushScheduled = new AtomicBoolean();

	private final LongAdder dropped = new LongAdder();

	WriteQueue(RedisLink link, StoreKeys keys, ConnectionHealth health) {
		this.link = link;
		this.keys = keys;
		this.health = health;
	}

	/**
	 * Queues a cooldown until {@code untilNanos}, the later instant kept; drops (and counts)
	 * it when {@code maxHosts} other keys are waiting already.
	 */
	void write(CooldownKey key, long untilNanos) {
		if (this.writes.size() >= this.link.protection().maxHosts() && !this.writes.containsKey(key)) {
			this.dropped.increment();
			return;
		}
		keepLater(key, untilNanos);
		if (this.health.mayWrite() && this.flushScheduled.compareAndSet(false, true)
				&& !this.link.runInBackground(this::flushWrites)) {
			this.flushScheduled.set(false);
		}
	}

	/**
	 * Queues the end of an origin's cooldowns, or of all of them, and forgets the writes
	 * they make pointless.
	 */
	void end(@Nullable Origin origin) {
		this.writes.keySet().removeIf((key) -> origin == null || key.origin().equals(origin));
		this.sent.keySet().removeIf((key) -> origin == null || key.origin().equals(origin));
		if (this.ends.size() < this.link.protection().maxHosts() || origin == null) {
			this.ends.add((origin != null) ? origin.toString() : ALL);
		}
		else {
			this.dropped.increment();
		}
		if (this.health.mayWrite()) {
			this.link.runInBackground(this::flushEnds);
		}
	}

	long droppedCount() {
		return this.dropped.sum();
	}

	int size() {
		return this.writes.size();
	}

	/**
	 * Queues again the cooldowns this instance wrote that still run here (one ended here, or
	 * by another instance, is not written again); the later instant is kept, and Redis keeps
	 * the later of what it holds and what is written, so this only fills what Redis lost.
	 */
	void replay() {
		long now = this.link.monotonicClock().nanoTime();
		for (Map.Entry<CooldownKey, Long> entry : this.sent.entrySet()) {
			CooldownKey key = entry.getKey();
			long until = entry.getValue();
			if (until - now <= 0 || this.link.protection().remaining(key, now).isZero()) {
				this.sent.remove(key, until);
			}
			else {
				keepLater(key, until);
			}
		}
	}

	/**
	 * Sends everything queued (ends first, so a cooldown written afterwards is not ended);
	 * stops, keeping the rest, as soon as the store is not connected. Runs on the background
	 * thread.
	 */
	boolean flush() {
		return flushEnds() && flushWrites();
	}

	// Whether everything was sent.
	private boolean flushWrites() {
		this.flushScheduled.set(false);
		for (Map.Entry<CooldownKey, Long> entry : this.writes.entrySet()) {
			if (!this.health.mayWrite()) {
				// Kept for the recovery.
				return false;
			}
			if (this.writes.remove(entry.getKey(), entry.getValue()) && !send(entry.getKey(), entry.getValue())) {
				return false;
			}
		}
		return true;
	}

	private boolean send(CooldownKey key, long untilNanos) {
		long leftNanos = untilNanos - this.link.monotonicClock().nanoTime();
		if (leftNanos <= 0) {
			return true;
		}
		// Rounded up: the shared cooldown must never be shorter than the server asked.
		long leftMillis = (leftNanos + 999_999) / 1_000_000;
		String message = CooldownMessage.cooldown(leftMillis, this.link.instance(), key).encode(this.link.signature());
		Long held;
		try {
			held = this.link.redis()
				.execute(LATER_WINS, List.of(this.keys.key(key)), Long.toString(leftMillis), this.link.channel(),
						message, Long.toString(Math.max(leftMillis, this.link.protection().maxDuration().toMillis())));
		}
		catch (RuntimeException ex) {
			// Published on recovery if it is still running then.
			keepLater(key, untilNanos);
			this.health.commandFailed("write", ex);
			return false;
		}
		remember(key, untilNanos);
		if (held != null && held > leftMillis) {
			// Another instance holds a later instant this one may have missed.
			this.link.learn(key, held);
		}
		return true;
	}

	private void remember(CooldownKey key, long untilNanos) {
		if (this.sent.size() >= this.link.protection().maxHosts() && !this.sent.containsKey(key)) {
			long now = this.link.monotonicClock().nanoTime();
			this.sent.values().removeIf((until) -> until - now <= 0);
			if (this.sent.size() >= this.link.protection().maxHosts()) {
				// Still written now; only not written again after an outage.
				return;
			}
		}
		this.sent.merge(key, untilNanos, (held, fresh) -> (fresh - held > 0) ? fresh : held);
	}

	// The one merge: a key's queued instant only ever moves later.
	private void keepLater(CooldownKey key, long untilNanos) {
		this.writes.merge(key, untilNanos, (held, fresh) -> (fresh - held > 0) ? fresh : held);
	}

	private boolean flushEnds() {
		for (String target : List.copyOf(this.ends)) {
			if (!this.health.mayWrite()) {
				return false;
			}
			this.ends.remove(target);
			Origin origin = target.equals(ALL) ? null : Origin.parse(target).orElse(null);
			if (origin == null && !target.equals(ALL)) {
				continue;
			}
			try {
				deleteKeys(origin);
				this.link.redis()
					.convertAndSend(this.link.channel(), CooldownMessage
						.end(this.link.instance(), (origin != null) ? CooldownKey.of(origin) : null)
						.encode(this.link.signature()));
			}
			catch (RuntimeException ex) {
				this.ends.add(target);
				this.health.commandFailed("end", ex);
				return false;
			}
		}
		return true;
	}

	private void deleteKeys(@Nullable Origin origin) {
		if (origin == null) {
			this.keys.scan(this.keys.all(), Integer.MAX_VALUE, this.keys::delete);
			return;
		}
		this.keys.delete(List.of(this.keys.key(CooldownKey.of(origin))));
		this.keys.scan(this.keys.partitionsOf(origin.toString()), Integer.MAX_VALUE, this.keys::delete);
		this.keys.scan(this.keys.scopesOf(origin.toString()), Integer.MAX_VALUE, this.keys::delete);
	}

}
