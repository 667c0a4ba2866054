package dev.retryafter.store;

/**
 * What time Redis says it is, as this instance estimates it between two readings of Redis's
 * {@code TIME}: the offset from this instance's monotonic clock, taken at the middle of the
 * round trip that read it, so it is off by at most half that round trip (plus the drift
 * since, a few milliseconds between two heartbeats). It stamps the signed messages and
 * judges how old the ones heard are, so no instance's wall clock plays a part, as for the
 * cooldowns' instants. Pure: every reading is handed in.
 */
final class RedisClock {

	/** What {@link #at(long)} returns before Redis's time was ever read. */
	static final long UNKNOWN = Long.MIN_VALUE;

	private static final long NANOS_PER_MILLI = 1_000_000;

	// Redis's epoch milliseconds minus this instance's monotonic milliseconds.
	private volatile long offsetMillis = UNKNOWN;

	/**
	 * Takes a reading of Redis's {@code TIME}.
	 * @param redisMillis what Redis answered, in epoch milliseconds
	 * @param beforeNanos the monotonic reading just before asking
	 * @param afterNanos the monotonic reading just after the answer came
	 */
	void observe(long redisMillis, long beforeNanos, long afterNanos) {
		long middle = beforeNanos + (afterNanos - beforeNanos) / 2;
		this.offsetMillis = redisMillis - Math.floorDiv(middle, NANOS_PER_MILLI);
	}

	boolean known() {
		return this.offsetMillis != UNKNOWN;
	}

	/**
	 * Redis's time at a monotonic reading.
	 * @param nanos the reading
	 * @return epoch milliseconds by Redis's clock, or {@link #UNKNOWN}
	 */
	long at(long nanos) {
		long offset = this.offsetMillis;
		return (offset != UNKNOWN) ? Math.floorDiv(nanos, NANOS_PER_MILLI) + offset : UNKNOWN;
	}

}
