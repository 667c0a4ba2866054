package dev.retryafter.benchmarks;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;

import dev.retryafter.core.header.DateReference;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.header.RetryAfterParser;
import org.apache.hc.client5.http.utils.DateUtils;

import org.springframework.http.HttpHeaders;

/**
 * The four ways of reading a {@code Retry-After} value that are compared. Ours is the
 * starter's parser. The peers only parse dates, so each is completed the way HttpClient 5's
 * {@code DefaultHttpRequestRetryStrategy} (and most hand-written code) does it:
 * {@link Long#parseLong(String)} first, the date parser when that fails. Every peer turns a
 * date into a delay against the same instant, with a past date giving zero, so only the parsing
 * differs.
 */
public enum RetryAfterPeers {

	/** {@code RetryAfterParser.parse} of this project. */
	OURS("retry-after (ours)") {
		@Override
		Verdict interpret(String value, Instant receivedAt) {
			RetryAfter parsed = RetryAfterParser.parse(List.of(value), receivedAt, null, DateReference.LOCAL_CLOCK);
			if (parsed instanceof RetryAfter.Delay delay) {
				return Verdict.delay(delay.delay());
			}
			return Verdict.invalid();
		}
	},

	/** {@link DateTimeFormatter#RFC_1123_DATE_TIME}. */
	JDK("JDK RFC_1123_DATE_TIME") {
		@Override
		Instant parseDate(String value) {
			try {
				return DateTimeFormatter.RFC_1123_DATE_TIME.parse(value, Instant::from);
			}
			catch (DateTimeException ex) {
				return null;
			}
		}
	},

	/** Spring's {@link HttpHeaders#getFirstDate(String)}. */
	SPRING("Spring HttpHeaders") {
		@Override
		Instant parseDate(String value) {
			HttpHeaders headers = new HttpHeaders();
			headers.set(HttpHeaders.RETRY_AFTER, value);
			try {
				return Instant.ofEpochMilli(headers.getFirstDate(HttpHeaders.RETRY_AFTER));
			}
			catch (IllegalArgumentException ex) {
				return null;
			}
		}
	},

	/** HttpClient 5's {@link DateUtils#parseStandardDate(String)}. */
	APACHE("HttpClient 5 DateUtils") {
		@Override
		Instant parseDate(String value) {
			return DateUtils.parseStandardDate(value);
		}
	};

	private final String label;

	RetryAfterPeers(String label) {
		this.label = label;
	}

	/**
	 * The name shown in result tables.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

	/**
	 * Reads one field value; never throws.
	 * @param value the field value
	 * @param receivedAt when the response was received
	 * @return what the value was read as
	 */
	public Verdict read(String value, Instant receivedAt) {
		try {
			return interpret(value, receivedAt);
		}
		catch (RuntimeException ex) {
			return Verdict.crash(ex);
		}
	}

	Verdict interpret(String value, Instant receivedAt) {
		try {
			return Verdict.delay(Duration.ofSeconds(Long.parseLong(value)));
		}
		catch (NumberFormatException ex) {
			Instant date = parseDate(value);
			if (date == null) {
				return Verdict.invalid();
			}
			Duration delay = Duration.between(receivedAt, date);
			return Verdict.delay(delay.isNegative() ? Duration.ZERO : delay);
		}
	}

	/**
	 * Parses an HTTP-date the peer's way.
	 * @param value the field value
	 * @return the instant, or {@code null} when the peer refuses the value
	 */
	Instant parseDate(String value) {
		throw new UnsupportedOperationException();
	}

}
