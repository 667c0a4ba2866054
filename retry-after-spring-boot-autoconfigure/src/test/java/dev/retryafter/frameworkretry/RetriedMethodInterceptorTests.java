package dev.retryafter.frameworkretry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettingsCatalog;
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
import dev.retryafter.testsupport.RecordingSleeper;
import org.junit.jupiter.api.Test;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.resilience.retry.MethodRetrySpec;
import org.springframework.resilience.retry.SimpleRetryInterceptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The advice inside Spring Framework's retry advice, on a fake clock: Spring's own
 * {@link SimpleRetryInterceptor} retries a method with no delay; the method plays the HTTP
 * client interceptor, handing an answer back to the invocation bound to its thread.
 */
class RetriedMethodInterceptorTests {

	private final FakeClock clock = new FakeClock();

	private final RecordingSleeper sleeper = new RecordingSleeper(this.clock);

	private final RecordingListener listener = new RecordingListener();

	@Test
	void whenSpringRetriesBeforeTheServersInstantThenEachAttemptIsHeldForTheRestOfIt() {
		Origin origin = new Origin(this.clock, Duration.ofSeconds(1), Duration.ofMillis(100));

		assertThatIllegalStateException().isThrownBy(() -> proxy(origin, RetrySettings.defaults()).call());

		assertThat(origin.calls).isEqualTo(3);
		// Each answer asked for 1 s and the method took 100 ms to fail after it.
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofMillis(900), Duration.ofMillis(900));
		assertThat(origin.distinctInvocations()).isOne();
	}

	@Test
	void whenTheHoldIsLongerThanMaxWaitThenNoAttemptRunsAndThePreviousFailureIsThrownAgain() {
		Origin origin = new Origin(this.clock, Duration.ofSeconds(120), Duration.ZERO);

		assertThatIllegalStateException().isThrownBy(() -> proxy(origin, RetrySettings.defaults()).call())
			.withMessage("503 from attempt 1");

		assertThat(origin.calls).isOne();
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.events()).containsExactly(
				new StoppedWithoutAttempt("default", "GET", StopReason.RETRY_AFTER_TOO_LONG),
				new StoppedWithoutAttempt("default", "GET", StopReason.RETRY_AFTER_TOO_LONG));
	}

	@Test
	void whenTheMethodIsCalledAgainThenItIsANewInvocationWithNothingToHold() {
		Origin origin = new Origin(this.clock, Duration.ofSeconds(1), Duration.ZERO);
		Reports reports = proxy(origin, RetrySettings.defaults());
		assertThatIllegalStateException().isThrownBy(reports::call);
		int sleeps = this.sleeper.sleeps().size();
		this.clock.advance(Duration.ofMillis(10));

		assertThatIllegalStateException().isThrownBy(reports::call);

		assertThat(origin.distinctInvocations()).isEqualTo(2);
		// The second call's first attempt is not held for the first call's answer.
		assertThat(this.sleeper.sleeps()).hasSize(sleeps + 2);
		assertThat(origin.calls).isEqualTo(6);
	}

	@Test
	void outsideTheAdviceNoInvocationIsBound() {
		Origin origin = new Origin(this.clock, Duration.ofSeconds(1), Duration.ZERO);
		assertThatIllegalStateException().isThrownBy(() -> proxy(origin, RetrySettings.defaults()).call());

		assertThat(FrameworkRetryDetector.current()).isNull();
	}

	private Reports proxy(Reports target, RetrySettings settings) {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(settings);
		MonotonicClock monotonic = this.clock;
		FrameworkRetryContext retries = new FrameworkRetryContext(clients, new RetryBudgets(clients, monotonic), this.listener,
				monotonic, this.clock, new FixedRandom(0.5));
		ProxyFactory factory = new ProxyFactory(target);
		factory.addInterface(Reports.class);
		factory.addAdvice(new SimpleRetryInterceptor(
				new MethodRetrySpec((method, failure) -> failure instanceof IllegalStateException, 2, Duration.ZERO)));
		factory.addAdvice(new RetriedMethodInterceptor(() -> retries, this.sleeper));
		return (Reports) factory.getProxy();
	}

	interface Reports {

		String call();

	}

	/**
	 * Plays the interceptor: every attempt gets a 503 asking for {@code retryAfter}, handed
	 * back to the bound invocation, then fails {@code failsAfter} later.
	 */
	static final class Origin implements Reports {

		private final FakeClock clock;

		private final Duration retryAfter;

		private final Duration failsAfter;

		private final List<RetriedInvocation> invocations = new ArrayList<>();

		int calls;

		Origin(FakeClock clock, Duration retryAfter, Duration failsAfter) {
			this.clock = clock;
			this.retryAfter = retryAfter;
			this.failsAfter = failsAfter;
		}

		@Override
		public String call() {
			this.calls++;
			RetriedInvocation invocation = FrameworkRetryDetector.current();
			this.invocations.add(invocation);
			invocation.handedBack("default", "GET",
					new AttemptOutcome.Response(503, new RetryAfter.Delay(this.retryAfter, RetryAfter.Form.SECONDS)),
					this.clock.nanoTime());
			this.clock.advance(this.failsAfter);
			throw new IllegalStateException("503 from attempt " + this.calls);
		}

		long distinctInvocations() {
			return this.invocations.stream().distinct().count();
		}

	}

}
