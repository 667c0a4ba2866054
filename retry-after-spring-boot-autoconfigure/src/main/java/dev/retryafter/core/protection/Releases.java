package dev.retryafter.core.protection;

import java.util.PriorityQueue;

/**
 * When the requests a cooldown held are sent: one instant per held request, kept until it
 * has passed. The release window is exactly these instants, so a request that arrives after
 * the cooldown's instant queues only behind requests that are really still waiting to leave,
 * and is sent at once when none is.
 * <p>
 * Times are monotonic nanosecond readings, compared only as differences. Thread-safe: every
 * method locks the queue, which only requests held for one key contend for. Bounded by the
 * number of requests waiting for that key at once (each is a caller being held).
 */
final class Releases {

	// Earliest first, so passed instants are dropped from the head; differences, not values,
	// are compared because readings may wrap.
	private final PriorityQueue<Long> instants = new PriorityQueue<>((a, b) -> Long.signum(a - b));

	private long last;

	private boolean heldAny;

	// When a request held here was last really sent: a busy machine may wake a held thread
	// well after its release instant, and the request's answer comes that much later too.
	private long lastLeft;

	private boolean leftAny;

	/**
	 * A request held now is released at {@code releaseNanos}.
	 */
	synchronized void add(long releaseNanos) {
		if (this.instants.isEmpty() || releaseNanos - this.last > 0) {
			this.last = releaseNanos;
		}
		this.instants.add(releaseNanos);
		this.heldAny = true;
	}

	/**
	 * A request held here has been sent at {@code nowNanos}, at its release instant or later.
	 * Ignored when nothing was ever held here: the request was released by another cooldown.
	 */
	synchronized void left(long nowNanos) {
		if (this.heldAny && (!this.leftAny || nowNanos - this.lastLeft > 0)) {
			this.lastLeft = nowNanos;
			this.leftAny = true;
		}
	}

	/**
	 * Whether a request held here was sent less than {@code spanNanos} before {@code nowNanos}.
	 */
	synchronized boolean leftWithin(long spanNanos, long nowNanos) {
		return this.leftAny && this.lastLeft + spanNanos - nowNanos > 0;
	}

	/**
	 * Whether a request held here was sent at or after {@code sinceNanos}.
	 */
	synchronized boolean leftSince(long sinceNanos) {
		return this.leftAny && this.lastLeft - sinceNanos >= 0;
	}

	/**
	 * How many held requests are still to leave at {@code nowNanos}.
	 */
	synchronized int leaving(long nowNanos) {
		drop(nowNanos);
		return this.instants.size();
	}

	/**
	 * The time from {@code nowNanos} until the last held request leaves, or zero or less when
	 * none is still to leave.
	 */
	synchronized long untilLast(long nowNanos) {
		drop(nowNanos);
		return this.instants.isEmpty() ? 0 : this.last - nowNanos;
	}

	private void drop(long nowNanos) {
		Long head = this.instants.peek();
		while (head != null && head - nowNanos <= 0) {
			this.instants.poll();
			head = this.instants.peek();
		}
	}

}
