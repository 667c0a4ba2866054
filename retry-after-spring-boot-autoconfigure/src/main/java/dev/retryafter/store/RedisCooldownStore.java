package dev.retryafter.store;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.core.protection.OriginProtection;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Host cooldowns shared by a fleet through Redis ({@code retry-after.store=redis}).
 * <p>
 * Each cooldown is a key {@code <prefix><cooldown key>} that expires when the cooldown ends.
 * Redis computes that instant from its own clock ({@code TIME}, inside a Lua script that keeps
 * the later instant atomically), so no instance's wall clock can stretch or shorten a
 * cooldown for the fleet. The script publishes the cooldown's time left on the channel
 * {@code <prefix>cooldowns}; every instance subscribes and records what it hears in its local
 * {@link OriginProtection}, measured from when it heard it on its own monotonic clock and capped
 * by its own {@code maxDuration}. When it (re)connects, an instance also reads the time left
 * of the existing keys ({@code SCAN}, {@code PTTL}, at most {@code maxHosts}).
 * <p>
 * Requests never wait for Redis: reads are local, and writes are queued (one per key, the
 * later instant kept, at most {@code maxHosts}; beyond that they are dropped and counted by
 * {@link #droppedCount()}) for a background thread. The one exception is a first attempt the
 * local door paces, for a quota slot or a learned rate's: it takes its slot from the fleet's
 * schedule ({@link FleetQuotaSlots}, {@link FleetLearnedSlots}), waiting for Redis at most
 * 50 ms, else it takes a local share.
 * <p>
 * The store checks its own connections: every 10 s it runs a heartbeat script (a small write
 * and a publish) that its own subscription must hear back within 25 s, which catches a dead
 * command connection, a dead subscription, one silently dropped by the network and a Redis
 * that refuses writes or scripts alike; when Lettuce reports a closed connection, the
 * heartbeat must come back within 2 s instead. A failed command, a failed subscription or a
 * missing heartbeat starts an outage: it is counted once ({@link #errorCount()}), logged once
 * at WARN, and the subscription is made again after about 1 s, then ever less often (up to
 * every 30 s, each wait jittered), until the store hears its heartbeat again. It then logs one
 * INFO with the outage's length, publishes the cooldowns recorded meanwhile that are still
 * running (and writes again those it wrote before that still run, which a failed-over master
 * may have lost), and reads what the other instances wrote; it does the same whenever the
 * client re-subscribes by itself. {@link #state()} is {@code connected} only while its
 * heartbeat comes back on its current subscription. Redis being down or hung (its commands
 * time out after the connection factory's command timeout, {@code spring.data.redis.timeout})
 * only ever delays this background work.
 * <p>
 * Keys are not signed, so the script trusts a key only as far as a store could have written
 * it (an expiry, at most {@code maxDuration} away); with a partition secret, messages are
 * signed and stamped, and stale or replayed ones are dropped ({@link #rejectedCount}).
 * <p>
 * Its parts, one job each: the write queue, the connection health (heartbeat, watchdog,
 * outages), the subscription and the catch-up, over the store's keys.
 *
 * @since 0.1.0
 */
public class RedisCooldownStore implements CooldownStore, AutoCloseable {

	/** The value of {@link #name()}. */
	public static final String NAME = "redis";

	/**
	 * The key prefix of an application without a {@code spring.application.name}; named
	 * applications use {@link #defaultKeyPrefix(String)}.
	 */
	public static final String DEFAULT_KEY_PREFIX = "retry-after:";

	/** How often the store publishes its heartbeat. */
	static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(10);

	/** How long a heartbeat may take to come back before the store counts an outage. */
	static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(25);

	/** How long a heartbeat may take to come back after a client connection closed. */
	static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

	// Outages may start on any of the store's threads.
	private static final RandomGenerator THREAD_LOCAL_RANDOM = () -> ThreadLocalRandom.current().nextLong();

	private final RedisLink link;

	private final ConnectionHealth health;

	private final CooldownSubscription subscription;

	private final WriteQueue writes;

	private final CatchUp catchUp;

	private final PartitionSecret partitionSecret;

	private final FleetRoundTrips roundTrips;

	private final FleetQuotaSlots quotaSlots;

	private final FleetLearnedSlots learnedSlots;

	private volatile boolean closed;

	/**
	 * Creates a store on the system clocks. Call {@link #start()} to begin sharing.
	 * @param connectionFactory the application's Redis connection factory
	 * @param cooldowns the local map every decision reads; its {@code maxHosts} also caps
	 * the keys read from Redis and the writes waiting to be sent, and its {@code maxDuration}
	 * every cooldown learned from other instances
	 * @param keyPrefix the prefix of every key and of the channel
	 */
	public RedisCooldownStore(RedisConnectionFactory connectionFactory, OriginProtection cooldowns, String keyPrefix) {
		this(connectionFactory, cooldowns, keyPrefix, null);
	}

	/**
	 * Creates a store on the system clocks. Call {@link #start()} to begin sharing.
	 * @param connectionFactory the application's Redis connection factory
	 * @param cooldowns the local map every decision reads
	 * @param keyPrefix the prefix of every key and of the channel
	 * @param partitionSecret the fleet's secret: keys partition digests and signs the
	 * messages; {@code null} for unsigned messages and this JVM's own partition digests
	 * @since 0.2.0
	 */
	public RedisCooldownStore(RedisConnectionFactory connectionFactory, OriginProtection cooldowns, String keyPrefix,
			@Nullable PartitionSecret partitionSecret) {
		this(connectionFactory, cooldowns, keyPrefix, MonotonicClock.SYSTEM, Clock.systemUTC(), HEARTBEAT_INTERVAL,
				HEARTBEAT_TIMEOUT, partitionSecret);
	}

	RedisCooldownStore(RedisConnectionFactory connectionFactory, OriginProtection cooldowns, String keyPrefix,
			MonotonicClock monotonicClock, Clock wallClock, Duration heartbeatInterval, Duration heartbeatTimeout) {
		this(connectionFactory, cooldowns, keyPrefix, monotonicClock, wallClock, heartbeatInterval, heartbeatTimeout,
				null);
	}

	RedisCooldownStore(RedisConnectionFactory connectionFactory, OriginProtection cooldowns, String keyPrefix,
			MonotonicClock monotonicClock, Clock wallClock, Duration heartbeatInterval, Duration heartbeatTimeout,
			@Nullable PartitionSecret partitionSecret) {
		this(connectionFactory, cooldowns, keyPrefix, monotonicClock, wallClock, heartbeatInterval, heartbeatTimeout,
				ReconnectBackoff.FIRST_RETRY_DELAY, ReconnectBackoff.MAX_RETRY_DELAY, partitionSecret);
	}

	RedisCooldownStore(RedisConnectionFactory connectionFactory, OriginProtection cooldowns, String keyPrefix,
			MonotonicClock monotonicClock, Clock wallClock, Duration heartbeatInterval, Duration heartbeatTimeout,
			Duration firstRetryDelay, Duration maxRetryDelay) {
		this(connectionFactory, cooldowns, keyPrefix, monotonicClock, wallClock, heartbeatInterval, heartbeatTimeout,
				firstRetryDelay, maxRetryDelay, null);
	}

	RedisCooldownStore(RedisConnectionFactory connectionFactory, OriginProtection cooldowns, String keyPrefix,
			MonotonicClock monotonicClock, Clock wallClock, Duration heartbeatInterval, Duration heartbeatTimeout,
			Duration firstRetryDelay, Duration maxRetryDelay, @Nullable PartitionSecret partitionSecret) {
		Objects.requireNonNull(connectionFactory, "connectionFactory");
		Objects.requireNonNull(cooldowns, "cooldowns");
		Objects.requireNonNull(keyPrefix, "keyPrefix");
		Objects.requireNonNull(monotonicClock, "monotonicClock");
		Objects.requireNonNull(wallClock, "wallClock");
		if (heartbeatInterval.isNegative() || heartbeatInterval.isZero()
				|| heartbeatTimeout.compareTo(heartbeatInterval) <= 0) {
			throw new IllegalArgumentException("The heartbeat interval must be positive and shorter than its timeout: "
					+ heartbeatInterval + ", " + heartbeatTimeout);
		}
		if (firstRetryDelay.isNegative() || firstRetryDelay.isZero() || maxRetryDelay.compareTo(firstRetryDelay) < 0) {
			throw new IllegalArgumentException("The first reconnection delay must be positive and at most the longest: "
					+ firstRetryDelay + ", " + maxRetryDelay);
		}
		this.partitionSecret = (partitionSecret != null) ? partitionSecret : PartitionSecret.perJvm();
		this.link = new RedisLink(connectionFactory, cooldowns, keyPrefix, monotonicClock, wallClock, partitionSecret);
		StoreKeys keys = new StoreKeys(this.link);
		this.health = new ConnectionHealth(this.link, heartbeatInterval, heartbeatTimeout, PROBE_TIMEOUT,
				firstRetryDelay, maxRetryDelay, this::reconnect, this::recovered, this::queuedWrites,
				THREAD_LOCAL_RANDOM);
		this.subscription = new CooldownSubscription(this.link, this.health);
		this.writes = new WriteQueue(this.link, keys, this.health);
		this.catchUp = new CatchUp(this.link, keys, this.health);
		this.roundTrips = new FleetRoundTrips(this.link, () -> this.health.state(NAME).connected(),
				FleetRoundTrips.ROUND_TRIP_BOUND, "retry-after-redis-quota");
		this.quotaSlots = new FleetQuotaSlots(this.link, this.roundTrips);
		// The fleet's schedule counts every paced request of a key: a window may go at once.
		cooldowns.quotas().logWindows(true);
		this.learnedSlots = new FleetLearnedSlots(this.link, this.roundTrips);
	}

	/**
	 * The key prefix used unless {@code retry-after.redis.key-prefix} is set, so that
	 * unrelated applications on one Redis do not share cooldowns.
	 * @param applicationName the application's {@code spring.application.name}, or
	 * {@code null}
	 * @return {@code retry-after:<applicationName>:}, or {@link #DEFAULT_KEY_PREFIX} when the
	 * application has no name
	 */
	public static String defaultKeyPrefix(@Nullable String applicationName) {
		if (applicationName == null || applicationName.isBlank()) {
			return DEFAULT_KEY_PREFIX;
		}
		return DEFAULT_KEY_PREFIX + applicationName.strip() + ":";
	}

	/**
	 * Starts listening for other instances' cooldowns and checking the connections, in the
	 * background: never blocks and never fails, even when Redis is down (then it keeps trying).
	 */
	public void start() {
		this.health.start();
		this.subscription.request();
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void record(CooldownKey key, Duration delay, long nowNanos) {
		OriginProtection protection = this.link.protection();
		protection.record(key, delay, nowNanos);
		if (delay.isNegative() || delay.isZero() || this.closed) {
			return;
		}
		Duration cap = protection.maxDuration();
		this.writes.write(key, nowNanos + ((delay.compareTo(cap) > 0) ? cap : delay).toNanos());
	}

	/**
	 * Decides locally; a first attempt held for a quota slot or a learned-pace slot then
	 * takes its slot from the fleet's schedule ({@link FleetQuotaSlots},
	 * {@link FleetLearnedSlots}), the one case that waits on Redis, bounded.
	 */
	@Override
	public Admission admit(AdmissionRequest request) {
		boolean spread = !this.closed && this.quotaSlots.spreads(request);
		boolean queueStands = !this.closed && this.learnedSlots.queueStands(request);
		Admission admission = this.link.protection().admit(request);
		if (this.closed) {
			return admission;
		}
		return this.learnedSlots.admit(request, this.quotaSlots.admit(request, admission, spread), queueStands);
	}

	/**
	 * The quota slots this store shares with the fleet.
	 * @return the fleet's quota slots
	 */
	public FleetQuotaSlots quotaSlots() {
		return this.quotaSlots;
	}

	@Override
	public long quotaFallbackCount() {
		return this.quotaSlots.fallbackCount();
	}

	@Override
	public long pacingFallbackCount() {
		return this.learnedSlots.fallbackCount();
	}

	/**
	 * The learned-pace slots this store shares with the fleet.
	 * @return the fleet's learned-pace slots
	 * @since 0.2.0
	 */
	public FleetLearnedSlots learnedSlots() {
		return this.learnedSlots;
	}

	@Override
	public OriginProtection protection() {
		return this.link.protection();
	}

	@Override
	public PartitionSecret partitionSecret() {
		return this.partitionSecret;
	}

	/**
	 * How many messages were dropped for a missing or wrong signature (with a partition
	 * secret only): a sign that another instance has a different secret, or none.
	 * @return the count
	 */
	long rejectedMessages() {
		return this.link.signature().rejectedCount();
	}

	@Override
	public long rejectedCount(MessageRejection reason) {
		return this.link.signature().rejectedCount(reason);
	}

	/**
	 * Ends cooldowns here at once, then, in the background, deletes their keys in Redis and
	 * publishes the end, so every instance drops them. Asked during an outage, the fleet is
	 * told on recovery.
	 * @param origin the origin whose cooldowns (every partition of it) end, or {@code null}
	 * to end every cooldown
	 * @return the keys whose cooldown was ended here
	 */
	@Override
	public List<CooldownKey> end(@Nullable Origin origin) {
		List<CooldownKey> ended = this.link.protection().endAll(origin);
		if (!this.closed) {
			this.writes.end(origin);
		}
		return ended;
	}

	@Override
	public long errorCount() {
		return this.health.errorCount();
	}

	@Override
	public long droppedCount() {
		return this.writes.droppedCount();
	}

	@Override
	public StoreState state() {
		return this.health.state(NAME);
	}

	/**
	 * Stops listening and drops writes not yet sent. Does not close the connection factory,
	 * which belongs to the application.
	 */
	@Override
	public void close() {
		this.closed = true;
		this.health.close();
		this.link.close();
		this.subscription.close();
		this.roundTrips.close();
	}

	private void reconnect() {
		this.subscription.request();
	}

	// On the background thread, once the heartbeat is heard again (after an outage, or on a
	// new subscription): own news first, so the others learn what happened here, including
	// what a failed-over master may have lost; then theirs. The quota script is loaded again
	// too: a promoted replica, or a restarted Redis, does not have it cached.
	private boolean recovered() {
		List<RedisScript<?>> scripts = new ArrayList<>(FleetLearnedSlots.scripts());
		scripts.add(FleetQuotaSlots.script());
		this.roundTrips.warmUp(scripts);
		this.writes.replay();
		return this.writes.flush() && this.catchUp.run();
	}

	private int queuedWrites() {
		return this.writes.size();
	}

}
