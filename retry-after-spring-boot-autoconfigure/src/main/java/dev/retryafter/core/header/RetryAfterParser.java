package dev.retryafter.core.header;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Parses the {@code Retry-After} field (RFC 9110 section 10.2.3) into a {@link RetryAfter}.
 * A pure function: no clock reads, no I/O, linear time in the input, never throws on any
 * field value.
 * <p>
 * {@code Retry-After = HTTP-date / delay-seconds}, after leading and trailing OWS (SP, HTAB)
 * is removed. A value is valid only if all of it is one {@code delay-seconds} or one
 * {@code HTTP-date} (see {@code HttpDate} for the exact date rules), so a list such as
 * {@code 1, 2} is invalid, and so is more than one field line: the field is a singleton.
 * Delays above {@link RetryAfter#MAX_DELAY} saturate to it; a date in the past is a delay
 * of zero.
 *
 * @since 0.1.0
 */
public final class RetryAfterParser {

	static final String MULTIPLE_FIELD_LINES = "multiple Retry-After field lines";

	static final String MISSING_VALUE = "missing value";

	static final String EMPTY_VALUE = "empty value";

	static final String NOT_DELAY_OR_DATE = "not delay-seconds or an HTTP-date";

	static final String IMPOSSIBLE_DATE = "impossible date";

	private RetryAfterParser() {
	}

	/**
	 * Parses the {@code Retry-After} field lines of one response.
	 * <p>
	 * An HTTP-date becomes the time from the reference to that date: the reference is the
	 * response's {@code Date} field when {@code dateReference} is
	 * {@link DateReference#SERVER_DATE} and that field is a valid HTTP-date (so that a skewed
	 * client or server clock does not distort the delay), else {@code receivedAt}.
	 * @param fieldValues every {@code Retry-After} field line of the response, in order; empty
	 * when the field is absent; a {@code null} element is invalid
	 * @param receivedAt the wall-clock instant the response was received
	 * @param dateField the response's {@code Date} field value, or {@code null}
	 * @param dateReference what an HTTP-date is measured against
	 * @return the parsed field: a {@link RetryAfter.Delay} in [0, MAX_DELAY],
	 * {@link RetryAfter#ABSENT}, or {@link RetryAfter.Invalid} whose reason never quotes the
	 * value
	 */
	public static RetryAfter parse(List<String> fieldValues, Instant receivedAt, @Nullable String dateField,
			DateReference dateReference) {
		Objects.requireNonNull(fieldValues, "fieldValues");
		Objects.requireNonNull(receivedAt, "receivedAt");
		Objects.requireNonNull(dateReference, "dateReference");
		if (fieldValues.isEmpty()) {
			return RetryAfter.ABSENT;
		}
		if (fieldValues.size() > 1) {
			return new RetryAfter.Invalid(MULTIPLE_FIELD_LINES);
		}
		String value = fieldValues.get(0);
		if (value == null) {
			return new RetryAfter.Invalid(MISSING_VALUE);
		}
		int start = skipLeadingOws(value);
		int end = skipTrailingOws(value, start);
		if (start == end) {
			return new RetryAfter.Invalid(EMPTY_VALUE);
		}
		Duration seconds = DelaySeconds.parse(value, start, end);
		if (seconds != null) {
			return new RetryAfter.Delay(seconds, RetryAfter.Form.SECONDS);
		}
		HttpDate.Result date = HttpDate.parse(value, start, end, receivedAt);
		if (date instanceof HttpDate.Parsed parsed) {
			HttpDate.Parsed serverDate = serverDate(dateField, dateReference, receivedAt);
			return new RetryAfter.Delay(delayUntil(parsed, receivedAt, serverDate), RetryAfter.Form.DATE);
		}
		return new RetryAfter.Invalid((date == HttpDate.Rejected.IMPOSSIBLE) ? IMPOSSIBLE_DATE : NOT_DELAY_OR_DATE);
	}

	private static HttpDate.@Nullable Parsed serverDate(@Nullable String dateField, DateReference dateReference,
			Instant receivedAt) {
		if (dateReference != DateReference.SERVER_DATE || dateField == null) {
			return null;
		}
		int start = skipLeadingOws(dateField);
		HttpDate.Result date = HttpDate.parse(dateField, start, skipTrailingOws(dateField, start), receivedAt);
		return (date instanceof HttpDate.Parsed parsed) ? parsed : null;
	}

	private static Duration delayUntil(HttpDate.Parsed date, Instant receivedAt, HttpDate.@Nullable Parsed serverDate) {
		// Seconds since the epoch stay far inside long range on both sides (an HTTP-date is at
		// most a century beyond Instant's range), so the subtraction cannot overflow.
		Duration delay = (serverDate != null) ? Duration.ofSeconds(date.epochSecond() - serverDate.epochSecond())
				: Duration.ofSeconds(date.epochSecond() - receivedAt.getEpochSecond(), -receivedAt.getNano());
		if (delay.isNegative()) {
			return Duration.ZERO;
		}
		return (delay.compareTo(RetryAfter.MAX_DELAY) > 0) ? RetryAfter.MAX_DELAY : delay;
	}

	// Package-private: every field parser of the core trims OWS the same way.
	static int skipLeadingOws(String value) {
		int start = 0;
		while (start < value.length() && isOws(value.charAt(start))) {
			start++;
		}
		return start;
	}

	static int skipTrailingOws(String value, int start) {
		int end = value.length();
		while (end > start && isOws(value.charAt(end - 1))) {
			end--;
		}
		return end;
	}

	// OWS = *( SP / HTAB ), RFC 9110 section 5.6.3: no other whitespace.
	private static boolean isOws(char c) {
		return c == ' ' || c == '\t';
	}

}
