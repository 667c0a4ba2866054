package dev.retryafter.core.protection;

import dev.retryafter.core.header.RateLimitReading;

/**
 * The arithmetic of a quota's slots: the intervals before and after its reset, whether a
 * slot leaves room for a retry, and how long a schedule stays quiet before it is forgotten.
 * Times are monotonic nanosecond readings, compared only as differences.
 */
final class QuotaIntervals {

	private static final long QUIET_NANOS = 10_000_000_000L;

	private QuotaIntervals() {
	}

	/** One slot every {@code w / q}, divided by the pacing's share; 0 without a rate. */
	static long after(RateLimitReading reading) {
		if (!reading.hasRate()) {
			return 0;
		}
		return Math.max(1, (long) (reading.window().toNanos() / (double) reading.quota() / RateLimitSchedule.SHARE));
	}

	/** One slot every {@code t / left}; 0 when nothing is left or the reset has passed. */
	static long before(long left, long resetInNanos) {
		return (left > 0 && resetInNanos > 0) ? Math.max(1, resetInNanos / left) : 0;
	}

	/**
	 * Whether a hold of {@code waitNanos} leaves half the budget past the reserve: room for a
	 * retry of the same call after the slot, as the call would have without the fields.
	 */
	static boolean fits(long waitNanos, long budgetNanos, long reserveNanos) {
		// Both are clamped far below the long range by the caller, so the difference is exact.
		return waitNanos <= (budgetNanos - reserveNanos) / 2;
	}

	/** The quiet period: 10 s, or two windows if longer. */
	static long quietNanos(RateLimitReading reading) {
		return Math.max(QUIET_NANOS, 2 * reading.window().toNanos());
	}

	/** The later of two monotonic readings. */
	static long latest(long a, long b) {
		return (b - a > 0) ? b : a;
	}

}
