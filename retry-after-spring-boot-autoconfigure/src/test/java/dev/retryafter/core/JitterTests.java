package dev.retryafter.core;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link Jitter}.
 */
class JitterTests {

	private static final Duration THREE_SECONDS = Duration.ofSeconds(3);

	private static final Duration NO_LIMIT = Duration.ofDays(1);

	/** The largest value a {@code Duration} can hold. */
	private static final Duration LONGEST = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);

	@Test
	void whenRandomIsHalfThenHalfOfTheJitterRangeIsAdded() {
		assertThat(Jitter.apply(THREE_SECONDS, 0.2, new FixedRandom(0.5), NO_LIMIT)).isEqualTo(Duration.ofMillis(3300));
	}

	@Test
	void whenRandomIsZeroThenWaitIsBase() {
		assertThat(Jitter.apply(THREE_SECONDS, 0.2, new FixedRandom(0.0), NO_LIMIT)).isEqualTo(THREE_SECONDS);
	}

	@Test
	void whenRandomIsAtTheTopThenTheWholeRangeIsAdded() {
		double belowOne = Math.nextDown(1.0);
		Duration wait = Jitter.apply(Duration.ofSeconds(10), 0.5, new FixedRandom(belowOne), NO_LIMIT);
		assertThat(wait).isEqualTo(Duration.ofSeconds(15));
	}

	@Test
	void whenJitterIsZeroThenWaitIsBaseAndOneValueIsStillDrawn() {
		FixedRandom random = new FixedRandom(0.9);
		assertThat(Jitter.apply(THREE_SECONDS, 0.0, random, NO_LIMIT)).isEqualTo(THREE_SECONDS);
		assertThat(random.draws()).isEqualTo(1);
	}

	@Test
	void whenJitterWouldPassTheLimitThenItIsTrimmedToTheLimit() {
		// 3 s + 0.9 x 1.0 x 3 s = 5.7 s, but only 4 s fit.
		assertThat(Jitter.apply(THREE_SECONDS, 1.0, new FixedRandom(0.9), Duration.ofSeconds(4)))
			.isEqualTo(Duration.ofSeconds(4));
	}

	@Test
	void whenJitterFitsUnderTheLimitThenItIsNotTrimmed() {
		assertThat(Jitter.apply(THREE_SECONDS, 1.0, new FixedRandom(0.25), Duration.ofSeconds(4)))
			.isEqualTo(Duration.ofMillis(3750));
	}

	@Test
	void whenLimitEqualsBaseThenWaitIsBase() {
		assertThat(Jitter.apply(THREE_SECONDS, 0.2, new FixedRandom(0.5), THREE_SECONDS)).isEqualTo(THREE_SECONDS);
	}

	@Test
	void whenLimitIsBelowBaseThenWaitIsStillBaseAndOneValueIsDrawn() {
		FixedRandom random = new FixedRandom(0.5);
		assertThat(Jitter.apply(THREE_SECONDS, 0.2, random, Duration.ofSeconds(-5))).isEqualTo(THREE_SECONDS);
		assertThat(random.draws()).isEqualTo(1);
	}

	@Test
	void whenBaseIsZeroThenWaitIsZero() {
		assertThat(Jitter.apply(Duration.ZERO, 1.0, new FixedRandom(0.7), NO_LIMIT)).isEqualTo(Duration.ZERO);
	}

	@Test
	void whenRandomIsAboveOneThenItIsClampedToOne() {
		assertThat(Jitter.apply(THREE_SECONDS, 0.2, new FixedRandom(7.0), NO_LIMIT)).isEqualTo(Duration.ofMillis(3600));
	}

	@ParameterizedTest
	@ValueSource(doubles = { -0.5, Double.NaN, Double.NEGATIVE_INFINITY })
	void whenRandomIsNegativeOrNaNThenItIsClampedToZero(double value) {
		assertThat(Jitter.apply(THREE_SECONDS, 0.2, new FixedRandom(value), NO_LIMIT)).isEqualTo(THREE_SECONDS);
	}

	@Test
	void whenBaseIsHugeThenExactWithoutOverflow() {
		Duration base = Duration.ofSeconds(1L << 62);
		assertThat(Jitter.apply(base, 1.0, new FixedRandom(0.5), LONGEST)).isEqualTo(Duration.ofSeconds(3L << 61));
	}

	@Test
	void whenBaseIsHugeAndTheSumWouldOverflowThenTrimmedToTheLimit() {
		Duration base = Duration.ofSeconds(1L << 62);
		assertThat(Jitter.apply(base, 1.0, new FixedRandom(1.0), LONGEST)).isEqualTo(LONGEST);
	}

	@Test
	void whenSeededThenEveryWaitIsInRangeAndEqualsTheExactProduct() {
		SplittableRandom random = new SplittableRandom(20260908L);
		SplittableRandom replay = new SplittableRandom(20260908L);
		Set<Duration> distinct = new HashSet<>();
		for (int i = 0; i < 10_000; i++) {
			Duration wait = Jitter.apply(THREE_SECONDS, 0.2, random, NO_LIMIT);
			assertThat(wait).isEqualTo(THREE_SECONDS.plus(exactExtra(THREE_SECONDS, replay.nextDouble() * 0.2)));
			assertThat(wait).isBetween(THREE_SECONDS, Duration.ofMillis(3600));
			distinct.add(wait);
		}
		// Identical server delays must not give identical waits.
		assertThat(distinct).hasSizeGreaterThan(9_900);
	}

	@Test
	void whenScaledByAnotherDurationThenExtraIsAFractionOfIt() {
		assertThat(Jitter.apply(Duration.ofMillis(10), Duration.ofSeconds(1), 0.2, new FixedRandom(0.5), NO_LIMIT))
			.isEqualTo(Duration.ofMillis(110));
		assertThat(Jitter.apply(Duration.ofMillis(10), Duration.ofSeconds(1), 0.2, new FixedRandom(0.75),
				Duration.ofMillis(60)))
			.isEqualTo(Duration.ofMillis(60));
	}

	@Test
	void whenScaleIsNegativeThenIllegalArgument() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Jitter.apply(Duration.ZERO, Duration.ofSeconds(-1), 0.2, new FixedRandom(0.5), NO_LIMIT))
			.withMessage("scale must not be negative: PT-1S");
	}

	@Test
	void whenBaseIsNegativeThenIllegalArgument() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Jitter.apply(Duration.ofSeconds(-1), 0.2, new FixedRandom(0.5), NO_LIMIT))
			.withMessage("base must not be negative: PT-1S");
	}

	@ParameterizedTest
	@ValueSource(doubles = { -0.1, 1.1, Double.NaN, Double.POSITIVE_INFINITY })
	void whenJitterIsOutsideZeroToOneThenIllegalArgument(double jitter) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Jitter.apply(THREE_SECONDS, jitter, new FixedRandom(0.5), NO_LIMIT))
			.withMessage("jitter must be between 0 and 1: " + jitter);
	}

	private static Duration exactExtra(Duration base, double factor) {
		BigDecimal nanos = new BigDecimal(base.toNanos()).multiply(new BigDecimal(factor));
		return Duration.ofNanos(nanos.setScale(0, RoundingMode.HALF_EVEN).longValueExact());
	}

}
