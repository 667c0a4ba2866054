package dev.retryafter.spi;

import java.time.Duration;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.DelaySource;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.testsupport.FakeClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hold before an outer layer's next attempt, on a fake clock: exactly the time left to
 * the instant the last handed-back response's {@code Retry-After} asked for, or an
 * abandonment with the planner's reason when that does not fit.
 */
class RetriedInvocationTests {

	private final FakeClock clock = new FakeClock();

	private final RetrySettings settings = RetrySettings.defaults();

	@Test
	void whenNothingWasHandedBackThenTheNextAttemptGoesAtOnce() {
		RetriedInvocation invocation = new RetriedInvocation(this.clock.nanoTime());

		assertThat(invocation.beforeNextAttempt(this.settings, this.clock.nanoTime())).isNull();
	}

	@Test
	void whenTheOuterLayerComesBackEarlyThenItIsHeldExactlyUntilTheInstant() {
		RetriedInvocation invocation = new RetriedInvocation(this.clock.nanoTime());
		invocation.handedBack("default", "GET", serverAsked(Duration.ofSeconds(1)), this.clock.nanoTime());
		this.clock.advance(Duration.ofMillis(100));

		assertThat(invocation.beforeNextAttempt(this.settings, this.clock.nanoTime())).isEqualTo(
				new RetryDecision.Retry(Duration.ofMillis(900), Duration.ofMillis(900), DelaySource.RETRY_AFTER_SECONDS));
	}

	@Test
	void whenTheOuterLayerComesBackAtTheInstantThenNothingHoldsIt() {
		RetriedInvocation invocation = new RetriedInvocation(this.clock.nanoTime());
		invocation.handedBack("default", "GET", serverAsked(Duration.ofSeconds(1)), this.clock.nanoTime());
		this.clock.advance(Duration.ofSeconds(1));

		assertThat(invocation.beforeNextAttempt(this.settings, this.clock.nanoTime())).isNull();
	}

	@Test
	void whenTheHoldIsLongerThanMaxWaitThenTheAttemptIsAbandoned() {
		RetriedInvocation invocation = new RetriedInvocation(this.clock.nanoTime());
		invocation.handedBack("default", "GET", serverAsked(Duration.ofSeconds(120)), this.clock.nanoTime());
		this.clock.advance(Duration.ofMillis(100));

		assertThat(invocation.beforeNextAttempt(this.settings, this.clock.nanoTime()))
			.isEqualTo(new RetryDecision.Stop(StopReason.RETRY_AFTER_TOO_LONG));
	}

	@Test
	void whenTheHoldDoesNotFitTheTotalBudgetThenTheAttemptIsAbandoned() {
		RetriedInvocation invocation = new RetriedInvocation(this.clock.nanoTime());
		this.clock.advance(Duration.ofSeconds(2));
		// 2 s spent of 10 s: 8 s left, minus the 0.5 s reserve, and the server asks for 9 s.
		invocation.handedBack("default", "GET", serverAsked(Duration.ofSeconds(9)), this.clock.nanoTime());
		this.clock.advance(Duration.ofMillis(100));

		assertThat(invocation.beforeNextAttempt(this.settings, this.clock.nanoTime()))
			.isEqualTo(new RetryDecision.Stop(StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
	}

	@Test
	void whenTheHandedBackOutcomeHasNoRetryAfterThenNothingHoldsTheNextAttempt() {
		RetriedInvocation invocation = new RetriedInvocation(this.clock.nanoTime());
		invocation.handedBack("default", "GET", new AttemptOutcome.Response(503, RetryAfter.ABSENT),
				this.clock.nanoTime());
		invocation.handedBack("default", "GET", new AttemptOutcome.IoFailure(IoFailureKind.CONNECT_REFUSED),
				this.clock.nanoTime());

		assertThat(invocation.beforeNextAttempt(this.settings, this.clock.nanoTime())).isNull();
	}

	@Test
	void whenTwoResponsesInOneAttemptAskForDifferentInstantsThenTheLaterHolds() {
		RetriedInvocation invocation = new RetriedInvocation(this.clock.nanoTime());
		invocation.handedBack("default", "GET", serverAsked(Duration.ofSeconds(3)), this.clock.nanoTime());
		invocation.handedBack("default", "GET", serverAsked(Duration.ofSeconds(1)), this.clock.nanoTime());

		RetryDecision decision = invocation.beforeNextAttempt(this.settings, this.clock.nanoTime());

		assertThat(decision).isInstanceOfSatisfying(RetryDecision.Retry.class,
				(hold) -> assertThat(hold.delay()).isEqualTo(Duration.ofSeconds(3)));
	}

	@Test
	void whenAnAnswerWithoutRetryAfterFollowsOneWithItThenTheEarlierInstantStillHolds() {
		RetriedInvocation invocation = new RetriedInvocation(this.clock.nanoTime());
		invocation.handedBack("default", "GET", serverAsked(Duration.ofSeconds(2)), this.clock.nanoTime());
		this.clock.advance(Duration.ofMillis(500));
		invocation.handedBack("default", "GET", new AttemptOutcome.Response(503, RetryAfter.ABSENT),
				this.clock.nanoTime());

		RetryDecision decision = invocation.beforeNextAttempt(this.settings, this.clock.nanoTime());

		assertThat(decision).isInstanceOfSatisfying(RetryDecision.Retry.class,
				(hold) -> assertThat(hold.delay()).isEqualTo(Duration.ofMillis(1500)));
	}

	private static AttemptOutcome serverAsked(Duration delay) {
		return new AttemptOutcome.Response(503, new RetryAfter.Delay(delay, RetryAfter.Form.SECONDS));
	}

}
