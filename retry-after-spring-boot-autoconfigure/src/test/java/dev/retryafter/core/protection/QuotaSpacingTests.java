package dev.retryafter.core.protection;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link QuotaSpacing}.
 */
class QuotaSpacingTests {

	@Test
	void whenADurationIsNegativeThenItIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new QuotaSpacing(Duration.ofMillis(-1), Duration.ZERO, Duration.ZERO));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new QuotaSpacing(Duration.ZERO, Duration.ofMillis(-1), Duration.ZERO));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new QuotaSpacing(Duration.ZERO, Duration.ZERO, Duration.ofMillis(-1)));
	}

	@Test
	void whenEitherIntervalIsKnownThenThereIsSpacing() {
		assertThat(QuotaSpacing.NONE.isNone()).isTrue();
		assertThat(new QuotaSpacing(Duration.ZERO, Duration.ofMillis(100), Duration.ZERO).isNone()).isFalse();
		assertThat(new QuotaSpacing(Duration.ofMillis(100), Duration.ZERO, Duration.ofSeconds(1)).isNone()).isFalse();
	}

	@Test
	void whenTheLogHasEntriesAndASpanThenSlotsAreCountedInIt() {
		assertThat(new QuotaSpacing(Duration.ZERO, Duration.ofMillis(100), Duration.ZERO, 20, Duration.ofSeconds(2))
			.logs()).isTrue();
		assertThat(new QuotaSpacing(Duration.ZERO, Duration.ofMillis(100), Duration.ZERO).logs()).isFalse();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new QuotaSpacing(Duration.ZERO, Duration.ZERO, Duration.ZERO, -1, Duration.ZERO));
		assertThatIllegalArgumentException().isThrownBy(
				() -> new QuotaSpacing(Duration.ZERO, Duration.ZERO, Duration.ZERO, 1, Duration.ofSeconds(-1)));
	}

}
