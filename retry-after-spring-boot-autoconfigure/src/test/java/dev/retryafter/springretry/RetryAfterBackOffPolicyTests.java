package dev.retryafter.springretry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

import dev.retryafter.core.DurationMath;
import dev.retryafter.core.OnInvalidRetryAfter;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.testsupport.FakeClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.retry.RetryContext;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.backoff.Sleeper;
import org.springframework.retry.context.RetryContextSupport;
import org.springframework.web.client.RestClientResponseException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Tests for {@link RetryAfterBackOffPolicy}. Time is a {@link FakeClock}; the spring-retry
 * {@link Sleeper} records each wait and moves the clock instead of sleeping.
 */
class RetryAfterBackOffPolicyTests {

	/** Reads 0.5 from {@link RandomGenerator#nextDouble()}: jitter is half its maximum. */
	static final RandomGenerator HALF = () -> Long.MIN_VALUE;

	private static final RetrySettings NO_JITTER = RetrySettings.defaults().withJitter(0);

	private final FakeClock clock = new FakeClock();

	private final RecordingSleeper sleeper = new RecordingSleeper(this.clock);

	@AfterEach
	void clearInterrupt() {
		Thread.interrupted();
	}

	@Test
	void whenResponseCarriesRetryAfterSecondsShouldWaitForIt() {
		RetryContext context = failedWith(response(429, "3"));
		backOff(policy(NO_JITTER), context);
		assertThat(this.sleeper.sleeps()).containsExactly(3000L);
	}

	@Test
	void whenResponseCarriesRetryAfterDateShouldWaitUntilThenMeasuredAgainstServerDate() {
		HttpHeaders headers = new HttpHeaders();
		headers.add(HttpHeaders.DATE, "Tue, 08 Sep 2026 11:00:00 GMT");
		headers.add(HttpHeaders.RETRY_AFTER, "Tue, 08 Sep 2026 11:00:05 GMT");
		backOff(policy(NO_JITTER), failedWith(new RestClientResponseException("status 503",
				HttpStatusCode.valueOf(503), "", headers, new byte[0], StandardCharsets.UTF_8)));
		assertThat(this.sleeper.sleeps()).containsExactly(5000L);
	}

	@Test
	void whenServerDelayIsShorterThanBackoffShouldWaitTheBackoff() {
		backOff(policy(NO_JITTER), failedWith(response(429, "0")));
		assertThat(this.sleeper.sleeps()).containsExactly(1000L);
	}

	@Test
	void whenResponseHasNoRetryAfterShouldBackOffExponentially() {
		RetryAfterBackOffPolicy policy = policy(NO_JITTER);
		RetryContextSupport context = new RetryContextSupport(null);
		BackOffContext backOffContext = policy.start(context);
		for (int attempt = 1; attempt <= 3; attempt++) {
			context.registerThrowable(response(503, null));
			policy.backOff(backOffContext);
		}
		assertThat(this.sleeper.sleeps()).containsExactly(1000L, 2000L, 4000L);
	}

	@Test
	void whenFailureIsNotAnHttpResponseShouldBackOff() {
		backOff(policy(NO_JITTER), failedWith(new UncheckedIOException(new IOException("connection reset"))));
		assertThat(this.sleeper.sleeps()).containsExactly(1000L);
	}

	@Test
	void whenResponseIsWrappedShouldStillHonourItsRetryAfter() {
		backOff(policy(NO_JITTER), failedWith(new IllegalStateException("wrapped", response(429, "4"))));
		assertThat(this.sleeper.sleeps()).containsExactly(4000L);
	}

	@Test
	void whenStatusIsNotInRetryableStatusesShouldStillHonourRetryAfterBecauseRetryPolicyDecided() {
		backOff(policy(NO_JITTER), failedWith(response(500, "3")));
		assertThat(this.sleeper.sleeps()).containsExactly(3000L);
	}

