package dev.retryafter.core;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * Duration scaling that cannot overflow. {@link Duration#multipliedBy(long)} and
 * {@code toNanos()} throw for the large values settings allow (a backoff cap or budget may be
 * any {@code Duration}), and a {@code double} factor applied to nanoseconds loses exactness; so
 * the product is computed exactly in decimal, rounded to the nanosecond, and capped before it
 * is turned back into a {@code Duration}.
 * <p>
 * Public for core's sub-packages (the cooldowns and pacing in {@code core.protection}), not
 * for applications.
 *
 * @since 0.2.0
 */
public final class DurationMath {

	private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

	/** About 146 years: budgets and reserves clamped to it keep {@code budget - wait} a long. */
	public static final long DURATION_LIMIT_NANOS = 1L << 62;

	private DurationMath() {
	}

	/**
	 * {@code duration} in nanoseconds, saturated at {@code limit} either way rather than
	 * overflowing.
	 * @param duration any duration
	 * @param limit the largest magnitude returned, positive
	 * @return the nanoseconds, between {@code -limit} and {@code limit}
	 */
	public static long saturatedNanos(Duration duration, long limit) {
		if (duration.compareTo(Duration.ofNanos(limit)) >= 0) {
			return limit;
		}
		if (duration.compareTo(Duration.ofNanos(-limit)) <= 0) {
			return -limit;
		}
		return duration.toNanos();
	}

	/**
	 * {@code min(duration x factor, cap)}, rounded to the nanosecond.
	 * @param duration a non-negative duration
	 * @param factor a non-negative factor; {@code +Infinity} yields {@code cap} for a non-zero
	 * duration
	 * @param cap a non-negative upper bound
	 * @return the capped product
	 */
	public static Duration multiplyCapped(Duration duration, double factor, Duration cap) {
		if (duration.isZero() || factor == 0) {
			return min(Duration.ZERO, cap);
		}
		if (Double.isInfinite(factor)) {
			return cap;
		}
		BigDecimal product = seconds(duration).multiply(new BigDecimal(factor));
		if (product.compareTo(seconds(cap)) >= 0) {
			return cap;
		}
		// The cap has nanosecond scale and exceeds the product, so rounding cannot pass it.
		BigInteger[] parts = product.setScale(9, RoundingMode.HALF_EVEN)
			.unscaledValue()
			.divideAndRemainder(NANOS_PER_SECOND);
		return Duration.ofSeconds(parts[0].longValueExact(), parts[1].longValueExact());
	}

	private static BigDecimal seconds(Duration duration) {
		return BigDecimal.valueOf(duration.getSeconds()).add(BigDecimal.valueOf(duration.getNano(), 9));
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	/**
	 * Whole milliseconds, rounded up: a wait handed to a millisecond sleep must never be
	 * shorter than planned.
	 * @param delay a non-negative delay
	 * @return its milliseconds, rounded up
	 */
	public static long ceilMillis(Duration delay) {
		long millis = delay.toMillis();
		return (delay.minusMillis(millis).isZero()) ? millis : millis + 1;
	}

}
