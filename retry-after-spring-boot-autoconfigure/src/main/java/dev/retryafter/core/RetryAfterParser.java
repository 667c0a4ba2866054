package dev.retryafter.core;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Parses the {@code Retry-After} field (RFC 9110 section 10.2.3) into a {@link RetryAfter}.
 * A pure function: no clock reads, no I/O, linear time in the input, never throws on any
 * field value.
 *
 * @since 0.1.0
 */
public final class RetryAfterParser {

	private RetryAfterParser() {
	}

	/**
	 * Parses the {@code Retry-After} field lines of one response.
	 * @param fieldValues every {@code Retry-After} field line of the response, in order; empty
	 * when the field is absent
	 * @param receivedAt the wall-clock instant the response was received
	 * @param dateField the response's {@code Date} field value, or {@code null}
	 * @param dateReference what an HTTP-date is measured against
	 * @return the parsed field
	 */
	public static RetryAfter parse(List<String> fieldValues, Instant receivedAt, @Nullable String dateField,
			DateReference dateReference) {
		throw new UnsupportedOperationException("not implemented yet");
	}

}
