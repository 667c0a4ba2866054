package dev.retryafter.store;

import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * The part of a {@link ConnectionHealth} that listens to Lettuce's connection events: when a
 * client connection closes, the heartbeat must come back within the probe timeout, or an
 * outage starts then rather than after the heartbeat timeout. A probe that is still waiting
 * is not restarted by the next closed connection: behind Sentinel, Lettuce opens and closes a
 * sentinel connection at each reconnection attempt, and restarting the probe on each of them
 * kept a store whose master was dead {@code connected} for the whole failover.
 */
final class DisconnectProbe {

	private static final boolean LETTUCE_EVENTS_PRESENT = ClassUtils.isPresent(
			"io.lettuce.core.event.connection.DisconnectedEvent", DisconnectProbe.class.getClassLoader())
			&& ClassUtils.isPresent("reactor.core.Disposable", DisconnectProbe.class.getClassLoader());

	private static final Log logger = LogFactory.getLog(RedisCooldownStore.class);

	private final RedisLink link;

	private final long timeoutNanos;

	private volatile long startNanos;

	private volatile boolean waiting;

	private volatile @Nullable String cause;

	// Stops watching the client's connection events.
	private volatile @Nullable Runnable disconnects;

	DisconnectProbe(RedisLink link, long timeoutNanos) {
		this.link = link;
		this.timeoutNanos = timeoutNanos;
	}

	/**
	 * Starts watching the client's connection events.
	 * @param closed called on the client's event thread with the remote address; must not
	 * block
	 */
	void watch(Consumer<String> closed) {
		if (!LETTUCE_EVENTS_PRESENT) {
			return;
		}
		try {
			this.disconnects = LettuceDisconnects.watch(this.link.connectionFactory(), closed);
		}
		catch (RuntimeException | LinkageError ex) {
			// The heartbeat alone still notices a lost connection.
			logger.debug("Cannot watch the Redis client's connection events", ex);
		}
	}

	/**
	 * A connection to {@code remote} closed: starts a probe unless one is waiting already.
	 * @return whether a probe started
	 */
	synchronized boolean start(String remote) {
		if (this.waiting) {
			return false;
		}
		this.cause = remote;
		this.startNanos = this.link.monotonicClock().nanoTime();
		this.waiting = true;
		return true;
	}

	/**
	 * The heartbeat came back at {@code nanos}: a probe started before then is answered.
	 */
	synchronized void heard(long nanos) {
		if (this.waiting && nanos - this.startNanos >= 0) {
			this.waiting = false;
		}
	}

	/**
	 * What went wrong if the waiting probe timed out by {@code now} (it then stops waiting),
	 * or {@code null}.
	 */
	synchronized @Nullable String expired(long now) {
		if (!this.waiting || now - this.startNanos <= this.timeoutNanos) {
			return null;
		}
		this.waiting = false;
		return "the connection to " + this.cause + " closed and no heartbeat came back within "
				+ this.timeoutNanos / 1_000_000 + " ms";
	}

	void close() {
		Runnable watching = this.disconnects;
		if (watching != null) {
			watching.run();
		}
	}

}
