package dev.retryafter.test;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link VirtualRetryTime}: the clocks stand still until something waits, and then move on
 * together by exactly the wait.
 */
class VirtualRetryTimeTests {

	private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

	private final VirtualRetryTime time = new VirtualRetryTime(START);

	@Test
	void aSleepReturnsAtOnceHavingMovedBothClocksOnByTheWait() throws InterruptedException {
		long nanos = this.time.monotonicClock().nanoTime();

		this.time.sleeper().sleep(Duration.ofSeconds(30));

		assertThat(this.time.monotonicClock().nanoTime() - nanos).isEqualTo(Duration.ofSeconds(30).toNanos());
		assertThat(this.time.wallClock().instant()).isEqualTo(START.plusSeconds(30));
		assertThat(this.time.elapsed()).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void theClocksDoNotMoveByThemselves() {
		long nanos = this.time.monotonicClock().nanoTime();

		assertThat(this.time.monotonicClock().nanoTime()).isEqualTo(nanos);
		assertThat(this.time.wallClock().instant()).isEqualTo(START);
	}

	@Test
	void waitsAndAdvancesAddUp() throws InterruptedException {
		this.time.sleeper().sleep(Duration.ofMillis(1500));
		this.time.advance(Duration.ofSeconds(10));
		this.time.sleeper().sleep(Duration.ZERO);

		assertThat(this.time.elapsed()).isEqualTo(Duration.ofMillis(11500));
		assertThat(this.time.wallClock().instant()).isEqualTo(START.plusMillis(11500));
	}

	@Test
	void aPendingInterruptEndsTheWaitBeforeItBeginsAsARealSleepWould() {
		Thread.currentThread().interrupt();

		assertThatExceptionOfType(InterruptedException.class)
			.isThrownBy(() -> this.time.sleeper().sleep(Duration.ofSeconds(30)));

		assertThat(this.time.elapsed()).isZero();
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

	@Test
	void timeOnlyMovesForward() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.time.advance(Duration.ofSeconds(-1)));
	}

	@Test
	void anEnormousWaitSaturatesInsteadOfOverflowing() throws InterruptedException {
		long nanos = this.time.monotonicClock().nanoTime();

		this.time.sleeper().sleep(Duration.ofDays(365L * 1000));
		this.time.advance(Duration.ofDays(365L * 1000));

		assertThat(this.time.monotonicClock().nanoTime()).isGreaterThan(nanos).isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void theSameClocksAndSleeperEveryTime() {
		assertThat(this.time.monotonicClock()).isSameAs(this.time.monotonicClock());
		assertThat(this.time.wallClock()).isSameAs(this.time.wallClock());
		assertThat(this.time.sleeper()).isSameAs(this.time.sleeper());
	}

}
