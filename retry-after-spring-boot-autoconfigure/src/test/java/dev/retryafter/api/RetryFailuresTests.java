package dev.retryafter.api;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;

import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.StopReason;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryFailures}: the caller's view of a failed call.
 */
class RetryFailuresTests {

	@Test
	void whenRefusedThenStopReasonIsTheRefusalReason() {
		assertThat(RetryFailures.stopReason(
				new RetryRefusedException("http://127.0.0.1:8080", StopReason.COOLDOWN, Duration.ofSeconds(2))))
			.contains(StopReason.COOLDOWN);
	}

	@Test
	void whenWaitWasInterruptedThenStopReasonIsInterrupted() {
		assertThat(RetryFailures.stopReason(new InterruptedIOException("interrupted")))
			.contains(StopReason.INTERRUPTED);
	}

	@Test
	void whenTheRetriesWereInterruptedThenTheTypedExceptionSaysSo() {
		RetryInterruptedException interrupted = new RetryInterruptedException("Retry of GET interrupted",
				new InterruptedException("stop"));
		assertThat(RetryFailures.stopReason(interrupted)).contains(StopReason.INTERRUPTED);
		assertThat(interrupted).isInstanceOf(InterruptedIOException.class)
			.hasCauseInstanceOf(InterruptedException.class);
	}

	@Test
	void whenTransportTimedOutThenThereIsNoStopReasonAndTheKindIsReadTimeout() {
		SocketTimeoutException timeout = new SocketTimeoutException("Read timed out");
		assertThat(RetryFailures.stopReason(timeout)).isEmpty();
		assertThat(RetryFailures.ioFailureKind(timeout)).isEqualTo(IoFailureKind.READ_TIMEOUT);
	}

	@Test
	void whenConnectionRefusedThenKindIsConnectRefused() {
		ConnectException refused = new ConnectException("Connection refused");
		assertThat(RetryFailures.stopReason(refused)).isEmpty();
		assertThat(RetryFailures.ioFailureKind(refused)).isEqualTo(IoFailureKind.CONNECT_REFUSED);
	}

	@Test
	void whenNotAnIoFailureThenThereIsNoStopReason() {
		assertThat(RetryFailures.stopReason(new IllegalStateException("boom"))).isEmpty();
		assertThat(RetryFailures.ioFailureKind(new IOException("odd"))).isEqualTo(IoFailureKind.OTHER);
	}

}
