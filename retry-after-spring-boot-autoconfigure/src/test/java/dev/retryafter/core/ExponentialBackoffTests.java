package dev.retryafter.core;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ExponentialBackoff}.
 */
class ExponentialBackoffTests {

	private static final RetrySettings.Backoff DEFAULTS = RetrySettings.defaults().backoff();

	/** The largest value a {@code Duration} can hold. */
	private static final Duration LONGEST = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);

	@ParameterizedTest
	@CsvSource({ "1, PT1S", "2, PT2S", "3, PT4S", "4, PT8S", "5, PT8S", "64, PT8S", "1025, PT8S",
			"2147483647, PT8S" })
	void whenDefaultsThenDoublesFromOneSecondUpToEightSeconds(int retry, Duration expected) {
		assertThat(ExponentialBackoff.forRetry(DEFAULTS, retry)).isEqualTo(expected);
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 2, 1000, Integer.MAX_VALUE })
	void whenMultiplierIsOneThenEveryRetryWaitsInitial(int retry) {
		RetrySettings.Backoff backoff = new RetrySettings.Backoff(Duration.ofMillis(250), 1.0, Duration.ofSeconds(8));
		assertThat(ExponentialBackoff.forRetry(backoff, retry)).isEqualTo(Duration.ofMillis(250));
	}

	@ParameterizedTest
	@CsvSource({ "1, PT0.1S", "2, PT0.15S", "3, PT0.225S", "4, PT0.3375S", "5, PT0.50625S", "6, PT0.759375S" })
	void whenMultiplierIsFractionalThenResultIsExactToTheNanosecond(int retry, Duration expected) {
		RetrySettings.Backoff backoff = new RetrySettings.Backoff(Duration.ofMillis(100), 1.5, Duration.ofSeconds(8));
		assertThat(ExponentialBackoff.forRetry(backoff, retry)).isEqualTo(expected);
	}

	@ParameterizedTest
	@CsvSource({ "1, PT0.1S", "2, PT0.3S", "3, PT0.9S", "4, PT2.7S", "5, PT8.1S", "6, PT10S" })
	void whenMultiplierIsNotABinaryFractionThenRoundingErrorsDoNotShowInNanoseconds(int retry, Duration expected) {
		RetrySettings.Backoff backoff = new RetrySettings.Backoff(Duration.ofMillis(100), 3.0, Duration.ofSeconds(10));
		assertThat(ExponentialBackoff.forRetry(backoff, retry)).isEqualTo(expected);
	}

	@ParameterizedTest
	@ValueSource(ints = { 2, 3, 1000, Integer.MAX_VALUE })
	void whenMultiplierIsHugeThenCappedWithoutOverflow(int retry) {
		RetrySettings.Backoff backoff = new RetrySettings.Backoff(Duration.ofSeconds(1), Double.MAX_VALUE,
				Duration.ofSeconds(30));
		assertThat(ExponentialBackoff.forRetry(backoff, retry)).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void whenCapIsTheLongestDurationThenLargeValuesAreExactAndLargerOnesAreCapped() {
		RetrySettings.Backoff backoff = new RetrySettings.Backoff(Duration.ofSeconds(1), 2.0, LONGEST);
		assertThat(ExponentialBackoff.forRetry(backoff, 63)).isEqualTo(Duration.ofSeconds(1L << 62));
		assertThat(ExponentialBackoff.forRetry(backoff, 64)).isEqualTo(LONGEST);
		assertThat(ExponentialBackoff.forRetry(backoff, Integer.MAX_VALUE)).isEqualTo(LONGEST);
	}

	@Test
	void whenHugeMultiplierAndLongestCapThenCapped() {
		RetrySettings.Backoff backoff = new RetrySettings.Backoff(LONGEST, Double.MAX_VALUE, LONGEST);
		assertThat(ExponentialBackoff.forRetry(backoff, Integer.MAX_VALUE)).isEqualTo(LONGEST);
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 2, Integer.MAX_VALUE })
	void whenInitialIsZeroThenBackoffIsZero(int retry) {
		RetrySettings.Backoff backoff = new RetrySettings.Backoff(Duration.ZERO, 2.0, Duration.ofSeconds(8));
		assertThat(ExponentialBackoff.forRetry(backoff, retry)).isEqualTo(Duration.ZERO);
	}

	@Test
	void whenInitialIsAboveMaxThenMaxFromTheFirstRetry() {
		RetrySettings.Backoff backoff = new RetrySettings.Backoff(Duration.ofSeconds(20), 2.0, Duration.ofSeconds(8));
		assertThat(ExponentialBackoff.forRetry(backoff, 1)).isEqualTo(Duration.ofSeconds(8));
	}

	@Test
	void whenMaxIsZeroThenBackoffIsZero() {
		RetrySettings.Backoff backoff = new RetrySettings.Backoff(Duration.ofSeconds(1), 2.0, Duration.ZERO);
		assertThat(ExponentialBackoff.forRetry(backoff, 3)).isEqualTo(Duration.ZERO);
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, -1, Integer.MIN_VALUE })
	void whenRetryIsBelowOneThenIllegalArgument(int retry) {
		assertThatIllegalArgumentException().isThrownBy(() -> ExponentialBackoff.forRetry(DEFAULTS, retry))
			.withMessage("retry must be at least 1: " + retry);
	}

}
