package dev.retryafter.sample;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Locale;

import dev.retryafter.client.IoFailures;
import dev.retryafter.client.RetryRefusedException;

import org.springframework.web.client.ResourceAccessException;

/**
 * The JSON body of a 502 answer: what went wrong and a stable, machine-readable reason.
 *
 * @param error a short description; the failure's own message, never the request URI (its
 * query string may hold secrets)
 * @param reason the stop reason of a refused request ({@code cooldown},
 * {@code budget-exhausted}, ...), {@code interrupted}, or the kind of I/O failure
 * ({@code connect-refused}, {@code connect-timeout}, {@code read-timeout},
 * {@code reset-after-send}, {@code unknown-host}, {@code other})
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
		if (failure instanceof RetryRefusedException refused) {
			return refused.getReason().tagValue();
		}
		// The interceptor reports an interrupted wait as a plain InterruptedIOException;
		// its subclasses (socket timeouts) are transport failures, classified below.
		if (failure.getClass() == InterruptedIOException.class) {
			return "interrupted";
		}
		if (failure instanceof IOException io) {
			return IoFailures.classify(io).name().toLowerCase(Locale.ROOT).replace('_', '-');
		}
		return "error";
	}

}
