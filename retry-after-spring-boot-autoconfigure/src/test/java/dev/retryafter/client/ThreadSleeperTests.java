package dev.retryafter.client;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ThreadSleeper}. No test waits: only zero waits and interrupted threads.
 */
class ThreadSleeperTests {

	@AfterEach
	void clearInterrupt() {
		Thread.interrupted();
	}

	@Test
	void whenDurationFitsThenExactNanos() {
		assertThat(ThreadSleeper.toNanosSaturated(Duration.ofMillis(1500))).isEqualTo(1_500_000_000L);
	}

	@Test
	void whenDurationIsTooLongForNanosThenSaturated() {
		assertThat(ThreadSleeper.toNanosSaturated(Duration.ofDays(365L * 1000))).isEqualTo(Long.MAX_VALUE);
		assertThat(ThreadSleeper.toNanosSaturated(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void whenDurationIsNegativeThenZero() {
		assertThat(ThreadSleeper.toNanosSaturated(Duration.ofSeconds(-1))).isZero();
	}

	@Test
	void whenInterruptedBeforeAZeroWaitThenThrows() {
		Thread.currentThread().interrupt();

		assertThatExceptionOfType(InterruptedException.class)
			.isThrownBy(() -> new ThreadSleeper().sleep(Duration.ZERO));
	}

	@Test
	void whenInterruptedBeforeALongWaitThenThrowsAtOnce() {
		Thread.currentThread().interrupt();

		assertThatExceptionOfType(InterruptedException.class)
			.isThrownBy(() -> new ThreadSleeper().sleep(Duration.ofDays(36_500)));
	}

	@Test
	void whenZeroWaitThenReturns() throws InterruptedException {
		new ThreadSleeper().sleep(Duration.ZERO);

		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

}
