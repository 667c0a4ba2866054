package dev.retryafter.test;

import java.time.Duration;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.DelaySource;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.test.RetryRecorder.Attempt;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * {@link RetryRecorder}: each listener event lands in the list a test asserts on.
 */
class RetryRecorderTests {

	private static final CooldownKey KEY = CooldownKey.of(Origin.of("https", "api.example.com", 443));

	private final RetryRecorder recorder = new RetryRecorder();

	@Test
	void anAttemptRetriedAfterAWaitRecordsThePlannedWaitAndAStoppedOneItsReason() {
		this.recorder.attemptCompleted("default", "GET", 1, new AttemptOutcome.IoFailure(IoFailureKind.READ_TIMEOUT),
				new RetryDecision.Retry(Duration.ofMillis(1100), Duration.ofSeconds(1), DelaySource.BACKOFF));
		this.recorder.attemptCompleted("default", "GET", 2, new AttemptOutcome.Response(200, RetryAfter.ABSENT),
				new RetryDecision.Stop(StopReason.SUCCESS));

		assertThat(this.recorder.attempts()).extracting(Attempt::number, Attempt::status)
			.containsExactly(tuple(1, null), tuple(2, 200));
		assertThat(this.recorder.waits()).containsExactly(Duration.ofMillis(1100));
		assertThat(this.recorder.stopReasons()).containsExactly(StopReason.SUCCESS);
	}

	@Test
	void aStopWithoutAnAttemptAndAHoldAreRecordedToo() {
		this.recorder.held("payments", "POST", KEY, Duration.ofSeconds(4), HoldReason.PACING);
		this.recorder.stoppedWithoutAttempt("payments", "POST", StopReason.COOLDOWN);

		assertThat(this.recorder.holds())
			.containsExactly(new RetryRecorder.Hold("payments", "POST", KEY, Duration.ofSeconds(4), HoldReason.PACING));
		assertThat(this.recorder.stopReasons()).containsExactly(StopReason.COOLDOWN);
	}

	@Test
	void clearForgetsEverything() {
		this.recorder.held("default", "GET", KEY, Duration.ofSeconds(1), HoldReason.COOLDOWN);
		this.recorder.stoppedWithoutAttempt("default", "GET", StopReason.INTERRUPTED);

		this.recorder.clear();

		assertThat(this.recorder.attempts()).isEmpty();
		assertThat(this.recorder.waits()).isEmpty();
		assertThat(this.recorder.holds()).isEmpty();
		assertThat(this.recorder.stopReasons()).isEmpty();
	}

}
