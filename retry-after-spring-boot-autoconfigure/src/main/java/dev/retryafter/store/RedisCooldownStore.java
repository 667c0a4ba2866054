package dev.retryafter.store;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
import dev.retryafter.core.RetryAfter;
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

/**
 * Host cooldowns shared by a fleet through Redis ({@code retry-after.store=redis}).
 * <p>
 * Each origin's not-before instant is a key {@code <prefix><origin>} whose value is the
 * instant in epoch milliseconds and which expires at that instant ({@code PEXPIREAT}); a Lua
 * script keeps the later instant atomically and, when it stored a new one, publishes it on
 * the channel {@code <prefix>cooldowns}. Every instance subscribes and copies what it hears
 * into its local {@link HostCooldowns}, and reads the existing keys ({@code SCAN}, at most
 * {@code maxHosts}) whenever its subscription is (re)established, so it also learns the
 * cooldowns published while it was not listening.
 * <p>
 * Requests never wait for Redis: reads are local, and writes are queued (one per origin,
 * the later instant kept) for a background thread. When Redis is down or slow the local
 * cooldowns keep working; each failed operation is counted ({@link #errorCount()} and the
 * error callback), one WARN is logged when an outage starts and one INFO when Redis answers
 * again. How long a single Redis operation may take is the connection factory's command
 * timeout ({@code spring.data.redis.timeout}); it only ever delays other background work.
 * <p>
 * Written for Lettuce, Spring Boot's default client, which re-subscribes by itself after a
 * reconnect.
 *
 * @since 0.1.0
 */
public class RedisCooldownStore implements CooldownStore, AutoCloseable {

	/** The value of {@link #name()}. */
	public static final String NAME = "redis";

	/** The key prefix used unless configured ({@code retry-after.redis.key-prefix}). */
	public static final String DEFAULT_KEY_PREFIX = "retry-after:";

	private static final Log logger = LogFactory.getLog(RedisCooldownStore.class);

	// KEYS[1] the origin's key; ARGV[1] the proposed not-before (epoch ms); ARGV[2] the
	// channel; ARGV[3] the message. Returns the not-before held afterwards.
	private static final RedisScript<Long> LATER_WINS = RedisScript.of("""
			local held = tonumber(redis.call('GET', KEYS[1]))
			local proposed = tonumber(ARGV[1])
			if held and held >= proposed then
			  return held
			end
			redis.call('SET', KEYS[1], ARGV[1])
			redis.call('PEXPIREAT', KEYS[1], ARGV[1])
			redis.call('PUBLISH', ARGV[2], ARGV[3])
			return proposed
			""", Long.class);

	private static final int SCAN_COUNT = 200;

	private static final int MULTI_GET_BATCH = 100;

