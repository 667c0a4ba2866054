package dev.retryafter.reactive;

import java.io.IOException;

import dev.retryafter.call.IoFailures;
import dev.retryafter.core.IoFailureKind;
import org.jspecify.annotations.Nullable;

/**
 * Classifies the error of a reactive exchange. {@code WebClient} reports transport failures
 * as a {@code WebClientRequestException} around the connector's exception, so the first
 * {@link IOException} in the cause chain is classified as the blocking adapter classifies it
 * ({@link IoFailures}). Reactor Netty's response timeout is Netty's
 * {@code ReadTimeoutException}, which is no {@link IOException}: it is a read timeout, matched
 * by class name so that Netty stays optional. Any other error (a codec or programming error)
 * is not an I/O failure and reaches the caller unchanged, without a retry.
 */
final class ExchangeFailures {

	private static final String NETTY_READ_TIMEOUT = "io.netty.handler.timeout.ReadTimeoutException";

	private static final int MAX_DEPTH = 32;

	private ExchangeFailures() {
	}

	/**
	 * Classifies {@code error}.
	 * @param error what the exchange emitted
	 * @return the kind of I/O failure, or {@code null} if it is not one
	 */
	static @Nullable IoFailureKind classify(Throwable error) {
		Throwable current = error;
		for (int depth = 0; current != null && depth < MAX_DEPTH; depth++) {
			if (current instanceof IOException io) {
				return IoFailures.classify(io);
			}
			if (NETTY_READ_TIMEOUT.equals(current.getClass().getName())) {
				return IoFailureKind.READ_TIMEOUT;
			}
			current = (current.getCause() != current) ? current.getCause() : null;
		}
		return null;
	}

}
