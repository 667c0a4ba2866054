package dev.retryafter.core.header;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The {@code delay-seconds} form of {@code Retry-After} (RFC 9110 section 10.2.3):
 * {@code delay-seconds = 1*DIGIT}, a non-negative decimal integer of ASCII digits only.
 * Values above {@link RetryAfter#MAX_DELAY} saturate to it, in one linear pass and without
 * overflow, however long the digit string.
 */
final class DelaySeconds {

	private static final long MAX_SECONDS = RetryAfter.MAX_DELAY.getSeconds();

	private DelaySeconds() {
	}

	/**
	 * Reads {@code text[from, to)} as delay-seconds.
	 * @param text the field value
	 * @param from the first character, inclusive
	 * @param to the last character, exclusive
	 * @return the delay in [0, MAX_DELAY], or {@code null} if the range is not one or more
	 * ASCII digits
	 */
	static @Nullable Duration parse(String text, int from, int to) {
		if (from >= to) {
			return null;
		}
		long seconds = 0;
		for (int i = from; i < to; i++) {
			char c = text.charAt(i);
			// Character.isDigit would accept non-ASCII digits such as U+0663; the grammar's DIGIT does not.
			if (c < '0' || c > '9') {
				return null;
			}
			// Once past the ceiling the value stays there, so it never overflows; the loop goes on
			// only to check that the remaining characters are digits.
			if (seconds <= MAX_SECONDS) {
				seconds = seconds * 10 + (c - '0');
			}
		}
		return Duration.ofSeconds(Math.min(seconds, MAX_SECONDS));
	}

}
