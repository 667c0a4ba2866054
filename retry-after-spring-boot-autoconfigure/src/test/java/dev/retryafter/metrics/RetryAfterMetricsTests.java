package dev.retryafter.metrics;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.DelaySource;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryAfterMetrics}.
 */
class RetryAfterMetricsTests {

	private static final AttemptOutcome TOO_MANY = new AttemptOutcome.Response(429,
			new RetryAfter.Delay(Duration.ofSeconds(2), RetryAfter.Form.SECONDS));

	private static final AttemptOutcome OK = new AttemptOutcome.Response(200, RetryAfter.ABSENT);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, new MockClock());

	private final RetryAfterMetrics metrics = new RetryAfterMetrics(this.registry);

	@Test
	void whenRetryPlannedThenAttemptCountedAsRetriedAndPlannedDelayRecorded() {
		this.metrics.attemptCompleted("default", "GET", 1, TOO_MANY, new RetryDecision.Retry(Duration.ofMillis(2300),
				Duration.ofSeconds(2), DelaySource.RETRY_AFTER_SECONDS));
		assertThat(attempts("default", "GET", "429", "retried")).isEqualTo(1.0);
		Timer planned = this.registry.get("http.client.retry.delay.planned")
			.tags("client", "default", "source", "retry-after-seconds")
			.timer();
		assertThat(planned.count()).isEqualTo(1);
		assertThat(planned.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(2300.0);
		assertThat(this.registry.find("http.client.retry.abandoned").meters()).isEmpty();
	}

	@Test
	void whenSuccessThenAttemptCountedAsSuccessAndNothingAbandoned() {
		this.metrics.attemptCompleted("payments", "POST", 2, OK, new RetryDecision.Stop(StopReason.SUCCESS));
		assertThat(attempts("payments", "POST", "200", "success")).isEqualTo(1.0);
		assertThat(this.registry.find("http.client.retry.abandoned").meters()).isEmpty();
		assertThat(this.registry.find("http.client.retry.delay.planned").meters()).isEmpty();
	}

	@Test
	void whenNotRetryableThenAttemptCountedAsNotRetryableAndNothingAbandoned() {
		this.metrics.attemptCompleted("default", "GET", 1, new AttemptOutcome.Response(500, RetryAfter.ABSENT),
				new RetryDecision.Stop(StopReason.NOT_RETRYABLE));
		assertThat(attempts("default", "GET", "500", "not-retryable")).isEqualTo(1.0);
		assertThat(this.registry.find("http.client.retry.abandoned").meters()).isEmpty();
	}

	@Test
	void whenHandedToAnOuterRetryThenAttemptCountedAsRetriedWithoutDelayOrAbandonment() {
		this.metrics.attemptCompleted("default", "GET", 1, TOO_MANY, new RetryDecision.Stop(StopReason.OUTER_RETRY));
		assertThat(attempts("default", "GET", "429", "retried")).isEqualTo(1.0);
		assertThat(this.registry.getMeters()).hasSize(1);
	}

	@Test
	void whenIoFailureThenStatusTagIsIoError() {
		this.metrics.attemptCompleted("default", "GET", 1, new AttemptOutcome.IoFailure(IoFailureKind.CONNECT_REFUSED),
				new RetryDecision.Retry(Duration.ofSeconds(1), Duration.ofSeconds(1), DelaySource.BACKOFF));
		this.metrics.attemptCompleted("default", "GET", 2, new AttemptOutcome.IoFailure(IoFailureKind.UNKNOWN_HOST),
				new RetryDecision.Stop(StopReason.NOT_RETRYABLE));
		assertThat(attempts("default", "GET", "IO_ERROR", "retried")).isEqualTo(1.0);
		assertThat(attempts("default", "GET", "IO_ERROR", "not-retryable")).isEqualTo(1.0);
		assertThat(this.registry.get("http.client.retry.delay.planned")
			.tags("client", "default", "source", "backoff")
			.timer()
			.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(1000.0);
	}

	@ParameterizedTest
	@MethodSource("abandonments")
	void whenAttemptAbandonedThenAttemptAndReasonCounted(StopReason reason) {
		this.metrics.attemptCompleted("default", "GET", 3, TOO_MANY, new RetryDecision.Stop(reason));
		this.metrics.attemptCompleted("default", "GET", 3, TOO_MANY, new RetryDecision.Stop(reason));
		assertThat(attempts("default", "GET", "429", "abandoned")).isEqualTo(2.0);
		assertThat(this.registry.get("http.client.retry.abandoned")
			.tags("client", "default", "reason", reason.tagValue())
			.counter()
			.count()).isEqualTo(2.0);
		assertThat(this.registry.find("http.client.retry.abandoned").meters()).hasSize(1);
	}

	@ParameterizedTest
	@MethodSource("abandonments")
	void whenStoppedWithoutAttemptThenOnlyReasonCounted(StopReason reason) {
		this.metrics.stoppedWithoutAttempt("catalog", "DELETE", reason);
		assertThat(this.registry.get("http.client.retry.abandoned")
			.tags("client", "catalog", "reason", reason.tagValue())
			.counter()
			.count()).isEqualTo(1.0);
		assertThat(this.registry.find("http.client.retry.attempts").meters()).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(value = StopReason.class, names = { "SUCCESS", "NOT_RETRYABLE", "OUTER_RETRY" })
	void whenStoppedWithoutAttemptForNormalEndThenNothingCounted(StopReason reason) {
		this.metrics.stoppedWithoutAttempt("default", "GET", reason);
		assertThat(this.registry.getMeters()).isEmpty();
	}

	@Test
	void shouldTagEveryAbandonmentReasonWithTheSpecValue() {
		for (StopReason reason : abandonments().toList()) {
			this.metrics.stoppedWithoutAttempt("default", "GET", reason);
		}
		assertThat(this.registry.find("http.client.retry.abandoned").counters()).map((counter) -> counter.getId()
			.getTag("reason"))
			.containsExactlyInAnyOrder("max-attempts", "budget-exhausted", "retry-after-exceeds-budget",
					"retry-after-too-long", "invalid-retry-after", "non-idempotent", "retry-budget", "interrupted",
					"cooldown", "cancelled", "server-said-no-retry");
	}

	@Test
	void whenWaitedThenActualDelayRecordedPerClient() {
		this.metrics.waited("default", Duration.ofMillis(1200), Duration.ofMillis(1203));
		this.metrics.waited("default", Duration.ofMillis(500), Duration.ofMillis(501));
		this.metrics.waited("payments", Duration.ofSeconds(1), Duration.ofMillis(1004));
		Timer defaultActual = this.registry.get("http.client.retry.delay.actual").tags("client", "default").timer();
		assertThat(defaultActual.count()).isEqualTo(2);
		assertThat(defaultActual.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(1704.0);
		assertThat(defaultActual.max(TimeUnit.MILLISECONDS)).isEqualTo(1203.0);
		assertThat(this.registry.get("http.client.retry.delay.actual")
			.tags("client", "payments")
			.timer()
			.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(1004.0);
	}

	@Test
	void whenHeldThenHoldTimeRecordedPerClientOnly() {
		Origin origin = Origin.of("https", "api.example.com", -1);
		this.metrics.held("default", "GET", CooldownKey.of(origin), Duration.ofMillis(1250));
		this.metrics.held("default", "POST", new CooldownKey(origin, "0123456789abcdef0123456789abcdef"),
				Duration.ofMillis(750));
		this.metrics.held("payments", "GET", CooldownKey.of(Origin.of("http", "127.0.0.1", 8080)),
				Duration.ofMillis(40));
		Timer defaultHeld = this.registry.get("http.client.retry.cooldown.held").tags("client", "default").timer();
		assertThat(defaultHeld.count()).isEqualTo(2);
		assertThat(defaultHeld.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(2000.0);
		assertThat(defaultHeld.max(TimeUnit.MILLISECONDS)).isEqualTo(1250.0);
		Timer paymentsHeld = this.registry.get("http.client.retry.cooldown.held").tags("client", "payments").timer();
		assertThat(paymentsHeld.count()).isEqualTo(1);
		assertThat(paymentsHeld.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(40.0);
		assertThat(tagKeys("http.client.retry.cooldown.held")).containsExactly("client", "reason");
		assertThat(this.registry.find("http.client.retry.cooldown.held").timers()).hasSize(2);
		assertThat(paymentsHeld.getId().getTag("reason")).isEqualTo("cooldown");
		assertThat(paymentsHeld.getId().getDescription())
			.isEqualTo("Time a request was held before it was sent, by why it was held: a cooldown, its release window, a paced slot or a quota slot");
		assertThat(paymentsHeld.getId().getType()).isEqualTo(Meter.Type.TIMER);
	}

	@Test
	void whenHeldForAQuotaOrAPaceThenTheReasonTagSaysWhich() {
		CooldownKey key = CooldownKey.of(Origin.of("https", "api.example.com", -1));
		this.metrics.held("default", "GET", key, Duration.ofMillis(20), HoldReason.QUOTA);
		this.metrics.held("default", "GET", key, Duration.ofMillis(30), HoldReason.QUOTA);
		this.metrics.held("default", "GET", key, Duration.ofMillis(50), HoldReason.PACING);
		this.metrics.held("default", "GET", key, Duration.ofMillis(70), HoldReason.COOLDOWN);

		assertThat(this.registry.get("http.client.retry.cooldown.held").tags("client", "default", "reason", "quota")
			.timer()
			.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(50.0);
		assertThat(this.registry.get("http.client.retry.cooldown.held").tags("client", "default", "reason", "pacing")
			.timer()
			.count()).isEqualTo(1);
		assertThat(this.registry.get("http.client.retry.cooldown.held")
			.tags("client", "default", "reason", "cooldown")
			.timer()
			.count()).isEqualTo(1);
	}

	@Test
	void shouldRecordEachPlannedSourceSeparately() {
		for (DelaySource source : DelaySource.values()) {
			this.metrics.attemptCompleted("default", "GET", 1, TOO_MANY,
					new RetryDecision.Retry(Duration.ofSeconds(3), Duration.ofSeconds(3), source));
		}
		assertThat(this.registry.find("http.client.retry.delay.planned").timers()).map((timer) -> timer.getId()
			.getTag("source")).containsExactlyInAnyOrder("retry-after-seconds", "retry-after-date", "retry-after-ms",
					"quota-reset", "backoff");
		assertThat(attempts("default", "GET", "429", "retried")).isEqualTo(DelaySource.values().length);
	}

	@ParameterizedTest
	@CsvSource({ "GET,GET", "get,GET", "HEAD,HEAD", "POST,POST", "PUT,PUT", "PATCH,PATCH", "DELETE,DELETE",
			"OPTIONS,OPTIONS", "TRACE,TRACE", "PROPFIND,OTHER", "CONNECT,OTHER", "X-ANYTHING-123,OTHER" })
	void shouldBoundMethodTag(String method, String tag) {
		this.metrics.attemptCompleted("default", method, 1, OK, new RetryDecision.Stop(StopReason.SUCCESS));
		assertThat(this.registry.get("http.client.retry.attempts").counter().getId().getTag("method")).isEqualTo(tag);
	}

	@Test
	void shouldUseExactlyTheSpecTagKeys() {
		this.metrics.attemptCompleted("default", "GET", 1, TOO_MANY,
				new RetryDecision.Retry(Duration.ofSeconds(2), Duration.ofSeconds(2), DelaySource.RETRY_AFTER_DATE));
		this.metrics.attemptCompleted("default", "GET", 2, TOO_MANY, new RetryDecision.Stop(StopReason.MAX_ATTEMPTS));
		this.metrics.waited("default", Duration.ofSeconds(2), Duration.ofSeconds(2));
		assertThat(tagKeys("http.client.retry.attempts")).containsExactly("client", "method", "outcome", "status");
		assertThat(tagKeys("http.client.retry.delay.planned")).containsExactly("client", "source");
		assertThat(tagKeys("http.client.retry.delay.actual")).containsExactly("client");
		assertThat(tagKeys("http.client.retry.abandoned")).containsExactly("client", "reason");
	}

	@Test
	void shouldDescribeEveryMeterAndUseTheSpecTypes() {
		this.metrics.attemptCompleted("default", "GET", 1, TOO_MANY,
				new RetryDecision.Retry(Duration.ofSeconds(2), Duration.ofSeconds(2), DelaySource.BACKOFF));
		this.metrics.attemptCompleted("default", "GET", 2, TOO_MANY, new RetryDecision.Stop(StopReason.MAX_ATTEMPTS));
		this.metrics.waited("default", Duration.ofSeconds(2), Duration.ofSeconds(2));
		String attempts = "http.client.retry.attempts COUNTER "
				+ "HTTP client attempts seen by the retry policy, by what the policy did next";
		assertThat(this.registry.getMeters()).map((meter) -> meter.getId().getName() + " " + meter.getId().getType()
				+ " " + meter.getId().getDescription())
			.containsExactlyInAnyOrder(attempts, attempts,
					"http.client.retry.delay.planned TIMER Waits planned before a retry, by the term that set the wait",
					"http.client.retry.delay.actual TIMER "
							+ "Time actually waited before a retry, measured on the monotonic clock",
					"http.client.retry.abandoned COUNTER Requests whose retrying was given up, by reason");
	}

	@Test
	void whenTheSameSeriesRecursThenEachCountLandsOnTheOneMeter() {
		for (int i = 0; i < 3; i++) {
			this.metrics.attemptCompleted("default", "GET", 1, OK, new RetryDecision.Stop(StopReason.SUCCESS));
			this.metrics.attemptCompleted("default", "get", 1, OK, new RetryDecision.Stop(StopReason.SUCCESS));
			this.metrics.attemptCompleted("payments", "GET", 1, OK, new RetryDecision.Stop(StopReason.SUCCESS));
			this.metrics.attemptCompleted("default", "GET", 1, TOO_MANY,
					new RetryDecision.Retry(Duration.ofSeconds(2), Duration.ofSeconds(2), DelaySource.BACKOFF));
			this.metrics.waited("default", Duration.ofSeconds(2), Duration.ofSeconds(3));
			this.metrics.stoppedWithoutAttempt("default", "GET", StopReason.COOLDOWN);
			this.metrics.held("default", "GET", CooldownKey.of(Origin.of("http", "127.0.0.1", 8080)),
					Duration.ofMillis(10));
		}
		assertThat(attempts("default", "GET", "200", "success")).isEqualTo(6.0);
		assertThat(attempts("payments", "GET", "200", "success")).isEqualTo(3.0);
		assertThat(attempts("default", "GET", "429", "retried")).isEqualTo(3.0);
		assertThat(this.registry.get("http.client.retry.delay.planned")
			.tags("client", "default", "source", "backoff")
			.timer()
			.count()).isEqualTo(3);
		assertThat(this.registry.get("http.client.retry.delay.actual").tags("client", "default").timer().count())
			.isEqualTo(3);
		assertThat(this.registry.get("http.client.retry.abandoned")
			.tags("client", "default", "reason", "cooldown")
			.counter()
			.count()).isEqualTo(3.0);
		Timer held = this.registry.get("http.client.retry.cooldown.held").tags("client", "default").timer();
		assertThat(held.count()).isEqualTo(3);
		assertThat(held.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(30.0);
		assertThat(this.registry.getMeters()).hasSize(7);
	}

	@Test
	void whenClientsAndMethodsArriveAsEqualButDistinctStringsThenEachCountLandsOnItsSeries() {
		// Strings built at run time, not the literals the adapters pass: found by value.
		String payments = new StringBuilder("pay").append("ments").toString();
		String get = new StringBuilder("G").append("ET").toString();
		String post = new StringBuilder("PO").append("ST").toString();
		for (int i = 0; i < 2; i++) {
			this.metrics.attemptCompleted(payments, get, 1, OK, new RetryDecision.Stop(StopReason.SUCCESS));
			this.metrics.attemptCompleted("default", get, 1, OK, new RetryDecision.Stop(StopReason.SUCCESS));
			this.metrics.attemptCompleted(new String(payments), post, 1, OK,
					new RetryDecision.Stop(StopReason.SUCCESS));
			this.metrics.attemptCompleted("payments", "GET", 1, OK, new RetryDecision.Stop(StopReason.SUCCESS));
		}
		assertThat(attempts("payments", "GET", "200", "success")).isEqualTo(4.0);
		assertThat(attempts("payments", "POST", "200", "success")).isEqualTo(2.0);
		assertThat(attempts("default", "GET", "200", "success")).isEqualTo(2.0);
		assertThat(this.registry.getMeters()).hasSize(3);
	}

	@Test
	void whenSharedInputsAlternateWithOtherSeriesThenEachCountLandsOnItsOwnSeries() {
		// The first success's very inputs, then other statuses, methods, decisions and
		// clients with equal-looking but distinct inputs, interleaved.
		AttemptOutcome ok = new AttemptOutcome.Response(200, RetryAfter.ABSENT);
		RetryDecision.Stop success = new RetryDecision.Stop(StopReason.SUCCESS);
		for (int i = 0; i < 3; i++) {
			this.metrics.attemptCompleted("default", "GET", 1, ok, success);
			this.metrics.attemptCompleted("default", "GET", 1, new AttemptOutcome.Response(200, RetryAfter.ABSENT),
					new RetryDecision.Stop(StopReason.SUCCESS));
			this.metrics.attemptCompleted("default", "POST", 1, ok, success);
			this.metrics.attemptCompleted("default", "GET", 1, new AttemptOutcome.Response(204, RetryAfter.ABSENT),
					success);
			this.metrics.attemptCompleted("default", "GET", 2, ok, new RetryDecision.Stop(StopReason.NOT_RETRYABLE));
			this.metrics.attemptCompleted("payments", "GET", 1, ok, success);
			this.metrics.attemptCompleted("default", "GET", 1, TOO_MANY,
					new RetryDecision.Stop(StopReason.MAX_ATTEMPTS));
		}
		assertThat(attempts("default", "GET", "200", "success")).isEqualTo(6.0);
		assertThat(attempts("default", "POST", "200", "success")).isEqualTo(3.0);
		assertThat(attempts("default", "GET", "204", "success")).isEqualTo(3.0);
		assertThat(attempts("default", "GET", "200", "not-retryable")).isEqualTo(3.0);
		assertThat(attempts("payments", "GET", "200", "success")).isEqualTo(3.0);
		assertThat(attempts("default", "GET", "429", "abandoned")).isEqualTo(3.0);
		assertThat(this.registry.get("http.client.retry.abandoned")
			.tags("client", "default", "reason", "max-attempts")
			.counter()
			.count()).isEqualTo(3.0);
		assertThat(this.registry.getMeters()).hasSize(7);
	}

	private double attempts(String client, String method, String status, String outcome) {
		return this.registry.get("http.client.retry.attempts")
			.tags("client", client, "method", method, "status", status, "outcome", outcome)
			.counter()
			.count();
	}

	@ParameterizedTest
	@CsvSource({ "100,100", "599,599", "99,99", "600,600", "999,999" })
	void whenAStatusRecursThenItIsTaggedWithItsCodeEachTime(int status, String tag) {
		AttemptOutcome outcome = new AttemptOutcome.Response(status, RetryAfter.ABSENT);
		this.metrics.attemptCompleted("default", "GET", 1, outcome, new RetryDecision.Stop(StopReason.NOT_RETRYABLE));
		this.metrics.attemptCompleted("default", "GET", 1, outcome, new RetryDecision.Stop(StopReason.NOT_RETRYABLE));
		assertThat(attempts("default", "GET", tag, "not-retryable")).isEqualTo(2.0);
	}

	private String[] tagKeys(String name) {
		return this.registry.get(name)
			.meter()
			.getId()
			.getTags()
			.stream()
			.map(Tag::getKey)
			.sorted()
			.toArray(String[]::new);
	}

	static Stream<StopReason> abandonments() {
		return Arrays.stream(StopReason.values()).filter(StopReason::isAbandonment);
	}

}
