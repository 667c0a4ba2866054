package dev.retryafter.call;

import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.header.RateLimitParser;
import dev.retryafter.core.header.RateLimitReading;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.header.RetryAfterParser;
import dev.retryafter.core.header.ServerHints;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * What a response tells a call before anything in it is parsed: its outcome, one shared
 * instance per status for the common case without {@code Retry-After}, and whether it has
 * that field at all (public for the adapters, not for applications).
 *
 * @since 0.1.0
 */
public final class ResponseOutcomes {

	// Lower case: header maps are case-insensitive, and Spring's lower-cases the name of each
	// lookup, which costs nothing (no new string) for a name that is lower case already.
	static final String RETRY_AFTER = "retry-after";

	// HttpStatusCode's range: 100 to 999.
	private static final AttemptOutcome.Response[] ABSENT_BY_STATUS = new AttemptOutcome.Response[1000];

	private ResponseOutcomes() {
	}

	/**
	 * The outcome of a response, shared for the common case of a status without a
	 * {@code Retry-After} field (outcomes are values: an equal one is as good).
	 * @param status the response status
	 * @param retryAfter its parsed {@code Retry-After} field
	 * @return the outcome
	 */
	public static AttemptOutcome.Response outcome(int status, RetryAfter retryAfter) {
		if (retryAfter != RetryAfter.ABSENT || status < 0 || status >= ABSENT_BY_STATUS.length) {
			return new AttemptOutcome.Response(status, retryAfter);
		}
		// Filled racily: a record's fields are final, so any thread sees a complete instance,
		// and two threads that both build one build equal ones.
		AttemptOutcome.Response outcome = ABSENT_BY_STATUS[status];
		if (outcome == null) {
			outcome = new AttemptOutcome.Response(status, RetryAfter.ABSENT);
			ABSENT_BY_STATUS[status] = outcome;
		}
		return outcome;
	}

	/**
	 * The outcome of a response with its retry hints.
	 * @param status the response status
	 * @param retryAfter its {@code Retry-After}, combined with a millisecond hint
	 * @param hints its hints
	 * @return the outcome
	 */
	public static AttemptOutcome.Response outcome(int status, RetryAfter retryAfter, ServerHints hints) {
		return (hints == ServerHints.NONE) ? outcome(status, retryAfter)
				: new AttemptOutcome.Response(status, retryAfter, hints);
	}

	/**
	 * The retry hints of a refusal (millisecond hints, verdicts, a spent quota and, when its
	 * quota fields say one is spent, when it resets). Read only for error statuses, so a
	 * success never pays for the quota parse here.
	 * @param headers the response headers
	 * @param settings the client's settings
	 * @param receivedAt the instant a reset sent as a time is measured from, asked only when a
	 * quota field is present (the wall clock is not read for a refusal without one)
	 * @return the hints
	 */
	public static ServerHints hints(HttpHeaders headers, RetrySettings settings, Supplier<Instant> receivedAt) {
		ServerHints hints = ServerHints.read(headers::getFirst, settings.header().millisecondHints(),
				settings.header().serverVerdicts());
		if (!settings.rateLimit().active() || !announcesQuota(headers, settings)) {
			return hints;
		}
		RateLimitReading reading = RateLimitParser.parse(headers::get, settings.rateLimit().fields(),
				receivedAt.get());
		return (reading != null && reading.remaining() == 0) ? hints.withSpentQuota(reading.resetIn()) : hints;
	}

	private static boolean announcesQuota(HttpHeaders headers, RetrySettings settings) {
		return RateLimitFieldReader.announces(headers, settings.rateLimit().fields());
	}

	/**
	 * Whether a response carries any field that can make an error status retryable or set a
	 * wait: {@code Retry-After}, a millisecond hint or a verdict. Looked at only for an error
	 * status the settings would not retry, so a success costs nothing more.
	 * @param headers the response headers
	 * @return whether such a field is there
	 */
	public static boolean hasRetryHints(HttpHeaders headers) {
		return hasRetryAfter(headers) || headers.containsHeader(ServerHints.RETRY_AFTER_MS)
				|| headers.containsHeader(ServerHints.X_MS_RETRY_AFTER_MS)
				|| headers.containsHeader(ServerHints.X_SHOULD_RETRY)
				|| headers.containsHeader(ServerHints.STRIPE_SHOULD_RETRY);
	}

	/**
	 * Whether a response has a {@code Retry-After} field at all, without parsing it.
	 * @param headers the response headers
	 * @return whether the field is there
	 */
	public static boolean hasRetryAfter(HttpHeaders headers) {
		List<String> fieldLines = headers.get(RETRY_AFTER);
		return fieldLines != null && !fieldLines.isEmpty();
	}

	/**
	 * The outcome of a response a retry library reports inside an exception (Spring's
	 * {@code RestClientResponseException}, {@code WebClientResponseException}), its
	 * {@code Retry-After} read as the client adapters read it.
	 * @param status the response status
	 * @param headers the response headers, or {@code null} when the exception kept none
	 * @param settings the client's settings (the HTTP-date reference)
	 * @param receivedAt the instant an HTTP-date is measured from
	 * @return the outcome
	 */
	public static AttemptOutcome.Response outcome(int status, @Nullable HttpHeaders headers, RetrySettings settings,
			Instant receivedAt) {
		if (headers == null) {
			return outcome(status, RetryAfter.ABSENT);
		}
		ServerHints hints = (status >= 400) ? hints(headers, settings, () -> receivedAt) : ServerHints.NONE;
		RetryAfter retryAfter = !hasRetryAfter(headers) ? RetryAfter.ABSENT
				: RetryAfterParser.parse(headers.getOrEmpty(RETRY_AFTER), receivedAt,
						headers.getFirst(HttpHeaders.DATE), settings.header().dateReference());
		return outcome(status, ServerHints.combine(retryAfter, hints), hints);
	}

}
