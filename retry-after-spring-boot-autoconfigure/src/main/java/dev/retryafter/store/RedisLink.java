package dev.retryafter.store;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.protection.OriginProtection;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What the parts of a {@link RedisCooldownStore} share: the connection, the names of its keys
 * and channel, its clocks, the local map, and the one background thread that runs every Redis
 * command but {@code SUBSCRIBE}, one at a time.
 */
final class RedisLink {

	private final RedisConnectionFactory connectionFactory;

	private final StringRedisTemplate redis;

	private final OriginProtection cooldowns;

	private final String keyPrefix;

	private final String channel;

	private final MonotonicClock monotonicClock;

	private final Clock wallClock;

	private final String instance = UUID.randomUUID().toString();

	private final RedisClock redisClock = new RedisClock();

	private final MessageSignature signature;

	private final ScheduledExecutorService worker = Executors
		.newSingleThreadScheduledExecutor(daemon("retry-after-redis"));

	RedisLink(RedisConnectionFactory connectionFactory, OriginProtection cooldowns, String keyPrefix,
			MonotonicClock monotonicClock, Clock wallClock, @Nullable PartitionSecret secret) {
		this.connectionFactory = connectionFactory;
		this.redis = new StringRedisTemplate(connectionFactory);
		this.cooldowns = cooldowns;
		this.keyPrefix = keyPrefix;
		this.channel = keyPrefix + "cooldowns";
		this.monotonicClock = monotonicClock;
		this.wallClock = wallClock;
		this.signature = new MessageSignature(secret, () -> this.redisClock.at(monotonicClock.nanoTime()));
	}

	RedisConnectionFactory connectionFactory() {
		return this.connectionFactory;
	}

	StringRedisTemplate redis() {
		return this.redis;
	}

	OriginProtection protection() {
		return this.cooldowns;
	}

	String keyPrefix() {
		return this.keyPrefix;
	}

	String channel() {
		return this.channel;
	}

	MonotonicClock monotonicClock() {
		return this.monotonicClock;
	}

	Clock wallClock() {
		return this.wallClock;
	}

	/** Signs the messages this store publishes and checks the ones it receives. */
	MessageSignature signature() {
		return this.signature;
	}

	/** Redis's time, as this instance estimates it: stamps and ages the signed messages. */
	RedisClock redisClock() {
		return this.redisClock;
	}

	/**
	 * Reads Redis's {@code TIME} on a connection into {@link #redisClock()}.
	 */
	void readRedisTime(RedisConnection connection) {
		long before = this.monotonicClock.nanoTime();
		Long millis = connection.serverCommands().time();
		if (millis != null) {
			this.redisClock.observe(millis, before, this.monotonicClock.nanoTime());
		}
	}

	/**
	 * Reads Redis's {@code TIME} on a connection of its own, unless it is known already.
	 */
	void readRedisTimeOnce() {
		if (!this.redisClock.known()) {
			try (RedisConnection connection = this.connectionFactory.getConnection()) {
				readRedisTime(connection);
			}
		}
	}

	/** The id of this store in the messages it publishes, so it can skip its own. */
	String instance() {
		return this.instance;
	}

	/**
	 * Runs a task on the background thread.
	 * @return {@code false} if the store is closed
	 */
	boolean runInBackground(Runnable task) {
		try {
			this.worker.execute(task);
			return true;
		}
		catch (RejectedExecutionException ex) {
			// closed: local cooldowns only
			return false;
		}
	}

	// Measured from now on this instance's monotonic clock, capped by its maxDuration.
	void learn(CooldownKey key, long remainingMillis) {
		this.cooldowns.record(key, Duration.ofMillis(remainingMillis), this.monotonicClock.nanoTime());
	}

	void close() {
		this.worker.shutdownNow();
	}

	static ThreadFactory daemon(String name) {
		return (runnable) -> {
			Thread thread = new Thread(runnable, name);
			thread.setDaemon(true);
			return thread;
		};
	}

	static void schedule(ScheduledExecutorService executor, Runnable task, Duration delay) {
		try {
			executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// closed
		}
	}

}
