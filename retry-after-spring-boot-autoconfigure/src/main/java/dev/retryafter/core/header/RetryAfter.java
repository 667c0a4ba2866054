package dev.retryafter.core.header;

import java.time.Duration;
import java.util.Objects;

/**
 * Result of parsing a response's {@code Retry-After} field (RFC 9110 section 10.2.3): a
 * {@link Delay}, {@link Absent} or {@link Invalid}. Never a sentinel number.
 *
 * @since 0.1.0
 */
public sealed interface RetryAfter permits RetryAfter.Delay, RetryAfter.Absent, RetryAfter.Invalid {

	/**
	 * Ceiling every parsed delay saturates to (about 100 years). Any value at or above it is
	 * longer than any cap a client may configure, and its nanosecond count still fits in a
	 * {@code long} twice over, so monotonic-clock arithmetic on it cannot overflow.
	 */
	Duration MAX_DELAY = Duration.ofDays(36_500);

	/** The field was not present. */
	Absent ABSENT = new Absent();

	/**
	 * Which of the two RFC 9110 forms a delay came from.
	 */
	enum Form {

		/** {@code delay-seconds}: a non-negative decimal integer. */
		SECONDS,

		/** {@code HTTP-date}: an absolute time, turned into a delay. */
		DATE,

		/** A millisecond hint ({@code retry-after-ms}, {@code x-ms-retry-after-ms}). */
		MILLIS,

		/** The reset of a quota the response announced spent, read from its quota fields. */
		QUOTA_RESET

	}

	/**
	 * A usable delay.
	 *
	 * @param delay the delay measured from the time the response was received, between zero
	 * and {@link #MAX_DELAY} inclusive
	 * @param form the form it was given in
	 */
	record Delay(Duration delay, Form form) implements RetryAfter {

		public Delay {
			Objects.requireNonNull(delay, "delay");
			Objects.requireNonNull(form, "form");
			if (delay.isNegative() || delay.compareTo(MAX_DELAY) > 0) {
				throw new IllegalArgumentException("delay must be between 0 and MAX_DELAY: " + delay);
			}
		}

		/**
		 * Whether the value was too large to represent and was saturated to
		 * {@link #MAX_DELAY}.
		 * @return whether the delay is saturated
		 */
		public boolean saturated() {
			return this.delay.equals(MAX_DELAY);
		}

	}

	/**
	 * No {@code Retry-After} field was present.
	 */
	record Absent() implements RetryAfter {
	}

	/**
	 * A {@code Retry-After} field was present but is not a valid value.
	 *
	 * @param why a short, header-value-free explanation (safe to log)
	 */
	record Invalid(String why) implements RetryAfter {

		public Invalid {
			Objects.requireNonNull(why, "why");
		}

	}

}
