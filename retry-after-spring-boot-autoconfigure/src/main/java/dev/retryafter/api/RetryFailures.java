package dev.retryafter.api;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Optional;

import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.StopReason;

/**
 * Tells a caller why a call through the retries failed with an {@link IOException} (in a
 * {@code RestClient} or {@code RestTemplate}, the cause of a
 * {@code ResourceAccessException}), in the vocabulary of the meters and log lines:
 * <ul>
 * <li>the retries refused to send the request: {@link RetryRefusedException}, whose
 * {@link RetryRefusedException#getReason() reason} says why (e.g. {@code cooldown});</li>
 * <li>the thread was interrupted while waiting: a {@link RetryInterruptedException} (an
 * {@code InterruptedIOException}), the thread's interrupt flag restored, reported as
 * {@link StopReason#INTERRUPTED};</li>
 * <li>otherwise the transport failed, and {@link #ioFailureKind(IOException)} says how.</li>
 * </ul>
 *
 * @since 0.1.0
 */
public final class RetryFailures {

	private RetryFailures() {
	}

	/**
	 * Why the retries ended a call without a response, when they did.
	 * @param failure the failure the call ended with
	 * @return the refusal's reason, {@link StopReason#INTERRUPTED} for an interrupted wait,
	 * or empty when the failure came from the transport or elsewhere
	 */
	public static Optional<StopReason> stopReason(Throwable failure) {
		if (failure instanceof RetryRefusedException refused) {
			return Optional.of(refused.getReason());
		}
		// Ours, or a plain one a transport threw for an interrupted thread; its other
		// subclasses (socket and HTTP timeouts) are transport failures.
		if (failure instanceof RetryInterruptedException || failure.getClass() == InterruptedIOException.class) {
			return Optional.of(StopReason.INTERRUPTED);
		}
		return Optional.empty();
	}

	/**
	 * What kind of I/O failure a transport reported, as the retries classified it to decide
	 * whether the request may have reached the server.
	 * @param failure the transport's failure
	 * @return the kind; {@link IoFailureKind#OTHER} when not recognised
	 */
	public static IoFailureKind ioFailureKind(IOException failure) {
		return IoFailures.classify(failure);
	}

}
