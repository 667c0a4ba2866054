package dev.retryafter.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.random.RandomGenerator;

import dev.retryafter.core.CauseChain;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

/**
 * Whether a {@link RedisCooldownStore} shares cooldowns now: its heartbeat (a write and a
 * publish in one script on the command connection, heard back on its own subscription, so it
 * comes back only when Redis takes writes and scripts and both connections work), the
 * watchdog that notices when it stops coming back or when Lettuce reports a closed
 * connection, and the outages: each one counted once, logged once at WARN when it starts and
 * once at INFO when it ends. During an outage the store tries to reconnect (a new
 * subscription, whose heartbeat must come back) after steps of 1 s, then ever longer, up to
 * 30 s ({@link ReconnectBackoff}), so a Redis that answers but refuses writes
 * ({@code READONLY}, {@code OOM}, {@code NOPERM}) costs one attempt per backoff step, not a
 * loop.
 */
final class ConnectionHealth {

	private static final boolean LETTUCE_EVENTS_PRESENT = ClassUtils.isPresent(
			"io.lettuce.core.event.connection.DisconnectedEvent", ConnectionHealth.class.getClassLoader())
			&& ClassUtils.isPresent("reactor.core.Disposable", ConnectionHealth.class.getClassLoader());

	private static final Log logger = LogFactory.getLog(RedisCooldownStore.class);

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

	private final long heartbeatIntervalNanos;

	private final long heartbeatTimeoutNanos;

	private final long probeTimeoutNanos;

	private final List<String> heartbeatKey;

	private final String heartbeatMillis;

	// The waits between the reconnection attempts; back to the first after a heartbeat heard
	// while connected, so an outage that follows a recovery at once keeps backing off.
	private final ReconnectBackoff backoff;

	// Counts outages, so that the attempts of an outage that ended stop.
	private long outages;

	// Asks for a new subscription: each reconnection attempt.
	private final Runnable reconnect;

	// Runs on the background thread when the heartbeat comes back: publishes what was recorded
	// meanwhile and catches up; false if a command failed, and the outage goes on.
	private final BooleanSupplier recovered;

	private final IntSupplier queuedWrites;

	private final LongAdder errors = new LongAdder();

	// Guards the connection state below; held only briefly, never by a request.
	private final Object stateLock = new Object();

	private volatile boolean connected;

	private volatile Instant since;

	private volatile boolean outage;

	// Set on the background thread while the store publishes and catches up after its
	// heartbeat came back: writes go out, though the store is not connected until they did.
	private volatile boolean recovering;

	private long outageStartNanos;

	private volatile long lastHeardNanos;

	private volatile long lastSentNanos;

	// Set when a client connection closed: the heartbeat must then come back within the probe
	// timeout, or the outage starts at once rather than after the heartbeat timeout.
	private volatile long probeStartNanos;

	private volatile boolean probing;

	private volatile @Nullable String probeCause;

	// Stops watching the client's connection events.
	private volatile @Nullable Runnable disconnects;

	private final AtomicBoolean heartbeatInFlight = new AtomicBoolean();

	// Asked for while one was on its way, e.g. by a new subscription that the one on its way
	// may have missed: sent once that one is done.
	private final AtomicBoolean heartbeatAgain = new AtomicBoolean();

	// Checks the heartbeat; never runs a Redis command, so a hung Redis cannot stop it.
	private final ScheduledExecutorService watchdog = Executors
		.newSingleThreadScheduledExecutor(RedisLink.daemon("retry-after-redis-watchdog"));

	private volatile boolean closed;

	ConnectionHealth(RedisLink link, Duration heartbeatInterval, Duration heartbeatTimeout, Duration probeTimeout,
			Duration firstRetryDelay, Duration maxRetryDelay, Runnable reconnect, BooleanSupplier recovered,
			IntSupplier queuedWrites, RandomGenerator random) {
		this.link = link;
		this.heartbeatIntervalNanos = heartbeatInterval.toNanos();
		this.heartbeatTimeoutNanos = heartbeatTimeout.toNanos();
		this.probeTimeoutNanos = Math.min(probeTimeout.toNanos(), this.heartbeatTimeoutNanos);
		// Not a cooldown key (no "://"), so the catch-up and the ends leave it alone.
		this.heartbeatKey = List.of(link.keyPrefix() + "heartbeat");
		this.heartbeatMillis = Long.toString(Math.max(1, heartbeatTimeout.toMillis()));
		this.backoff = new ReconnectBackoff(firstRetryDelay, maxRetryDelay, random);
		this.reconnect = reconnect;
		this.recovered = recovered;
		this.queuedWrites = queuedWrites;
		this.since = link.wallClock().instant();
		this.lastHeardNanos = link.monotonicClock().nanoTime();
	}

