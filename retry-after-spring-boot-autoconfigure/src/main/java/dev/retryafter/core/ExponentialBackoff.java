package dev.retryafter.core;

import java.time.Duration;
import java.util.Objects;

/**
 * Local exponential backoff, used when the server gave no usable delay: the wait before retry {@code n} is
 * {@code initial x multiplier^(n - 1)}, capped at {@code max}. Retry 1 follows attempt 1.
 * <p>
 * Pure and overflow-safe: any retry number (up to {@link Integer#MAX_VALUE}), any multiplier
 * the settings allow and any {@code Duration} cap give the capped value, never an
 * {@link ArithmeticException}.
 *
 * @since 0.1.0
 */
public final class ExponentialBackoff {

	private ExponentialBackoff() {
	}

	/**
	 * The local backoff before a retry.
	 * @param backoff the backoff settings
	 * @param retry the retry number, 1 for the retry after the first attempt
	 * @return {@code min(initial x multiplier^(retry - 1), max)}, exact to the nanosecond
	 * @throws IllegalArgumentException if {@code retry < 1}
	 */
	public static Duration forRetry(RetrySettings.Backoff backoff, int retry) {
		Objects.requireNonNull(backoff, "backoff");
		if (retry < 1) {
			throw new IllegalArgumentException("retry must be at least 1: " + retry);
		}
		// Math.pow is exact for the usual power-of-two multiplier and saturates to +Infinity
		// (never NaN, since multiplier >= 1) long before the exponent could matter.
		double factor = Math.pow(backoff.multiplier(), retry - 1);
		return DurationMath.multiplyCapped(backoff.initial(), factor, backoff.max());
	}

}
