package dev.retryafter.core;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * Tests for {@link RetrySettings}: the SPEC section 4 defaults, the {@code withX} copies and
 * the invariants.
 */
class RetrySettingsTests {

	private static final RetrySettings DEFAULTS = RetrySettings.defaults();

	@Test
	void whenDefaultsThenMaxAttemptsIs3() {
		assertThat(DEFAULTS.maxAttempts()).isEqualTo(3);
	}

	@Test
	void whenDefaultsThenTotalBudgetIs10Seconds() {
		assertThat(DEFAULTS.totalBudget()).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void whenDefaultsThenAttemptReserveIs500Milliseconds() {
		assertThat(DEFAULTS.attemptReserve()).isEqualTo(Duration.ofMillis(500));
	}

	@Test
	void whenDefaultsThenRetryableStatusesAre429And503() {
		assertThat(DEFAULTS.retryableStatuses()).containsExactlyInAnyOrder(429, 503);
	}

	@Test
	void whenDefaultsThenRetryableMethodsAreTheRfc9110IdempotentOnes() {
		assertThat(DEFAULTS.retryableMethods()).containsExactlyInAnyOrder("GET", "HEAD", "OPTIONS", "TRACE", "PUT",
				"DELETE");
	}

	@Test
	void whenDefaultsThenIdempotencyKeyHeaderIsIdempotencyKey() {
		assertThat(DEFAULTS.idempotencyKeyHeader()).isEqualTo("Idempotency-Key");
	}

	@Test
	void whenDefaultsThenBackoffIsOneSecondDoublingUpToEightSeconds() {
		assertThat(DEFAULTS.backoff())
			.isEqualTo(new RetrySettings.Backoff(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(8)));
	}

	@Test
	void whenDefaultsThenJitterIs0Point2() {
		assertThat(DEFAULTS.jitter()).isEqualTo(0.2);
	}

	@Test
	void whenDefaultsThenHeaderMaxWaitIs60SecondsOnInvalidBackoffAndDateReferenceServerDate() {
		assertThat(DEFAULTS.header()).isEqualTo(
				new RetrySettings.Header(Duration.ofSeconds(60), OnInvalidRetryAfter.BACKOFF, DateReference.SERVER_DATE));
	}

	@Test
	void whenDefaultsThenConnectAndReadErrorsAreRetried() {
		assertThat(DEFAULTS.ioErrors()).isEqualTo(new RetrySettings.IoErrors(true, true));
	}

	@Test
	void whenDefaultsThenCooldownIsEnabledInWaitMode() {
		assertThat(DEFAULTS.cooldown()).isEqualTo(new RetrySettings.Cooldown(true, CooldownMode.WAIT));
	}

	@Test
	void whenDefaultsThenBudgetIsEnabledWithRatio0Point2And10PerSecondOver10Seconds() {
		assertThat(DEFAULTS.budget()).isEqualTo(new RetrySettings.Budget(true, 0.2, 10, Duration.ofSeconds(10)));
	}

	@Test
	void whenDefaultsAreAskedTwiceThenTheyAreEqual() {
		assertThat(RetrySettings.defaults()).isEqualTo(DEFAULTS).hasSameHashCodeAs(DEFAULTS);
	}

	static Stream<Arguments> copies() {
		return Stream.of(
				copy("maxAttempts", 5, (s) -> s.withMaxAttempts(5)),
				copy("totalBudget", Duration.ofSeconds(30), (s) -> s.withTotalBudget(Duration.ofSeconds(30))),
				copy("attemptReserve", Duration.ofSeconds(2), (s) -> s.withAttemptReserve(Duration.ofSeconds(2))),
				copy("retryableStatuses", Set.of(502), (s) -> s.withRetryableStatuses(Set.of(502))),
				copy("retryableMethods", Set.of("GET"), (s) -> s.withRetryableMethods(Set.of("GET"))),
				copy("idempotencyKeyHeader", "X-Request-Id", (s) -> s.withIdempotencyKeyHeader("X-Request-Id")),
				copy("backoff", new RetrySettings.Backoff(Duration.ofMillis(100), 3.0, Duration.ofSeconds(2)),
						(s) -> s.withBackoff(
								new RetrySettings.Backoff(Duration.ofMillis(100), 3.0, Duration.ofSeconds(2)))),
				copy("jitter", 0.5, (s) -> s.withJitter(0.5)),
				copy("header",
						new RetrySettings.Header(Duration.ofSeconds(5), OnInvalidRetryAfter.ABANDON,
								DateReference.LOCAL_CLOCK),
						(s) -> s.withHeader(new RetrySettings.Header(Duration.ofSeconds(5), OnInvalidRetryAfter.ABANDON,
								DateReference.LOCAL_CLOCK))),
				copy("ioErrors", new RetrySettings.IoErrors(false, false),
						(s) -> s.withIoErrors(new RetrySettings.IoErrors(false, false))),
				copy("cooldown", new RetrySettings.Cooldown(false, CooldownMode.FAIL_FAST),
						(s) -> s.withCooldown(new RetrySettings.Cooldown(false, CooldownMode.FAIL_FAST))),
				copy("budget", new RetrySettings.Budget(false, 0.5, 1, Duration.ofMinutes(1)),
						(s) -> s.withBudget(new RetrySettings.Budget(false, 0.5, 1, Duration.ofMinutes(1)))));
	}

	private static Arguments copy(String component, Object value, UnaryOperator<RetrySettings> with) {
		return Arguments.of(component, value, with);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("copies")
	void whenWithXThenOnlyThatComponentChangesAndTheOriginalIsUntouched(String component, Object value,
			UnaryOperator<RetrySettings> with) throws ReflectiveOperationException {
		RetrySettings copy = with.apply(DEFAULTS);
		for (RecordComponent recordComponent : RetrySettings.class.getRecordComponents()) {
			Object copied = recordComponent.getAccessor().invoke(copy);
			Object original = recordComponent.getAccessor().invoke(DEFAULTS);
			if (recordComponent.getName().equals(component)) {
				assertThat(copied).as(component).isEqualTo(value).isNotEqualTo(original);
			}
			else {
				assertThat(copied).as(recordComponent.getName()).isEqualTo(original);
			}
		}
		assertThat(DEFAULTS).isEqualTo(RetrySettings.defaults());
	}

	@Test
	void whenEveryComponentHasAWithXCopyThenTheCopiesTableCoversThemAll() {
		List<String> covered = copies().map((arguments) -> (String) arguments.get()[0]).toList();
		assertThat(covered).containsExactlyInAnyOrder(Stream.of(RetrySettings.class.getRecordComponents())
			.map(RecordComponent::getName)
			.toArray(String[]::new));
	}

	@Test
	void whenMethodsAreGivenInLowerCaseThenTheyAreStoredInUpperCase() {
		assertThat(DEFAULTS.withRetryableMethods(Set.of("get", "Put")).retryableMethods())
			.containsExactlyInAnyOrder("GET", "PUT");
	}

	@Test
	void whenTheGivenSetsChangeLaterThenTheSettingsDoNot() {
		Set<Integer> statuses = new HashSet<>(Set.of(429));
		Set<String> methods = new HashSet<>(Set.of("GET"));
		RetrySettings settings = DEFAULTS.withRetryableStatuses(statuses).withRetryableMethods(methods);
		statuses.add(500);
		methods.add("POST");
		assertThat(settings.retryableStatuses()).containsExactly(429);
		assertThat(settings.retryableMethods()).containsExactly("GET");
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, -1, Integer.MIN_VALUE })
	void whenMaxAttemptsIsBelowOneThenIllegalArgument(int maxAttempts) {
		assertThatIllegalArgumentException().isThrownBy(() -> DEFAULTS.withMaxAttempts(maxAttempts))
			.withMessage("maxAttempts must be at least 1: " + maxAttempts);
	}

	@Test
	void whenTotalBudgetIsNegativeThenIllegalArgument() {
		assertThatIllegalArgumentException().isThrownBy(() -> DEFAULTS.withTotalBudget(Duration.ofMillis(-1)))
			.withMessage("totalBudget must not be negative: PT-0.001S");
	}

	@Test
	void whenAttemptReserveIsNegativeThenIllegalArgument() {
		assertThatIllegalArgumentException().isThrownBy(() -> DEFAULTS.withAttemptReserve(Duration.ofSeconds(-1)))
			.withMessage("attemptReserve must not be negative: PT-1S");
	}

	@Test
	void whenBudgetAndReserveAreZeroThenAccepted() {
		RetrySettings settings = DEFAULTS.withTotalBudget(Duration.ZERO).withAttemptReserve(Duration.ZERO);
		assertThat(settings.totalBudget()).isEqualTo(Duration.ZERO);
		assertThat(settings.attemptReserve()).isEqualTo(Duration.ZERO);
	}

	@ParameterizedTest
	@ValueSource(doubles = { -0.01, 1.01, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY })
	void whenJitterIsOutsideZeroToOneThenIllegalArgument(double jitter) {
		assertThatIllegalArgumentException().isThrownBy(() -> DEFAULTS.withJitter(jitter))
			.withMessage("jitter must be between 0 and 1: " + jitter);
	}

	@ParameterizedTest
	@ValueSource(doubles = { 0.0, 1.0 })
	void whenJitterIsAtTheBoundsThenAccepted(double jitter) {
		assertThat(DEFAULTS.withJitter(jitter).jitter()).isEqualTo(jitter);
	}

	@Test
	void whenBackoffInitialIsNegativeThenIllegalArgument() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetrySettings.Backoff(Duration.ofSeconds(-1), 2.0, Duration.ofSeconds(8)))
			.withMessage("backoff.initial must not be negative: PT-1S");
	}

	@Test
	void whenBackoffMaxIsNegativeThenIllegalArgument() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetrySettings.Backoff(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(-8)))
			.withMessage("backoff.max must not be negative: PT-8S");
	}

	@ParameterizedTest
	@ValueSource(doubles = { 0.99, 0.0, -2.0, Double.NaN, Double.POSITIVE_INFINITY })
	void whenBackoffMultiplierIsBelowOneOrNotFiniteThenIllegalArgument(double multiplier) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetrySettings.Backoff(Duration.ofSeconds(1), multiplier, Duration.ofSeconds(8)))
			.withMessage("backoff.multiplier must be a finite number >= 1: " + multiplier);
	}

	@Test
	void whenHeaderMaxWaitIsNegativeThenIllegalArgument() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetrySettings.Header(Duration.ofSeconds(-1), OnInvalidRetryAfter.BACKOFF,
					DateReference.SERVER_DATE))
			.withMessage("header.maxWait must not be negative: PT-1S");
	}

	@Test
	void whenHeaderMaxWaitReachesTheSaturationCeilingThenIllegalArgument() {
		// A saturated delay must always count as too long, so max-wait stays below it.
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetrySettings.Header(RetryAfter.MAX_DELAY, OnInvalidRetryAfter.BACKOFF,
					DateReference.SERVER_DATE))
			.withMessage("header.maxWait must be below PT876000H");
	}

	@Test
	void whenHeaderMaxWaitIsJustBelowTheSaturationCeilingThenAccepted() {
		Duration longest = RetryAfter.MAX_DELAY.minusNanos(1);
		assertThat(new RetrySettings.Header(longest, OnInvalidRetryAfter.BACKOFF, DateReference.SERVER_DATE).maxWait())
			.isEqualTo(longest);
	}

	@ParameterizedTest
	@ValueSource(doubles = { -0.1, Double.NaN, Double.POSITIVE_INFINITY })
	void whenBudgetRatioIsNegativeOrNotFiniteThenIllegalArgument(double ratio) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetrySettings.Budget(true, ratio, 10, Duration.ofSeconds(10)))
			.withMessage("budget.ratio must be a finite number >= 0: " + ratio);
	}

	@Test
	void whenBudgetMinPerSecondIsNegativeThenIllegalArgument() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetrySettings.Budget(true, 0.2, -1, Duration.ofSeconds(10)))
			.withMessage("budget.minPerSecond must not be negative: -1");
	}

	@ParameterizedTest
	@ValueSource(longs = { 0, -1 })
	void whenBudgetWindowIsNotPositiveThenIllegalArgument(long seconds) {
		Duration window = Duration.ofSeconds(seconds);
		assertThatIllegalArgumentException().isThrownBy(() -> new RetrySettings.Budget(true, 0.2, 10, window))
			.withMessage("budget.window must be positive: " + window);
	}

	@Test
	void whenARequiredComponentIsNullThenNullPointerNamingIt() {
		assertThatNullPointerException().isThrownBy(() -> DEFAULTS.withTotalBudget(nullValue()))
			.withMessage("totalBudget");
		assertThatNullPointerException().isThrownBy(() -> DEFAULTS.withHeader(nullValue())).withMessage("header");
		assertThatNullPointerException()
			.isThrownBy(() -> new RetrySettings.Cooldown(true, nullValue()))
			.withMessage("mode");
	}

	private static <T> T nullValue() {
		return null;
	}

}
