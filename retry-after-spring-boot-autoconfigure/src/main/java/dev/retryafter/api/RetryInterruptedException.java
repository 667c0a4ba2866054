package dev.retryafter.api;

import java.io.InterruptedIOException;

/**
 * Thrown when the calling thread is interrupted while a request waits before a retry or is
 * held by a cooldown: the wait stops at once, nothing more is sent, and the thread's
 * interrupt flag is set again. The message says which wait it was and for which origin; the
 * cause is the {@link InterruptedException}. A {@code RestClient} or {@code RestTemplate}
 * wraps it in a {@code ResourceAccessException}, like every I/O failure.
 * <p>
 * It is an {@link InterruptedIOException}, as an interrupted blocking I/O call throws, so
 * code that already handles those keeps working; {@link RetryFailures#stopReason} tells it
 * apart from a transport timeout (which is an {@code InterruptedIOException} too).
 *
 * @since 0.2.0
 */
public class RetryInterruptedException extends InterruptedIOException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the exception.
	 * @param message which wait was interrupted, for which origin
	 * @param cause the interruption
	 */
	public RetryInterruptedException(String message, InterruptedException cause) {
		super(message);
		initCause(cause);
	}

}
