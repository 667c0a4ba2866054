package dev.retryafter.sample;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;

import org.springframework.web.client.ResourceAccessException;

/**
 * The JSON body of a 502 answer: what went wrong and a stable, machine-readable reason.
 *
 * @param error a short description; the failure's own message, never the request URI (its
 * query string may hold secrets)
 * @param reason for example {@code connect-refused}, {@code read-timeout}, {@code cooldown}
 * or {@code interrupted}
 */
record RelayFailure(String error, String reason) {

	static RelayFailure of(ResourceAccessException ex) {
		Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
		return new RelayFailure(describe(cause), reason(cause));
	}

	private static String describe(Throwable failure) {
		String message = failure.getMessage();
		return (message != null && !message.isBlank()) ? message : failure.getClass().getSimpleName();
	}

	private static String reason(Throwable failure) {
		if (failure instanceof HttpConnectTimeoutException) {
			return "connect-timeout";
		}
		if (failure instanceof ConnectException) {
			return "connect-refused";
		}
		if (failure instanceof UnknownHostException) {
			return "unknown-host";
		}
		if (failure instanceof SocketTimeoutException || failure instanceof HttpTimeoutException) {
			return "read-timeout";
		}
		if (failure instanceof InterruptedIOException) {
			return "interrupted";
		}
		return (failure instanceof IOException) ? "io-error" : "error";
	}

}
