package dev.retryafter.frameworkretry;

import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.call.AttemptsSpent;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.DurationMath;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.spi.RetriedInvocation;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.FixedRandom;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.StoppedWithoutAttempt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decisions of {@link RetryAfterRetryPolicy} on a fake clock, as a core
 * {@code RetryTemplate} asks for them: {@code shouldRetry}, then the back-off's
 * {@code nextBackOff} on the same thread.
 */
class RetryAfterRetryPolicyTests {

	private final FakeClock clock = new FakeClock();

	private final RecordingListener listener = new RecordingListener();

	private final RetryAfterRetryPolicy policy = policy(RetrySettings.defaults());

	@AfterEach
	void forgetTheNote() {
		AttemptsSpent.clear();
	}

	@Test
	void whenTheServerAsksForASecondThenTheBackOffWaitsTheLargerOfItAndTheBackoff() {
		BackOffExecution backOff = this.policy.getBackOff().start();

		assertThat(this.policy.shouldRetry(serviceUnavailable("1"))).isTrue();
		assertThat(backOff.nextBackOff()).isEqualTo(1000);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.policy.shouldRetry(serviceUnavailable("1"))).isTrue();
		// retry 2: the local backoff, 2 s, is longer than the server's 1 s
		assertThat(backOff.nextBackOff()).isEqualTo(2000);
	}

	@Test
	void whenMaxAttemptsAreSpentThenTheBackOffStopsAndReportsIt() {
		BackOffExecution backOff = this.policy.getBackOff().start();
		for (int attempt = 1; attempt < 3; attempt++) {
			this.policy.shouldRetry(serviceUnavailable("1"));
			assertThat(backOff.nextBackOff()).isNotEqualTo(BackOffExecution.STOP);
		}

		this.policy.shouldRetry(serviceUnavailable("1"));

		assertThat(backOff.nextBackOff()).isEqualTo(BackOffExecution.STOP);
		assertThat(this.listener.events())
			.containsExactly(new StoppedWithoutAttempt("default", "UNKNOWN", StopReason.MAX_ATTEMPTS));
	}

	@Test
	void whenTheServerAsksForMoreThanMaxWaitThenTheBackOffStopsWithoutShorteningIt() {
		BackOffExecution backOff = this.policy.getBackOff().start();

		this.policy.shouldRetry(serviceUnavailable("120"));

		assertThat(backOff.nextBackOff()).isEqualTo(BackOffExecution.STOP);
		assertThat(this.listener.events())
			.containsExactly(new StoppedWithoutAttempt("default", "UNKNOWN", StopReason.RETRY_AFTER_TOO_LONG));
	}

	@Test
	void whenTheServersWaitDoesNotFitTheTotalBudgetThenTheBackOffStops() {
		BackOffExecution backOff = this.policy.getBackOff().start();
		this.clock.advance(Duration.ofSeconds(2));

		this.policy.shouldRetry(serviceUnavailable("9"));

		assertThat(backOff.nextBackOff()).isEqualTo(BackOffExecution.STOP);
		assertThat(this.listener.events()).containsExactly(
				new StoppedWithoutAttempt("default", "UNKNOWN", StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
	}

	@Test
	void whenTheStatusIsNotRetryableThenThePolicyDoesNotRetry() {
		assertThat(this.policy.shouldRetry(new HttpServerErrorException(HttpStatus.INTERNAL_SERVER_ERROR))).isFalse();
		assertThat(this.policy.shouldRetry(new HttpClientErrorException(HttpStatus.NOT_FOUND))).isFalse();
	}

	@Test
	void whenTheFailureIsNotAnHttpOneThenThePolicyDoesNotRetry() {
		assertThat(this.policy.shouldRetry(new IllegalStateException("not HTTP"))).isFalse();
	}

	@Test
	void whenTheConnectionIsRefusedThenThePolicyRetriesAfterTheBackoff() {
		BackOffExecution backOff = this.policy.getBackOff().start();

		assertThat(this.policy.shouldRetry(new ResourceAccessException("refused", new ConnectException()))).isTrue();
		assertThat(backOff.nextBackOff()).isEqualTo(1000);
	}

	@Test
	void whenTheBackOffIsAskedWithoutAnAcceptedFailureThenItStops() {
		BackOffExecution backOff = this.policy.getBackOff().start();
		this.policy.shouldRetry(new IllegalStateException("not HTTP"));

		assertThat(backOff.nextBackOff()).isEqualTo(BackOffExecution.STOP);
	}

	@Test
	void whenTheInterceptorHandedBackAResponseThenTheWaitEndsNoEarlierThanItsInstant() {
		RetriedInvocation invocation = new RetriedInvocation(this.clock.nanoTime());
		// The interceptor read "Retry-After: 3" at 0; the failure reached the template later
		// and carries no field (a status handler built its own exception).
		invocation.handedBack("default", "GET",
				new AttemptOutcome.Response(503, new RetryAfter.Delay(Duration.ofSeconds(3), RetryAfter.Form.SECONDS)),
				this.clock.nanoTime());
		this.clock.advance(Duration.ofMillis(500));
		try (FrameworkRetryDetector.Scope scope = FrameworkRetryDetector.bind(invocation)) {
			BackOffExecution backOff = this.policy.getBackOff().start();
			this.policy.shouldRetry(new HttpServerErrorException(HttpStatus.SERVICE_UNAVAILABLE));

			assertThat(backOff.nextBackOff()).isEqualTo(2500);
		}
	}

	@Test
	void whenACooldownRefusedTheRequestThenTheBackOffWaitsForTheCooldownsInstant() {
		BackOffExecution backOff = this.policy.getBackOff().start();

		assertThat(this.policy.shouldRetry(refused(StopReason.COOLDOWN, Duration.ofMillis(2500)))).isTrue();
		// Never at once: the local backoff (1 s) is shorter than the cooldown's time left.
		assertThat(backOff.nextBackOff()).isEqualTo(2500);
	}

	@Test
	void whenTheCooldownOutlastsMaxWaitThenTheRefusalIsNotRetried() {
		BackOffExecution backOff = this.policy.getBackOff().start();

		assertThat(this.policy.shouldRetry(refused(StopReason.COOLDOWN, Duration.ofSeconds(120)))).isTrue();

		assertThat(backOff.nextBackOff()).isEqualTo(BackOffExecution.STOP);
		assertThat(this.listener.events())
			.containsExactly(new StoppedWithoutAttempt("default", "UNKNOWN", StopReason.RETRY_AFTER_TOO_LONG));
	}

	@Test
	void whenTheCooldownOutlastsTheTotalBudgetThenTheRefusalIsNotRetried() {
		BackOffExecution backOff = this.policy.getBackOff().start();
		this.clock.advance(Duration.ofSeconds(2));

		this.policy.shouldRetry(refused(StopReason.COOLDOWN, Duration.ofSeconds(9)));

		assertThat(backOff.nextBackOff()).isEqualTo(BackOffExecution.STOP);
		assertThat(this.listener.events()).containsExactly(
				new StoppedWithoutAttempt("default", "UNKNOWN", StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
	}

	@Test
	void whenARequestWasRefusedForAnotherReasonThenItIsNotRetried() {
		assertThat(this.policy.shouldRetry(refused(StopReason.BUDGET_EXHAUSTED, Duration.ZERO))).isFalse();
	}

	@Test
	void whenTheInterceptorSpentItsRetriesOnTheResponseThenThePolicyDoesNotRetryIt() {
		AttemptsSpent.responded(503);

		assertThat(this.policy.shouldRetry(serviceUnavailable("1"))).isFalse();
		// The note is read once: the next failure is the policy's again.
		assertThat(this.policy.shouldRetry(serviceUnavailable("1"))).isTrue();
	}

	@Test
	void whenTheNoteIsAboutAnotherStatusThenThePolicyRetries() {
		AttemptsSpent.responded(429);

		assertThat(this.policy.shouldRetry(serviceUnavailable("1"))).isTrue();
	}

	@Test
	void whenTheInterceptorSpentItsRetriesOnAnIoFailureThenThePolicyDoesNotRetryIt() {
		ConnectException spent = new ConnectException("refused");
		AttemptsSpent.failed(spent);

		assertThat(this.policy.shouldRetry(new ResourceAccessException("refused", spent))).isFalse();
	}

	@Test
	void whenTheNoteIsAboutAnotherIoFailureThenThePolicyRetries() {
		AttemptsSpent.failed(new ConnectException("an earlier one"));

		assertThat(this.policy.shouldRetry(new ResourceAccessException("refused", new ConnectException()))).isTrue();
	}

	@Test
	void waitsAreRoundedUpToWholeMilliseconds() {
		assertThat(DurationMath.ceilMillis(Duration.ofNanos(1_000_001))).isEqualTo(2);
		assertThat(DurationMath.ceilMillis(Duration.ofMillis(7))).isEqualTo(7);
	}

	private RetryAfterRetryPolicy policy(RetrySettings settings) {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(settings.withJitter(0));
		MonotonicClock monotonic = this.clock;
		return new RetryAfterRetryPolicy(new FrameworkRetryContext(clients, new RetryBudgets(clients, monotonic),
				this.listener, monotonic, this.clock, new FixedRandom(0.5)));
	}

	private static ResourceAccessException refused(StopReason reason, Duration timeLeft) {
		return new ResourceAccessException("not sent", new RetryRefusedException("http://127.0.0.1:1", reason, timeLeft));
	}

	private static HttpServerErrorException serviceUnavailable(String retryAfter) {
		HttpHeaders headers = new HttpHeaders();
		headers.put(HttpHeaders.RETRY_AFTER, List.of(retryAfter));
		return HttpServerErrorException.create(HttpStatus.SERVICE_UNAVAILABLE, "Service Unavailable", headers,
				new byte[0], StandardCharsets.UTF_8);
	}

}