	@Test
	void whenRetryPolicyAllowsMoreThanMaxAttemptsShouldKeepBackingOff() {
		RetryAfterBackOffPolicy policy = policy(NO_JITTER.withMaxAttempts(1));
		RetryContextSupport context = new RetryContextSupport(null);
		BackOffContext backOffContext = policy.start(context);
		context.registerThrowable(response(429, "1"));
		policy.backOff(backOffContext);
		context.registerThrowable(response(429, "1"));
		policy.backOff(backOffContext);
		assertThat(this.sleeper.sleeps()).containsExactly(1000L, 2000L);
	}

	@Test
	void shouldAddJitterFromTheRandomSourceOnTopOfServerDelay() {
		RetryAfterBackOffPolicy policy = new RetryAfterBackOffPolicy(RetrySettings.defaults(), this.sleeper,
				this.clock, this.clock, HALF);
		backOff(policy, failedWith(response(429, "2")));
		assertThat(this.sleeper.sleeps()).containsExactly(2200L);
	}

	@Test
	void whenRetryAfterExceedsMaxWaitShouldThrowNamingReasonWithoutWaiting() {
		RestClientResponseException tooLong = response(503, "120");
		assertThatExceptionOfType(BackOffInterruptedException.class)
			.isThrownBy(() -> backOff(policy(NO_JITTER), failedWith(tooLong)))
			.withMessage("Retry abandoned before attempt 2, reason retry-after-too-long: "
					+ "the server asked for a wait longer than header.max-wait (PT1M)")
			.withCause(tooLong);
		assertThat(this.sleeper.sleeps()).isEmpty();
	}

	@Test
	void whenRetryAfterDoesNotFitTotalBudgetShouldThrowNamingReasonWithoutWaiting() {
		assertThatExceptionOfType(BackOffInterruptedException.class)
			.isThrownBy(() -> backOff(policy(NO_JITTER), failedWith(response(429, "10"))))
			.withMessage("Retry abandoned before attempt 2, reason retry-after-exceeds-budget: "
					+ "the server's wait does not fit the remaining total-budget (PT10S)");
		assertThat(this.sleeper.sleeps()).isEmpty();
	}

	@Test
	void whenBackoffDoesNotFitTotalBudgetShouldThrowNamingReason() {
		RetryAfterBackOffPolicy policy = policy(NO_JITTER.withTotalBudget(Duration.ofSeconds(1)));
		assertThatExceptionOfType(BackOffInterruptedException.class)
			.isThrownBy(() -> backOff(policy, failedWith(response(503, null))))
			.withMessage("Retry abandoned before attempt 2, reason budget-exhausted: "
					+ "the backoff does not fit the remaining total-budget (PT1S)");
	}

	@Test
	void whenTimeHasPassedSinceStartShouldCountItAgainstTheBudget() {
		RetryAfterBackOffPolicy policy = policy(NO_JITTER);
		RetryContextSupport context = new RetryContextSupport(null);
		BackOffContext backOffContext = policy.start(context);
		this.clock.advance(Duration.ofSeconds(7));
		context.registerThrowable(response(429, "3"));
		assertThatExceptionOfType(BackOffInterruptedException.class).isThrownBy(() -> policy.backOff(backOffContext))
			.withMessageContaining("reason retry-after-exceeds-budget");
	}

	@Test
	void whenRetryAfterIsInvalidAndPolicyIsAbandonShouldThrowNamingReason() {
		RetrySettings abandon = NO_JITTER.withHeader(new RetrySettings.Header(Duration.ofSeconds(60),
				OnInvalidRetryAfter.ABANDON, RetrySettings.defaults().header().dateReference()));
		assertThatExceptionOfType(BackOffInterruptedException.class)
			.isThrownBy(() -> backOff(policy(abandon), failedWith(response(429, "soon"))))
			.withMessage("Retry abandoned before attempt 2, reason invalid-retry-after: "
					+ "the Retry-After header is invalid and header.on-invalid is abandon");
	}

	@Test
	void whenRetryAfterIsInvalidAndPolicyIsBackoffShouldBackOff() {
		backOff(policy(NO_JITTER), failedWith(response(429, "-1")));
		assertThat(this.sleeper.sleeps()).containsExactly(1000L);
	}