	/**
	 * Starts the watchdog; the heartbeat timeout runs from now.
	 */
	void start() {
		this.lastHeardNanos = this.link.monotonicClock().nanoTime();
		watchDisconnects();
		long tick = Math.max(1, Math.min(this.heartbeatIntervalNanos / 4, TimeUnit.SECONDS.toNanos(1)));
		try {
			this.watchdog.scheduleWithFixedDelay(this::check, tick, tick, TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// closed
		}
	}

	/**
	 * Whether writes may be sent now: when connected, or while recovering.
	 */
	boolean mayWrite() {
		return this.connected || this.recovering;
	}

	long errorCount() {
		return this.errors.sum();
	}

	StoreState state(String type) {
		return new StoreState(type, this.connected, this.since, errorCount());
	}

	/**
	 * Publishes the heartbeat in the background, unless one is still on its way.
	 */
	void sendHeartbeat() {
		if (!this.heartbeatInFlight.compareAndSet(false, true)) {
			// The previous one is still waiting for a hung or slow Redis.
			this.heartbeatAgain.set(true);
			return;
		}
		this.lastSentNanos = this.link.monotonicClock().nanoTime();
		if (!this.link.runInBackground(this::publishHeartbeat)) {
			this.heartbeatInFlight.set(false);
		}
	}

	/**
	 * This store's own heartbeat came back. Called on the client's event loop: must not block.
	 */
	void heard() {
		this.lastHeardNanos = this.link.monotonicClock().nanoTime();
		if (this.connected) {
			this.backoff.reset();
		}
		else {
			this.link.runInBackground(this::recover);
		}
	}

	/**
	 * A command failed: starts an outage, unless one is on.
	 */
	void commandFailed(String operation, RuntimeException ex) {
		failed(operation, describe(ex));
	}

	/**
	 * The exception and, when it only wraps another (Spring's translation of Lettuce's), what
	 * Redis said: {@code READONLY ...}, {@code OOM ...}, {@code NOPERM ...}.
	 */
	static String describe(Throwable ex) {
		// Bounded and cycle-safe: a cause chain that loops back must not hang the log line.
		Throwable root = CauseChain.root(ex);
		String text = ex.toString();
		String cause = root.toString();
		return (root == ex || text.contains(cause)) ? text : text + " <- " + cause;
	}

	/**
	 * Counts and logs the failure if it starts an outage, and then starts the reconnection
	 * attempts; failures during an outage (the attempts) are logged at DEBUG only.
	 * @return whether an outage started
	 */
	boolean failed(String operation, String cause) {
		long outage;
		synchronized (this.stateLock) {
			if (this.outage || this.closed) {
				if (logger.isDebugEnabled()) {
					logger.debug("Redis cooldown store '" + this.link.keyPrefix() + "': " + operation + " failed: "
							+ cause);
				}
				return false;
			}
			this.outage = true;
			this.connected = false;
			this.outageStartNanos = this.link.monotonicClock().nanoTime();
			this.since = this.link.wallClock().instant();
			outage = ++this.outages;
		}
		this.errors.increment();
		logger.warn("Redis cooldown store '" + this.link.keyPrefix() + "' is unavailable (" + operation + " failed: "
				+ cause + "); requests use this instance's cooldowns until it is back");
		scheduleAttempt(outage);
		return true;
	}

	void close() {
		this.closed = true;
		Runnable watching = this.disconnects;
		if (watching != null) {
			watching.run();
		}
		this.watchdog.shutdownNow();
	}

	// Watchdog: publishes the heartbeat and notices when it stops coming back.
	private void check() {
		long now = this.link.monotonicClock().nanoTime();
		if (now - this.lastHeardNanos > this.heartbeatTimeoutNanos && !this.outage) {
			failed("heartbeat",
					"no heartbeat heard back for " + Duration.ofNanos(now - this.lastHeardNanos).toMillis() + " ms");
		}
		if (this.probing && now - this.probeStartNanos > this.probeTimeoutNanos) {
			this.probing = false;
			if (this.lastHeardNanos - this.probeStartNanos < 0 && !this.outage) {
				failed("connection", "the connection to " + this.probeCause
						+ " closed and no heartbeat came back within " + this.probeTimeoutNanos / 1_000_000 + " ms");
			}
		}
		// During an outage, only the reconnection attempts send it.
		if (!this.outage && now - this.lastSentNanos >= this.heartbeatIntervalNanos) {
			sendHeartbeat();
		}
	}

	private void scheduleAttempt(long outage) {
		RedisLink.schedule(this.watchdog, () -> attempt(outage), this.backoff.nextWait());
	}

	// On the watchdog thread: asks for a new subscription, whose heartbeat ends the outage if
	// Redis works again, and schedules the next attempt.
	private void attempt(long outage) {
		synchronized (this.stateLock) {
			if (!this.outage || this.closed || outage != this.outages) {
				return;
			}
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Redis cooldown store '" + this.link.keyPrefix() + "': reconnecting");
		}
		this.reconnect.run();
		scheduleAttempt(outage);
	}

	private void watchDisconnects() {
		if (!LETTUCE_EVENTS_PRESENT) {
			return;
		}
		try {
			this.disconnects = LettuceDisconnects.watch(this.link.connectionFactory(), this::connectionClosed);
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
		this.probeStartNanos = this.link.monotonicClock().nanoTime();
		this.probing = true;
		sendHeartbeat();
	}

	private void publishHeartbeat() {
		try {
			if (this.link.signature().signs()) {
				// Its stamp is Redis's time: read once, before the first signed message.
				this.link.readRedisTimeOnce();
			}
			// Encoded for each one: a signed heartbeat has a stamp and sequence number of its own.
			String heartbeat = CooldownMessage.heartbeat(this.link.instance()).encode(this.link.signature());
			long before = this.link.monotonicClock().nanoTime();
			Long redisMillis = this.link.redis()
				.execute(HEARTBEAT, this.heartbeatKey, this.link.channel(), heartbeat, this.heartbeatMillis);
			if (redisMillis != null) {
				this.link.redisClock().observe(redisMillis, before, this.link.monotonicClock().nanoTime());
			}
		}
		catch (RuntimeException ex) {
			commandFailed("heartbeat", ex);
		}
		finally {
			this.heartbeatInFlight.set(false);
		}
		if (this.heartbeatAgain.getAndSet(false)) {
			sendHeartbeat();
		}
	}

	// Connected only once what was recorded meanwhile is published and the fleet's cooldowns
	// are read: a Redis that answers the heartbeat but fails them (a cluster with a master
	// down, a key Redis refuses) is still in the same outage, not in a new one.
	private void recover() {
		if (this.connected || this.closed) {
			return;
		}
		int queued = this.queuedWrites.getAsInt();
		long outageNanos;
		boolean wasOutage;
		this.recovering = true;
		try {
			if (!this.recovered.getAsBoolean()) {
				return;
			}
			synchronized (this.stateLock) {
				if (this.connected || this.closed) {
					return;
				}
				wasOutage = this.outage;
				outageNanos = this.link.monotonicClock().nanoTime() - this.outageStartNanos;
				this.outage = false;
				// Before recovering ends, so no write queued meanwhile is left waiting.
				this.connected = true;
				this.since = this.link.wallClock().instant();
			}
		}
		finally {
			this.recovering = false;
		}
		if (wasOutage) {
			logger.info("Redis cooldown store '" + this.link.keyPrefix() + "' is connected again after an outage of "
					+ Duration.ofNanos(outageNanos).toMillis() + " ms; published the " + queued
					+ " cooldown(s) recorded meanwhile and caught up with the fleet's");
		}
	}

}
