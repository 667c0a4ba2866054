package dev.retryafter.store;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.HostCooldowns;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

/**
 * Host cooldowns shared by a fleet through Redis ({@code retry-after.store=redis}).
 * <p>
 * Each cooldown is a key {@code <prefix><cooldown key>} that expires when the cooldown ends.
 * Redis computes that instant from its own clock ({@code TIME}, inside a Lua script that keeps
 * the later instant atomically), so no instance's wall clock can stretch or shorten a
 * cooldown for the fleet. The script publishes the cooldown's time left on the channel
 * {@code <prefix>cooldowns}; every instance subscribes and records what it hears in its local
 * {@link HostCooldowns}, measured from when it heard it on its own monotonic clock and capped
 * by its own {@code maxDuration}. When it (re)connects, an instance also reads the time left
 * of the existing keys ({@code SCAN}, {@code PTTL}, at most {@code maxHosts}).
 * <p>
 * Requests never wait for Redis: reads are local, and writes are queued (one per key, the
 * later instant kept, at most {@code maxHosts}; beyond that they are dropped and counted by
 * {@link #droppedCount()}) for a background thread.
 * <p>
 * The store checks its own connections: every 10 s it publishes a heartbeat that its own
 * subscription must hear back within 25 s, which catches a dead command connection, a dead
 * subscription and one silently dropped by the network alike; when Lettuce reports a closed
 * connection, the heartbeat must come back within 2 s instead. A failed command, a failed
 * subscription or a missing heartbeat starts an outage: it is counted once
 * ({@link #errorCount()}), logged once at WARN, and the subscription
 * is made again, with backoff, until the store hears its heartbeat again. It then logs one
 * INFO with the outage's length, publishes the cooldowns recorded meanwhile that are still
 * running, and reads what the other instances wrote. Redis being down or hung (its commands
 * time out after the connection factory's command timeout, {@code spring.data.redis.timeout})
 * only ever delays this background work.
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

	private static final boolean LETTUCE_EVENTS_PRESENT = ClassUtils.isPresent(
			"io.lettuce.core.event.connection.DisconnectedEvent", RedisCooldownStore.class.getClassLoader())
			&& ClassUtils.isPresent("reactor.core.Disposable", RedisCooldownStore.class.getClassLoader());

	private static final Log logger = LogFactory.getLog(RedisCooldownStore.class);

	// KEYS[1] the key; ARGV[1] the delay (ms); ARGV[2] the channel; ARGV[3] the message to
	// publish if the delay wins. The instant is Redis's own, so instances' clocks play no part.
	// Returns the time left (ms) held afterwards.
	private static final RedisScript<Long> LATER_WINS = RedisScript.of("""
			local time = redis.call('TIME')
			local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
			local proposed = now + tonumber(ARGV[1])
			local held = tonumber(redis.call('GET', KEYS[1]))
			if held and held >= proposed then
			  return held - now
			end
			local value = string.format('%.0f', proposed)
			redis.call('SET', KEYS[1], value)
			redis.call('PEXPIREAT', KEYS[1], value)
			redis.call('PUBLISH', ARGV[2], ARGV[3])
			return tonumber(ARGV[1])
			""", Long.class);

	// The time left (ms) of each key, as measured by Redis: -2 gone, -1 no expiry.
	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> TIMES_LEFT = RedisScript.of("""
			local left = {}
			for i, key in ipairs(KEYS) do
			  left[i] = redis.call('PTTL', key)
			end
			return left
			""", List.class);

	private static final int SCAN_COUNT = 200;

	private static final int BATCH = 100;

	private static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);

	private final HostCooldowns cooldowns;

	private final RedisConnectionFactory connectionFactory;

	private final StringRedisTemplate redis;

	private final String keyPrefix;

	private final String channel;

	private final MonotonicClock monotonicClock;

	private final Clock wallClock;

	private final long heartbeatIntervalNanos;

	private final long heartbeatTimeoutNanos;

	private final Duration firstRetryDelay;

	private final Duration maxRetryDelay;

	private final String instance = UUID.randomUUID().toString();

	private final PartitionSecret partitionSecret;

	private final MessageSignature signature;

	private final String heartbeat;

	private final LongAdder errors = new LongAdder();

	private final LongAdder dropped = new LongAdder();

	// Guards the connection state below; held only briefly, never by a request.
	private final Object stateLock = new Object();

	private volatile boolean connected;

	private volatile Instant since;

	private volatile boolean outage;

	private long outageStartNanos;

	private volatile long lastHeardNanos;

	private volatile long lastSentNanos;

	private final long probeTimeoutNanos;

	// Set when a client connection closed: the heartbeat must then come back within the probe
	// timeout, or the outage starts at once rather than after the heartbeat timeout.
	private volatile long probeStartNanos;

	private volatile boolean probing;

	private volatile @Nullable String probeCause;

	// Stops watching the client's connection events.
	private volatile @Nullable Runnable disconnects;

	// Monotonic not-before instant of each key recorded here and not yet written, per key: a
	// burst of 429s from one origin becomes one write, and the cooldowns recorded during an
	// outage are published on recovery (those still running).
	private final Map<CooldownKey, Long> pendingWrites = new ConcurrentHashMap<>();

	// Ends asked for while Redis could not be told: an origin's text form, or "*" for all.
	private final Set<String> pendingEnds = ConcurrentHashMap.newKeySet();

	private final AtomicBoolean flushScheduled = new AtomicBoolean();

	private final AtomicBoolean heartbeatInFlight = new AtomicBoolean();

	private final AtomicBoolean resubscribing = new AtomicBoolean();

	// All Redis commands but SUBSCRIBE run here, one at a time.
	private final ScheduledExecutorService worker;

	// SUBSCRIBE (and closing a subscription) gets its own thread: it may block until the
	// command timeout when Redis hangs.
	private final ScheduledExecutorService subscriber;

	// Checks the heartbeat; never runs a Redis command, so a hung Redis cannot stop it.
	private final ScheduledExecutorService watchdog;

	private final Listener listener = new Listener();

	private volatile Duration resubscribeDelay;

	private volatile @Nullable RedisConnection subscription;

	private volatile boolean closed;

	/**
	 * Creates a store on the system clocks. Call {@link #start()} to begin sharing.
	 * @param connectionFactory the application's Redis connection factory
	 * @param cooldowns the local map every decision reads; its {@code maxHosts} also caps
	 * the keys read from Redis and the writes waiting to be sent, and its {@code maxDuration}
	 * every cooldown learned from other instances
	 * @param keyPrefix the prefix of every key and of the channel
	 */
	public RedisCooldownStore(RedisConnectionFactory connectionFactory, HostCooldowns cooldowns, String keyPrefix) {
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
	public RedisCooldownStore(RedisConnectionFactory connectionFactory, HostCooldowns cooldowns, String keyPrefix,
			@Nullable PartitionSecret partitionSecret) {
		this(connectionFactory, cooldowns, keyPrefix, MonotonicClock.SYSTEM, Clock.systemUTC(), HEARTBEAT_INTERVAL,
				HEARTBEAT_TIMEOUT, partitionSecret);
	}

	RedisCooldownStore(RedisConnectionFactory connectionFactory, HostCooldowns cooldowns, String keyPrefix,
			MonotonicClock monotonicClock, Clock wallClock, Duration heartbeatInterval, Duration heartbeatTimeout) {
		this(connectionFactory, cooldowns, keyPrefix, monotonicClock, wallClock, heartbeatInterval, heartbeatTimeout,
				null);
	}

	RedisCooldownStore(RedisConnectionFactory connectionFactory, HostCooldowns cooldowns, String keyPrefix,
			MonotonicClock monotonicClock, Clock wallClock, Duration heartbeatInterval, Duration heartbeatTimeout,
			@Nullable PartitionSecret partitionSecret) {
		this.partitionSecret = (partitionSecret != null) ? partitionSecret : PartitionSecret.perJvm();
		this.signature = new MessageSignature(partitionSecret);
		this.heartbeat = CooldownMessage.heartbeat(this.instance).encode(this.signature);
		this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
		this.cooldowns = Objects.requireNonNull(cooldowns, "cooldowns");
		this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
		this.monotonicClock = Objects.requireNonNull(monotonicClock, "monotonicClock");
		this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
		if (heartbeatInterval.isNegative() || heartbeatInterval.isZero()
				|| heartbeatTimeout.compareTo(heartbeatInterval) <= 0) {
			throw new IllegalArgumentException("The heartbeat interval must be positive and shorter than its timeout: "
					+ heartbeatInterval + ", " + heartbeatTimeout);
		}
		this.heartbeatIntervalNanos = heartbeatInterval.toNanos();
		this.heartbeatTimeoutNanos = heartbeatTimeout.toNanos();
		this.probeTimeoutNanos = Math.min(PROBE_TIMEOUT.toNanos(), this.heartbeatTimeoutNanos);
		// Reconnection attempts never wait longer than a heartbeat interval.
		this.maxRetryDelay = heartbeatInterval;
		this.firstRetryDelay = (FIRST_RETRY_DELAY.compareTo(heartbeatInterval) < 0) ? FIRST_RETRY_DELAY
				: heartbeatInterval;
		this.resubscribeDelay = this.firstRetryDelay;
		this.channel = keyPrefix + "cooldowns";
		this.redis = new StringRedisTemplate(connectionFactory);
		this.since = wallClock.instant();
		this.lastHeardNanos = monotonicClock.nanoTime();
		this.worker = Executors.newSingleThreadScheduledExecutor(daemon("retry-after-redis"));
		this.subscriber = Executors.newSingleThreadScheduledExecutor(daemon("retry-after-redis-subscriber"));
		this.watchdog = Executors.newSingleThreadScheduledExecutor(daemon("retry-after-redis-watchdog"));
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
		// The heartbeat timeout runs from now, not from when the store was made.
		this.lastHeardNanos = this.monotonicClock.nanoTime();
		watchDisconnects();
		requestSubscribe();
		long tick = Math.max(1, Math.min(this.heartbeatIntervalNanos / 4, TimeUnit.SECONDS.toNanos(1)));
		try {
			this.watchdog.scheduleWithFixedDelay(this::check, tick, tick, TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// closed
		}
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void record(CooldownKey key, Duration delay, long nowNanos, Instant wallNow) {
		this.cooldowns.record(key, nowNanos, delay);
		if (delay.isNegative() || delay.isZero() || this.closed) {
			return;
		}
		Duration cap = this.cooldowns.maxDuration();
		long until = nowNanos + ((delay.compareTo(cap) > 0) ? cap : delay).toNanos();
		if (this.pendingWrites.size() >= this.cooldowns.maxHosts() && !this.pendingWrites.containsKey(key)) {
			this.dropped.increment();
			return;
		}
		this.pendingWrites.merge(key, until, (held, fresh) -> (fresh - held > 0) ? fresh : held);
		if (this.connected) {
			scheduleFlush();
		}
	}

	@Override
	public HostCooldowns cooldowns() {
		return this.cooldowns;
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
		return this.signature.rejectedCount();
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
		List<CooldownKey> ended = this.cooldowns.endAll(origin);
		this.pendingWrites.keySet().removeIf((key) -> origin == null || key.origin().equals(origin));
		if (this.closed) {
			return ended;
		}
		if (this.pendingEnds.size() < this.cooldowns.maxHosts() || origin == null) {
			this.pendingEnds.add((origin != null) ? origin.toString() : "*");
		}
		else {
			this.dropped.increment();
		}
		if (this.connected) {
			runInBackground(this::flushEnds);
		}
		return ended;
	}

	@Override
	public long errorCount() {
		return this.errors.sum();
	}

	@Override
	public long droppedCount() {
		return this.dropped.sum();
	}

	@Override
	public StoreState state() {
		return new StoreState(NAME, this.connected, this.since, errorCount());
	}

	/**
	 * Stops listening and drops writes not yet sent. Does not close the connection factory,
	 * which belongs to the application.
	 */
	@Override
	public void close() {
		this.closed = true;
		Runnable watching = this.disconnects;
		if (watching != null) {
			watching.run();
		}
		this.watchdog.shutdownNow();
		this.worker.shutdownNow();
		this.subscriber.shutdownNow();
		RedisConnection connection = this.subscription;
		this.subscription = null;
		if (connection != null) {
			closeQuietly(connection);
		}
	}

	// Watchdog: publishes the heartbeat and notices when it stops coming back.
	private void check() {
		long now = this.monotonicClock.nanoTime();
		if (now - this.lastHeardNanos > this.heartbeatTimeoutNanos && !this.outage) {
			boolean started = failed("heartbeat",
					"no heartbeat heard back for " + Duration.ofNanos(now - this.lastHeardNanos).toMillis() + " ms");
			if (started) {
				requestSubscribe();
			}
		}
		if (this.probing && now - this.probeStartNanos > this.probeTimeoutNanos) {
			this.probing = false;
			if (this.lastHeardNanos - this.probeStartNanos < 0 && !this.outage) {
				boolean started = failed("connection", "the connection to " + this.probeCause
						+ " closed and no heartbeat came back within " + this.probeTimeoutNanos / 1_000_000 + " ms");
				if (started) {
					requestSubscribe();
				}
			}
		}
		if (now - this.lastSentNanos >= this.heartbeatIntervalNanos) {
			sendHeartbeat();
		}
	}

	private void watchDisconnects() {
		if (!LETTUCE_EVENTS_PRESENT) {
			return;
		}
		try {
			this.disconnects = LettuceDisconnects.watch(this.connectionFactory, this::connectionClosed);
		}
		catch (RuntimeException | LinkageError ex) {
			// The heartbeat alone still notices a lost connection.
			logger.debug("Cannot watch the Redis client's connection events", ex);
		}
	}

	// Called on the client's event thread: must not block.
	private void connectionClosed(String remote) {
		if (this.closed || this.outage) {
			return;
		}
		this.probeCause = remote;
		this.probeStartNanos = this.monotonicClock.nanoTime();
		this.probing = true;
		sendHeartbeat();
	}

	private void sendHeartbeat() {
		if (!this.heartbeatInFlight.compareAndSet(false, true)) {
			// The previous one is still waiting for a hung or slow Redis.
			return;
		}
		this.lastSentNanos = this.monotonicClock.nanoTime();
		if (!runInBackground(this::publishHeartbeat)) {
			this.heartbeatInFlight.set(false);
		}
	}

	private void publishHeartbeat() {
		try {
			this.redis.convertAndSend(this.channel, this.heartbeat);
		}
		catch (RuntimeException ex) {
			commandFailed("heartbeat", ex);
		}
		finally {
			this.heartbeatInFlight.set(false);
		}
	}

	// Called on the client's event loop: must not block.
	private void heard() {
		this.lastHeardNanos = this.monotonicClock.nanoTime();
		if (!this.connected) {
			runInBackground(this::recovered);
		}
	}

	private void recovered() {
		long outageNanos;
		boolean wasOutage;
		synchronized (this.stateLock) {
			if (this.connected || this.closed) {
				return;
			}
			wasOutage = this.outage;
			outageNanos = this.monotonicClock.nanoTime() - this.outageStartNanos;
			this.outage = false;
			this.connected = true;
			this.since = this.wallClock.instant();
		}
		if (wasOutage) {
			logger.info("Redis cooldown store '" + this.keyPrefix + "' is connected again after an outage of "
					+ Duration.ofNanos(outageNanos).toMillis() + " ms; publishing the " + this.pendingWrites.size()
					+ " cooldown(s) recorded meanwhile, then catching up with the fleet's");
		}
		// Own news first, so the others learn what happened here; then theirs.
		flushEnds();
		flushWrites();
		readThrough();
	}

	private void scheduleFlush() {
		if (this.flushScheduled.compareAndSet(false, true) && !runInBackground(this::flushWrites)) {
			this.flushScheduled.set(false);
		}
	}

	private void flushWrites() {
		this.flushScheduled.set(false);
		for (Map.Entry<CooldownKey, Long> entry : this.pendingWrites.entrySet()) {
			if (!this.connected) {
				// Kept for the recovery.
				return;
			}
			if (this.pendingWrites.remove(entry.getKey(), entry.getValue())) {
				write(entry.getKey(), entry.getValue());
			}
		}
	}

	private void write(CooldownKey key, long untilNanos) {
		long leftNanos = untilNanos - this.monotonicClock.nanoTime();
		if (leftNanos <= 0) {
			return;
		}
		// Rounded up: the shared cooldown must never be shorter than the server asked.
		long leftMillis = (leftNanos + 999_999) / 1_000_000;
		String message = CooldownMessage.cooldown(leftMillis, this.instance, key).encode(this.signature);
		Long held;
		try {
			held = this.redis.execute(LATER_WINS, List.of(this.keyPrefix + key), Long.toString(leftMillis),
					this.channel, message);
		}
		catch (RuntimeException ex) {
			// Published on recovery if it is still running then.
			this.pendingWrites.merge(key, untilNanos, (old, fresh) -> (fresh - old > 0) ? fresh : old);
			commandFailed("write", ex);
			return;
		}
		if (held != null && held > leftMillis) {
			// Another instance holds a later instant this one may have missed.
			learn(key, held);
		}
	}

	private void flushEnds() {
		for (String target : List.copyOf(this.pendingEnds)) {
			if (!this.connected) {
				return;
			}
			this.pendingEnds.remove(target);
			try {
				Origin origin = target.equals("*") ? null : Origin.parse(target).orElse(null);
				if (origin == null && !target.equals("*")) {
					continue;
				}
				deleteKeys(origin);
				this.redis.convertAndSend(this.channel,
						CooldownMessage.end(this.instance, (origin != null) ? CooldownKey.of(origin) : null)
							.encode(this.signature));
			}
			catch (RuntimeException ex) {
				this.pendingEnds.add(target);
				commandFailed("end", ex);
				return;
			}
		}
	}

	private void deleteKeys(@Nullable Origin origin) {
		List<String> keys = new ArrayList<>();
		String pattern;
		if (origin == null) {
			pattern = escapeGlob(this.keyPrefix) + "*";
		}
		else {
			keys.add(this.keyPrefix + CooldownKey.of(origin));
			pattern = escapeGlob(this.keyPrefix + origin) + "#*";
		}
		ScanOptions options = ScanOptions.scanOptions().match(pattern).count(SCAN_COUNT).build();
		try (Cursor<String> cursor = this.redis.scan(options)) {
			while (cursor.hasNext()) {
				String key = cursor.next();
				// Under the bare default prefix, other applications' keys must stay.
				if (ownKey(key) != null) {
					keys.add(key);
				}
				if (keys.size() >= BATCH) {
					this.redis.delete(List.copyOf(keys));
					keys.clear();
				}
			}
		}
		if (!keys.isEmpty()) {
			this.redis.delete(keys);
		}
	}

	private void requestSubscribe() {
		if (this.resubscribing.compareAndSet(false, true)) {
			runOnSubscriber(this::subscribe, Duration.ZERO);
		}
	}

	private void subscribe() {
		if (this.closed) {
			return;
		}
		RedisConnection previous = this.subscription;
		this.subscription = null;
		if (previous != null) {
			// The old subscription may be dead without knowing it: a new one replaces it.
			closeQuietly(previous);
		}
		RedisConnection connection = null;
		try {
			connection = this.connectionFactory.getConnection();
			this.subscription = connection;
			if (this.closed) {
				// close() may have looked for the subscription before it was set: the
				// connection would then never be closed.
				this.subscription = null;
				closeQuietly(connection);
				return;
			}
			// Lettuce returns once subscribed.
			connection.subscribe(this.listener, this.channel.getBytes(StandardCharsets.UTF_8));
			this.resubscribeDelay = this.firstRetryDelay;
			this.resubscribing.set(false);
		}
		catch (RuntimeException ex) {
			this.subscription = null;
			if (connection != null) {
				closeQuietly(connection);
			}
			if (this.closed) {
				return;
			}
			failed("subscribe", ex.toString());
			Duration delay = this.resubscribeDelay;
			this.resubscribeDelay = backOff(delay);
			runOnSubscriber(this::subscribe, delay);
		}
	}

	private void readThrough() {
		List<String> keys = new ArrayList<>();
		int limit = this.cooldowns.maxHosts();
		ScanOptions options = ScanOptions.scanOptions()
			.match(escapeGlob(this.keyPrefix) + "*")
			.count(SCAN_COUNT)
			.build();
		int learned = 0;
		try {
			try (Cursor<String> cursor = this.redis.scan(options)) {
				while (keys.size() < limit && cursor.hasNext()) {
					String key = cursor.next();
					if (ownKey(key) != null) {
						keys.add(key);
					}
				}
			}
			for (int from = 0; from < keys.size(); from += BATCH) {
				List<String> batch = keys.subList(from, Math.min(keys.size(), from + BATCH));
				List<?> left = this.redis.execute(TIMES_LEFT, batch);
				for (int i = 0; left != null && i < batch.size() && i < left.size(); i++) {
					CooldownKey key = ownKey(batch.get(i));
					if (key != null && left.get(i) instanceof Long millis && millis > 0) {
						learn(key, millis);
						learned++;
					}
				}
			}
		}
		catch (RuntimeException ex) {
			commandFailed("read-through", ex);
			return;
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Read " + learned + " shared cooldown(s) from Redis (at most " + limit + ")");
		}
	}

	private @Nullable CooldownKey ownKey(String key) {
		if (!key.startsWith(this.keyPrefix)) {
			return null;
		}
		return CooldownKey.parse(key.substring(this.keyPrefix.length())).orElse(null);
	}

	// Measured from now on this instance's monotonic clock, capped by its maxDuration.
	private void learn(CooldownKey key, long remainingMillis) {
		this.cooldowns.record(key, this.monotonicClock.nanoTime(), Duration.ofMillis(remainingMillis));
	}

	private void commandFailed(String operation, RuntimeException ex) {
		if (failed(operation, ex.toString())) {
			requestSubscribe();
		}
	}

	// Counts and logs the failure if it starts an outage; failures during an outage (the
	// retries) are logged at DEBUG only. Returns whether an outage started.
	private boolean failed(String operation, String cause) {
		synchronized (this.stateLock) {
			if (this.outage || this.closed) {
				if (logger.isDebugEnabled()) {
					logger.debug("Redis cooldown store '" + this.keyPrefix + "': " + operation + " failed: " + cause);
				}
				return false;
			}
			this.outage = true;
			this.connected = false;
			this.outageStartNanos = this.monotonicClock.nanoTime();
			this.since = this.wallClock.instant();
		}
		this.errors.increment();
		logger.warn("Redis cooldown store '" + this.keyPrefix + "' is unavailable (" + operation + " failed: "
				+ cause + "); requests use this instance's cooldowns until it is back");
		return true;
	}

	private boolean runInBackground(Runnable task) {
		try {
			this.worker.execute(task);
			return true;
		}
		catch (RejectedExecutionException ex) {
			// closed: local cooldowns only
			return false;
		}
	}

	private void runOnSubscriber(Runnable task, Duration delay) {
		try {
			this.subscriber.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			// closed
		}
	}

	private Duration backOff(Duration delay) {
		return (delay.compareTo(this.maxRetryDelay.dividedBy(2)) > 0) ? this.maxRetryDelay : delay.multipliedBy(2);
	}

	private static void closeQuietly(RedisConnection connection) {
		try {
			connection.close();
		}
		catch (RuntimeException ex) {
			logger.debug("Closing the Redis subscription failed", ex);
		}
	}

	// SCAN MATCH is a glob: a prefix such as "app[1]:" must match literally.
	private static String escapeGlob(String text) {
		StringBuilder escaped = new StringBuilder(text.length() + 4);
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
				escaped.append('\\');
			}
			escaped.append(c);
		}
		return escaped.toString();
	}

	private static ThreadFactory daemon(String name) {
		return (runnable) -> {
			Thread thread = new Thread(runnable, name);
			thread.setDaemon(true);
			return thread;
		};
	}

	private final class Listener implements MessageListener, SubscriptionListener {

		@Override
		public void onMessage(Message message, byte @Nullable [] pattern) {
			String text = new String(message.getBody(), StandardCharsets.UTF_8);
			CooldownMessage.decode(text, RedisCooldownStore.this.signature).ifPresent(this::apply);
		}

		private void apply(CooldownMessage message) {
			boolean own = message.instance().equals(RedisCooldownStore.this.instance);
			CooldownKey key = message.key();
			switch (message.kind()) {
				case HEARTBEAT -> {
					if (own) {
						heard();
					}
				}
				case COOLDOWN -> {
					if (!own && key != null) {
						learn(key, message.remainingMillis());
					}
				}
				case END -> {
					if (own) {
						return;
					}
					if (key == null) {
						RedisCooldownStore.this.cooldowns.endAll(null);
					}
					else if (key.partition() == null) {
						RedisCooldownStore.this.cooldowns.endAll(key.origin());
					}
					else {
						RedisCooldownStore.this.cooldowns.end(key);
					}
				}
			}
		}

		@Override
		public void onChannelSubscribed(byte[] channel, long count) {
			// Also called when the client re-subscribes after a reconnect: check at once.
			sendHeartbeat();
		}

	}

}
