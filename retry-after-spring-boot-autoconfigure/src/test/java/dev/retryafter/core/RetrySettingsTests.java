package dev.retryafter.core;

import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

import dev.retryafter.core.header.DateReference;
import dev.retryafter.core.header.RetryAfter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * Tests for {@link RetrySettings}: the documented defaults, the {@code withX} copies and
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
		assertThat(DEFAULTS.retryableStatuses()).containsExactlyInAnyOrder(429, 503, 529);
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

	static Stream<String> components() {
		return Stream.of(RetrySettings.class.getRecordComponents()).map(RecordComponent::getName);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("components")
	void whenWithXThenOnlyThatComponentChangesAndTheOriginalIsUntouched(String component)
			throws ReflectiveOperationException {
		RecordComponent changed = recordComponent(component);
		Object value = other(changed.getAccessor().invoke(DEFAULTS));
		Method with = RetrySettings.class.getMethod(
				"with" + Character.toUpperCase(component.charAt(0)) + component.substring(1), changed.getType());
		RetrySettings copy = (RetrySettings) with.invoke(DEFAULTS, value);
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

	private static RecordComponent recordComponent(String name) {
		return Stream.of(RetrySettings.class.getRecordComponents())
			.filter((component) -> component.getName().equals(name))
			.findFirst()
			.orElseThrow();
	}

	/**
	 * A valid value unequal to {@code value}, for a component of any type the settings use; a
	 * record gets another value of its first component.
	 */
	private static Object other(Object value) throws ReflectiveOperationException {
		if (value instanceof Integer number) {
			return number + 1;
		}
		if (value instanceof Double number) {
			return number / 2;
		}
		if (value instanceof Boolean flag) {
			return !flag;
		}
		if (value instanceof Duration duration) {
			return duration.plusMillis(1);
		}
		if (value instanceof String text) {
			return "X-" + text;
		}
		if (value instanceof Enum<?> constant) {
			Object[] constants = constant.getDeclaringClass().getEnumConstants();
			return constants[(constant.ordinal() + 1) % constants.length];
		}
		if (value instanceof Set<?> set && !set.isEmpty()) {
			return Set.of();
		}
		if (value instanceof Record record) {
			RecordComponent[] components = record.getClass().getRecordComponents();
			Object[] values = new Object[components.length];
			for (int i = 0; i < components.length; i++) {
				values[i] = components[i].getAccessor().invoke(record);
			}
			values[0] = other(values[0]);
			Class<?>[] types = Stream.of(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
			return record.getClass().getDeclaredConstructor(types).newInstance(values);
		}
		throw new IllegalArgumentException("No other value for " + value + ": add its type here");
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