	private static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);

	private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);

	private final HostCooldowns cooldowns;

	private final RedisConnectionFactory connectionFactory;

	private final StringRedisTemplate redis;

	private final String keyPrefix;

	private final String channel;

	private final Runnable errorCallback;

	private final MonotonicClock monotonicClock;

	private final Clock wallClock;

	private final String instance = UUID.randomUUID().toString();

	private final LongAdder errors = new LongAdder();

	private final AtomicBoolean available = new AtomicBoolean(true);

	// Latest not-before (epoch ms) waiting to be written, per origin: a burst of 429s from
	// one origin becomes one write, and the queue is bounded by the number of origins.
	private final Map<CooldownKey, Long> pendingWrites = new ConcurrentHashMap<>();

	private final AtomicBoolean flushScheduled = new AtomicBoolean();

	private final AtomicBoolean readThroughScheduled = new AtomicBoolean();

	// All Redis commands but SUBSCRIBE run here, one at a time.
	private final ScheduledExecutorService worker;

	// SUBSCRIBE gets its own thread: some clients block the subscribing thread.
	private final ExecutorService subscriber;

	private final Listener listener = new Listener();

	// Failed subscriptions and read-throughs are tried again, backing off up to 30 s.
	private volatile Duration resubscribeDelay = FIRST_RETRY_DELAY;

	private volatile Duration readThroughDelay = FIRST_RETRY_DELAY;

	private volatile @Nullable RedisConnection subscription;

	private volatile boolean closed;

	/**
	 * Creates a store on the system clocks. Call {@link #start()} to begin sharing.
	 * @param connectionFactory the application's Redis connection factory
	 * @param cooldowns the local map every decision reads; its {@code maxHosts} also caps
	 * the keys read from Redis
	 * @param keyPrefix the prefix of every key and of the channel
	 * @param errorCallback called once per failed Redis operation (e.g. to count
	 * {@code http.client.retry.store.errors}); must be fast and must not throw
	 */
	public RedisCooldownStore(RedisConnectionFactory connectionFactory, HostCooldowns cooldowns, String keyPrefix,
			Runnable errorCallback) {
		this(connectionFactory, cooldowns, keyPrefix, errorCallback, MonotonicClock.SYSTEM, Clock.systemUTC());
	}

	RedisCooldownStore(RedisConnectionFactory connectionFactory, HostCooldowns cooldowns, String keyPrefix,
			Runnable errorCallback, MonotonicClock monotonicClock, Clock wallClock) {
		this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
		this.cooldowns = Objects.requireNonNull(cooldowns, "cooldowns");
		this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
		this.errorCallback = Objects.requireNonNull(errorCallback, "errorCallback");
		this.monotonicClock = Objects.requireNonNull(monotonicClock, "monotonicClock");
		this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
		this.channel = keyPrefix + "cooldowns";
		this.redis = new StringRedisTemplate(connectionFactory);
		this.worker = Executors.newSingleThreadScheduledExecutor(daemon("retry-after-redis"));
		this.subscriber = Executors.newSingleThreadExecutor(daemon("retry-after-redis-subscriber"));
	}

	/**
	 * Starts listening for other instances' cooldowns, in the background: never blocks and
	 * never fails, even when Redis is down (then it keeps trying).
	 */
	public void start() {
		submitSubscribe();
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
		Duration bounded = (delay.compareTo(cap) > 0) ? cap : delay;
		// Rounded up: the shared instant must never be earlier than the server asked.
		long notBeforeMillis = wallNow.toEpochMilli() + (bounded.toNanos() + 999_999) / 1_000_000;
		if (this.pendingWrites.size() >= this.cooldowns.maxHosts() && !this.pendingWrites.containsKey(key)) {
			failed("write", new IllegalStateException("too many cooldowns waiting to be written"));
			return;
		}
		this.pendingWrites.merge(key, notBeforeMillis, Math::max);
		if (this.flushScheduled.compareAndSet(false, true)) {
			runInBackground(this::flushWrites);
		}
	}

	@Override
	public HostCooldowns cooldowns() {
		return this.cooldowns;
	}

	@Override
	public long errorCount() {
		return this.errors.sum();
	}

	/**
	 * Stops listening and drops writes not yet sent. Does not close the connection factory,
	 * which belongs to the application.
	 */
	@Override
	public void close() {
		this.closed = true;
		this.worker.shutdownNow();
		this.subscriber.shutdownNow();
		RedisConnection connection = this.subscription;
		this.subscription = null;
		if (connection != null) {
			closeQuietly(connection);
		}
	}

	private void flushWrites() {
		this.flushScheduled.set(false);
		for (Map.Entry<CooldownKey, Long> entry : this.pendingWrites.entrySet()) {
			if (this.pendingWrites.remove(entry.getKey(), entry.getValue())) {
				write(entry.getKey(), entry.getValue());
			}
		}
	}

	private void write(CooldownKey key, long notBeforeMillis) {
		String message = new CooldownMessage(notBeforeMillis, this.instance, key).encode();
		Long held;
		try {
			held = this.redis.execute(LATER_WINS, List.of(this.keyPrefix + key), Long.toString(notBeforeMillis),
					this.channel, message);
		}
		catch (RuntimeException ex) {
			failed("write", ex);
			return;
		}
		succeeded();
		if (held != null && held > notBeforeMillis) {
			// Another instance holds a later instant this one may have missed.
			learn(key, held);
		}
	}

	private void submitSubscribe() {
		try {
			this.subscriber.execute(this::subscribe);
		}
		catch (RejectedExecutionException ex) {
			// closed
		}
	}

	private void subscribe() {
		if (this.closed) {
			return;
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
			// Lettuce returns once subscribed and re-subscribes by itself after reconnecting.
			connection.subscribe(this.listener, this.channel.getBytes(StandardCharsets.UTF_8));
			this.resubscribeDelay = FIRST_RETRY_DELAY;
		}
		catch (RuntimeException ex) {
			this.subscription = null;
			if (connection != null) {
				closeQuietly(connection);
			}
			if (this.closed) {
				return;
			}
			failed("subscribe", ex);
			Duration delay = this.resubscribeDelay;
			this.resubscribeDelay = backOff(delay);
			runLater(this::submitSubscribe, delay);
		}
	}

	private void scheduleReadThrough() {
		if (this.readThroughScheduled.compareAndSet(false, true)) {
			runInBackground(this::readThrough);
		}
	}

	private void readThrough() {
		this.readThroughScheduled.set(false);
		List<String> keys = new ArrayList<>();
		int limit = this.cooldowns.maxHosts();
		ScanOptions options = ScanOptions.scanOptions()
			.match(escapeGlob(this.keyPrefix) + "*")
			.count(SCAN_COUNT)
			.build();
		try {
			try (Cursor<String> cursor = this.redis.scan(options)) {
				while (keys.size() < limit && cursor.hasNext()) {
					keys.add(cursor.next());
				}
			}
			for (int from = 0; from < keys.size(); from += MULTI_GET_BATCH) {
				List<String> batch = keys.subList(from, Math.min(keys.size(), from + MULTI_GET_BATCH));
				List<String> values = this.redis.opsForValue().multiGet(batch);
				for (int i = 0; values != null && i < batch.size(); i++) {
					learn(batch.get(i), values.get(i));
				}
			}
		}
		catch (RuntimeException ex) {
			failed("read-through", ex);
			// A catch-up that failed (e.g. the command connection still reconnecting while
			// the subscription is back) must not be lost.
			Duration delay = this.readThroughDelay;
			this.readThroughDelay = backOff(delay);
			runLater(this::scheduleReadThrough, delay);
			return;
		}
		this.readThroughDelay = FIRST_RETRY_DELAY;
		succeeded();
		if (logger.isDebugEnabled()) {
			logger.debug("Read " + keys.size() + " shared cooldown key(s) from Redis (at most " + limit + ")");
		}
	}

	private void learn(String key, @Nullable String value) {
		if (value == null || !key.startsWith(this.keyPrefix)) {
			return;
		}
		try {
			long notBeforeMillis = Long.parseLong(value);
			CooldownKey.parse(key.substring(this.keyPrefix.length()))
				.ifPresent((parsed) -> learn(parsed, notBeforeMillis));
		}
		catch (NumberFormatException ex) {
			// not one of ours
		}
	}

	private void learn(CooldownKey key, long notBeforeMillis) {
		this.cooldowns.recordUntil(key, Instant.ofEpochMilli(notBeforeMillis), this.wallClock.instant(),
				this.monotonicClock.nanoTime());
	}

	private void runInBackground(Runnable task) {
		try {
			this.worker.execute(task);
		}
		catch (RejectedExecutionException ex) {
			// closed: local cooldowns only
		}
	}

	private void runLater(Runnable task, Duration delay) {
		try {
			this.worker.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			// closed
		}
	}

	private static Duration backOff(Duration delay) {
		return (delay.compareTo(MAX_RETRY_DELAY.dividedBy(2)) > 0) ? MAX_RETRY_DELAY : delay.multipliedBy(2);
	}

	private void failed(String operation, Exception ex) {
		this.errors.increment();
		try {
			this.errorCallback.run();
		}
		catch (RuntimeException callbackFailure) {
			logger.debug("Store error callback failed", callbackFailure);
		}
		if (this.available.compareAndSet(true, false)) {
			logger.warn("Redis is unavailable for shared host cooldowns (" + operation + " failed: " + ex
					+ "); requests use this instance's cooldowns until it is back");
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Redis " + operation + " failed: " + ex);
		}
	}

	private void succeeded() {
		if (this.available.compareAndSet(false, true)) {
			logger.info("Redis is available again for shared host cooldowns");
			scheduleReadThrough();
		}
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
			CooldownMessage.decode(text).ifPresent((decoded) -> {
				if (!decoded.instance().equals(RedisCooldownStore.this.instance)) {
					learn(decoded.key(), decoded.notBeforeMillis());
				}
			});
		}

		@Override
		public void onChannelSubscribed(byte[] channel, long count) {
			// Also called when the client re-subscribes after a reconnect: catch up then.
			runInBackground(RedisCooldownStore.this::succeeded);
			scheduleReadThrough();
		}

	}

}
