package dev.retryafter.core.protection;

/**
 * The fewest left a window's answers counted, and when the request that count answered went,
 * if known: a fleet counts the slots that went after that request against the count
 * (docs/PACING.md, rule 15). A count is kept only with its request's round trip, since the
 * slots it does not hold are those that went after that request; a fewer count without one
 * does not replace one with it, which still bounds the window.
 * <p>
 * Not thread-safe: its schedule's lock guards it.
 */
final class WindowCount {

	private long fewest;

	private long sentAt;

	private boolean sent;

	/** A window's first count, or the first of a new window. */
	WindowCount(long remaining, long roundTripNanos, long nowNanos) {
		counted(remaining, roundTripNanos, nowNanos);
	}

	/** A newer answer's count; {@code sameWindow} when it counts the same window's. */
	void see(boolean sameWindow, long remaining, long roundTripNanos, long nowNanos) {
		if (!sameWindow || (remaining < this.fewest && (roundTripNanos >= 0 || !this.sent))) {
			counted(remaining, roundTripNanos, nowNanos);
		}
	}

	/** The fewest left, or -1 when its request's instant is not known. */
	long fewest() {
		return this.sent ? this.fewest : -1;
	}

	/**
	 * How long ago the fewest count's request went, never negative: a caller may ask with a
	 * reading taken before another thread's count came in.
	 */
	long agoNanos(long nowNanos) {
		return this.sent ? Math.max(0, nowNanos - this.sentAt) : 0;
	}

	private void counted(long remaining, long roundTripNanos, long nowNanos) {
		this.fewest = remaining;
		this.sent = roundTripNanos >= 0;
		this.sentAt = nowNanos - Math.max(0, roundTripNanos);
	}

}
