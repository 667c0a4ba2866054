package dev.retryafter.store;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.random.RandomGenerator;

import dev.retryafter.core.CauseChain;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

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
 * <p>
 * {@code connected} means that sharing works both ways now: this store's heartbeat went
 * through a master and came back on the subscription the store holds now, within the
 * heartbeat timeout (or the probe timeout, after a client connection closed), and the store
 * has caught up since that subscription was made. Its parts: the {@link HeartbeatSender} and
 * the {@link DisconnectProbe}.
 */
final class ConnectionHealth {

	private static final Log logger = LogFactory.getLog(RedisCooldownStore.class);

	private final RedisLink link;

	private final long heartbeatIntervalNanos;

	private final long heartbeatTimeoutNanos;

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

	// Set when a client connection closed: the heartbeat must then come back within the probe
	// timeout, or the outage starts at once rather than after the heartbeat timeout.
	private final DisconnectProbe probe;

	private final HeartbeatSender heartbeat;

	// Set when a subscription is made, by the store or by the client on its own: messages
	// published before it were missed, so the store republishes its own and reads the fleet's
	// once its heartbeat is heard, as after an outage.
	private volatile boolean catchUpNeeded;

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
		this.probe = new DisconnectProbe(link, Math.min(probeTimeout.toNanos(), this.heartbeatTimeoutNanos));
		this.heartbeat = new HeartbeatSender(link, heartbeatTimeout, this::commandFailed);
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
		this.probe.watch(this::connectionClosed);
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
		this.heartbeat.send();
	}

	/**
	 * This store's own heartbeat came back on its current subscription: its write went through
	 * a master that the subscription hears. Called on the client's event loop: must not block.
	 */
	void heard() {
		long now = this.link.monotonicClock().nanoTime();
		this.lastHeardNanos = now;
		this.probe.heard(now);
		if (this.connected && !this.catchUpNeeded) {
			this.backoff.reset();
		}
		else {
			this.link.runInBackground(this::recover);
		}
	}

	/**
	 * A subscription was made (by the store, or by the client re-subscribing after a
	 * reconnect): checks it at once, and catches up once its heartbeat is heard. Must not
	 * block.
	 */
	void subscribed() {
		this.catchUpNeeded = true;
		sendHeartbeat();
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
		this.probe.close();
		this.watchdog.shutdownNow();
	}

	// Watchdog: publishes the heartbeat and notices when it stops coming back.
	private void check() {
		long now = this.link.monotonicClock().nanoTime();
		if (now - this.lastHeardNanos > this.heartbeatTimeoutNanos && !this.outage) {
			failed("heartbeat",
					"no heartbeat heard back for " + Duration.ofNanos(now - this.lastHeardNanos).toMillis() + " ms");
		}
		String unanswered = this.probe.expired(now);
		if (unanswered != null && !this.outage) {
			failed("connection", unanswered);
		}
		// During an outage, only the reconnection attempts send it.
		if (!this.outage && now - this.heartbeat.lastSentNanos() >= this.heartbeatIntervalNanos) {
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

	// Called on the client's event thread: must not block.
	private void connectionClosed(String remote) {
		if (this.closed || this.outage) {
			return;
		}
		if (this.probe.start(remote)) {
			sendHeartbeat();
		}
	}

	// Connected only once what was recorded meanwhile is published and the fleet's cooldowns
	// are read: a Redis that answers the heartbeat but fails them (a cluster with a master
	// down, a key Redis refuses) is still in the same outage, not in a new one.
	private void recover() {
		if ((this.connected && !this.catchUpNeeded) || this.closed) {
			return;
		}
		// Cleared first: a subscription made while this runs asks for another catch-up.
		this.catchUpNeeded = false;
		int queued = this.queuedWrites.getAsInt();
		long outageNanos;
		boolean wasOutage;
		this.recovering = true;
		try {
			if (!this.recovered.getAsBoolean()) {
				this.catchUpNeeded = true;
				return;
			}
			synchronized (this.stateLock) {
				// Connected already: a catch-up after the client re-subscribed by itself.
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
