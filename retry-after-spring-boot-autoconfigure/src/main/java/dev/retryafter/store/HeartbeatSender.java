package dev.retryafter.store;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

import org.springframework.data.redis.core.script.RedisScript;

/**
 * The part of a {@link ConnectionHealth} that sends the heartbeat: one script on the command
 * connection that writes a key and publishes the heartbeat, at most one on its way at a time.
 */
final class HeartbeatSender {

	// KEYS[1] the heartbeat key; ARGV[1] the channel; ARGV[2] the heartbeat; ARGV[3] how long
	// the key lives (ms). The write makes a Redis that refuses writes or scripts (a replica,
	// OOM under noeviction, an ACL without scripting) fail the heartbeat, not only the
	// cooldowns that happen to be written. Returns Redis's time (epoch ms), which keeps this
	// instance's estimate of it fresh.
	private static final RedisScript<Long> HEARTBEAT = RedisScript.of("""
			local time = redis.call('TIME')
			redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
			redis.call('PUBLISH', ARGV[1], ARGV[2])
			return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
			""", Long.class);

	private final RedisLink link;

	private final List<String> key;

	private final String keyMillis;

	// Told when the script failed: the store's outage handling.
	private final BiConsumer<String, RuntimeException> failed;

	private volatile long lastSentNanos;

	private final AtomicBoolean inFlight = new AtomicBoolean();

	// Asked for while one was on its way, e.g. by a new subscription that the one on its way
	// may have missed: sent once that one is done.
	private final AtomicBoolean again = new AtomicBoolean();

	HeartbeatSender(RedisLink link, Duration heartbeatTimeout, BiConsumer<String, RuntimeException> failed) {
		this.link = link;
		// Not a cooldown key (no "://"), so the catch-up and the ends leave it alone.
		this.key = List.of(link.keyPrefix() + "heartbeat");
		this.keyMillis = Long.toString(Math.max(1, heartbeatTimeout.toMillis()));
		this.failed = failed;
	}

	/** When the last heartbeat was asked for, on the monotonic clock; 0 before the first. */
	long lastSentNanos() {
		return this.lastSentNanos;
	}

	/**
	 * Publishes the heartbeat in the background, unless one is still on its way.
	 */
	void send() {
		if (!this.inFlight.compareAndSet(false, true)) {
			// The previous one is still waiting for a hung or slow Redis.
			this.again.set(true);
			return;
		}
		this.lastSentNanos = this.link.monotonicClock().nanoTime();
		if (!this.link.runInBackground(this::publish)) {
			this.inFlight.set(false);
		}
	}

	private void publish() {
		try {
			if (this.link.signature().signs()) {
				// Its stamp is Redis's time: read once, before the first signed message.
				this.link.readRedisTimeOnce();
			}
			// Encoded for each one: a signed heartbeat has a stamp and sequence number of its own.
			String heartbeat = CooldownMessage.heartbeat(this.link.instance()).encode(this.link.signature());
			long before = this.link.monotonicClock().nanoTime();
			Long redisMillis = this.link.redis()
				.execute(HEARTBEAT, this.key, this.link.channel(), heartbeat, this.keyMillis);
			if (redisMillis != null) {
				this.link.redisClock().observe(redisMillis, before, this.link.monotonicClock().nanoTime());
			}
		}
		catch (RuntimeException ex) {
			this.failed.accept("heartbeat", ex);
		}
		finally {
			this.inFlight.set(false);
		}
		if (this.again.getAndSet(false)) {
			send();
		}
	}

}