	@Test
	void whenSleepIsInterruptedShouldThrowAndRestoreInterruptFlag() {
		RetryAfterBackOffPolicy policy = policy(NO_JITTER).withSleeper((millis) -> {
			throw new InterruptedException("stop");
		});
		assertThatExceptionOfType(BackOffInterruptedException.class)
			.isThrownBy(() -> backOff(policy, failedWith(response(429, "1"))))
			.withMessage("Thread interrupted while waiting to retry");
		assertThat(Thread.currentThread().isInterrupted()).isTrue();
	}

	@Test
	void withSleeperShouldReturnACopyUsingTheNewSleeper() {
		RetryAfterBackOffPolicy original = policy(NO_JITTER);
		RecordingSleeper other = new RecordingSleeper(this.clock);
		RetryAfterBackOffPolicy copy = original.withSleeper(other);
		backOff(copy, failedWith(response(429, "2")));
		assertThat(copy).isNotSameAs(original);
		assertThat(other.sleeps()).containsExactly(2000L);
		assertThat(this.sleeper.sleeps()).isEmpty();
	}

	@Test
	void whenStartedThenTheRetryContextIsMarkedAsRetriedByThisPolicy() {
		RetryContext context = new RetryContextSupport(null);
		policy(NO_JITTER).start(context);
		assertThat(context.getAttribute(RetryAfterBackOffPolicy.RETRYING_ATTRIBUTE)).isEqualTo(Boolean.TRUE);
	}

	@Test
	void whenTheStopIsUnwrappedThenItsCauseIsTheLastResponse() {
		RestClientResponseException last = response(429, "120");
		BackOffInterruptedException stopped = catchThrowableOfType(BackOffInterruptedException.class,
				() -> backOff(policy(NO_JITTER), failedWith(last)));
		assertThat(RetryAfterBackOffPolicy.lastResponse(stopped)).isSameAs(last);
		assertThat(RetryAfterBackOffPolicy.lastResponse(last)).isSameAs(last);
	}

	@Test
	void whenNoResponseIsInTheChainThenUnwrappingFindsNone() {
		assertThat(RetryAfterBackOffPolicy.lastResponse(null)).isNull();
		assertThat(RetryAfterBackOffPolicy
			.lastResponse(new BackOffInterruptedException("interrupted", new InterruptedException()))).isNull();
	}

	@Test
	void shouldRoundWaitsUpToWholeMilliseconds() {
		assertThat(DurationMath.ceilMillis(Duration.ofNanos(1_000_000_001L))).isEqualTo(1001L);
		assertThat(DurationMath.ceilMillis(Duration.ofMillis(1500))).isEqualTo(1500L);
		assertThat(DurationMath.ceilMillis(Duration.ZERO)).isZero();
	}

	private RetryAfterBackOffPolicy policy(RetrySettings settings) {
		return new RetryAfterBackOffPolicy(settings, this.sleeper, this.clock, this.clock, HALF);
	}

	private static void backOff(RetryAfterBackOffPolicy policy, RetryContext context) {
		policy.backOff(policy.start(context));
	}

	private static RetryContext failedWith(Throwable throwable) {
		RetryContextSupport context = new RetryContextSupport(null);
		context.registerThrowable(throwable);
		return context;
	}

	static RestClientResponseException response(int status, String retryAfter) {
		HttpHeaders headers = new HttpHeaders();
		if (retryAfter != null) {
			headers.add(HttpHeaders.RETRY_AFTER, retryAfter);
		}
		return new RestClientResponseException("status " + status, HttpStatusCode.valueOf(status), "", headers,
				new byte[0], StandardCharsets.UTF_8);
	}

	/**
	 * A spring-retry sleeper that records each wait in milliseconds and moves the clock.
	 */
	static final class RecordingSleeper implements Sleeper {

		private static final long serialVersionUID = 1L;

		private final transient FakeClock clock;

		private final List<Long> sleeps = new ArrayList<>();

		RecordingSleeper(FakeClock clock) {
			this.clock = clock;
		}

		@Override
		public void sleep(long millis) {
			this.sleeps.add(millis);
			this.clock.advance(Duration.ofMillis(millis));
		}

		List<Long> sleeps() {
			return List.copyOf(this.sleeps);
		}

	}

}
