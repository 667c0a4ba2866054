package dev.retryafter.frameworkretry;

import java.io.IOException;
import java.time.Instant;

import dev.retryafter.api.IoFailures;
import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.call.ResponseOutcomes;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.CauseChain;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.RetrySettings;
import org.jspecify.annotations.Nullable;

import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClientResponseException;

/**
 * Reads what a blocking HTTP call threw as the planner's {@link AttemptOutcome}: an error
 * response ({@link RestClientResponseException}, with its {@code Retry-After}) or an I/O
 * failure ({@link ResourceAccessException} around an {@link IOException}). The cause chain is
 * searched, at most 16 deep, so a failure wrapped by application code is still seen.
 */
final class HttpFailures {

	private HttpFailures() {
	}

	/**
	 * The outcome behind a failure.
	 * @param failure what the call threw
	 * @param settings the settings (for the {@code Date} reference of an HTTP-date)
	 * @param receivedAt the instant an HTTP-date is measured from
	 * @return the outcome, or {@code null} when the failure is not an HTTP one
	 */
	static @Nullable AttemptOutcome outcome(Throwable failure, RetrySettings settings, Instant receivedAt) {
		for (Throwable candidate : CauseChain.of(failure)) {
			if (candidate instanceof RestClientResponseException response) {
				return ResponseOutcomes.outcome(response.getStatusCode().value(), response.getResponseHeaders(),
						settings, receivedAt);
			}
			if (candidate instanceof ResourceAccessException access) {
				IoFailureKind kind = IoFailures.classifyCause(access);
				return new AttemptOutcome.IoFailure((kind != null) ? kind : IoFailureKind.OTHER);
			}
		}
		return null;
	}

	/**
	 * The status of the error response behind a failure.
	 * @param failure what the call threw
	 * @return the status, or {@code -1} when the failure holds no error response
	 */
	static int status(Throwable failure) {
		RestClientResponseException response = CauseChain.find(failure, RestClientResponseException.class);
		return (response != null) ? response.getStatusCode().value() : -1;
	}

	/**
	 * The refusal behind a failure: the client adapter did not send the request, for
	 * example because its origin is cooling down.
	 * @param failure what the call threw
	 * @return the refusal, or {@code null}
	 */
	static @Nullable RetryRefusedException refusal(Throwable failure) {
		return CauseChain.find(failure, RetryRefusedException.class);
	}

}
