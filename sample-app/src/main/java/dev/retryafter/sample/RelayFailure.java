package dev.retryafter.sample;

import java.io.IOException;

import dev.retryafter.api.RetryFailures;
import dev.retryafter.core.StopReason;

import org.springframework.web.client.ResourceAccessException;

/**
 * The JSON body of a 502 answer: what went wrong and a stable, machine-readable reason.
 *
 * @param error a short description; the failure's own message, never the request URI (its
 * query string may hold secrets)
 * @param reason the stop reason of a refused request ({@code cooldown},
 * {@code budget-exhausted}, ...), {@code interrupted}, or the kind of I/O failure
 * ({@code connect-refused}, {@code connect-timeout}, {@code read-timeout},
 * {@code reset-after-send}, {@code unknown-host}, {@code tls-failure}, {@code other})
 */
record RelayFailure(String error, String reason) {

	static RelayFailure of(ResourceAccessException ex) {
		return ofFailure((ex.getCause() != null) ? ex.getCause() : ex);
	}

	static RelayFailure ofFailure(Throwable failure) {
		return new RelayFailure(describe(failure), reason(failure));
	}

	private static String describe(Throwable failure) {
		String message = failure.getMessage();
		return (message != null && !message.isBlank()) ? message : failure.getClass().getSimpleName();
	}

	private static String reason(Throwable failure) {
		if (!(failure instanceof IOException io)) {
			return "error";
		}
		return RetryFailures.stopReason(io)
			.map(StopReason::tagValue)
			.orElseGet(() -> RetryFailures.ioFailureKind(io).tagValue());
	}

}
