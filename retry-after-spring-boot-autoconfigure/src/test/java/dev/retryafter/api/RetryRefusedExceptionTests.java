package dev.retryafter.api;

import java.time.Duration;

import dev.retryafter.core.StopReason;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryRefusedException}.
 */
class RetryRefusedExceptionTests {

	@Test
	void whenCreatedThenMessageNamesOriginReasonAndTimeLeft() {
		RetryRefusedException exception = new RetryRefusedException("http://127.0.0.1:8080", StopReason.COOLDOWN,
				Duration.ofMillis(1800));

		assertThat(exception).hasMessage("Request to http://127.0.0.1:8080 not sent: cooldown, 1.8s left");
		assertThat(exception.getOrigin()).isEqualTo("http://127.0.0.1:8080");
		assertThat(exception.getReason()).isEqualTo(StopReason.COOLDOWN);
		assertThat(exception.getTimeLeft()).isEqualTo(Duration.ofMillis(1800));
	}

	@Test
	void whenTimeLeftHasMoreDecimalsThenRoundedUp() {
		RetryRefusedException exception = new RetryRefusedException("https://api.example.com:443",
				StopReason.BUDGET_EXHAUSTED, Duration.ofMillis(1801));

		assertThat(exception)
			.hasMessage("Request to https://api.example.com:443 not sent: budget-exhausted, 1.9s left");
	}

	@Test
	void whenNoTimeLeftThenZero() {
		RetryRefusedException exception = new RetryRefusedException("http://127.0.0.1:8080",
				StopReason.BUDGET_EXHAUSTED, Duration.ZERO);

		assertThat(exception).hasMessage("Request to http://127.0.0.1:8080 not sent: budget-exhausted, 0.0s left");
	}

	@Test
	void whenTimeLeftIsNegativeThenZero() {
		RetryRefusedException exception = new RetryRefusedException("http://127.0.0.1:8080", StopReason.COOLDOWN,
				Duration.ofSeconds(-3));

		assertThat(exception.getTimeLeft()).isEqualTo(Duration.ZERO);
		assertThat(exception).hasMessage("Request to http://127.0.0.1:8080 not sent: cooldown, 0.0s left");
	}

	@Test
	void whenTimeLeftIsHugeThenFormattedWithoutOverflow() {
		RetryRefusedException exception = new RetryRefusedException("http://127.0.0.1:8080", StopReason.COOLDOWN,
				Duration.ofDays(36_500));

		assertThat(exception).hasMessage("Request to http://127.0.0.1:8080 not sent: cooldown, 3153600000.0s left");
	}

}
