package dev.retryafter.core;

import java.time.Duration;
import java.util.Set;

import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.header.ServerHints;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;

import dev.retryafter.core.AttemptOutcome.Response;
import dev.retryafter.core.RetryDecision.Retry;
import dev.retryafter.core.RetryDecision.Stop;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryPlanner}'s reading of millisecond hints, server verdicts and
 * rate-limited 403s. Default settings; the random source returns 0.5, so a wait is exactly
 * {@code base x 1.1}.
 */
class RetryPlannerHintsTests {

	private static final RetrySettings DEFAULTS = RetrySettings.defaults();

	private static final RequestFacts GET = RequestFacts.of("GET");

	private static final RequestFacts POST = RequestFacts.of("POST");

	private static RetryDecision decide(RetrySettings settings, RequestFacts request, AttemptOutcome outcome) {
		return RetryPlanner.decide(settings, request, outcome, 1, Duration.ZERO, RetryPermits.UNLIMITED,
				new FixedRandom(0.5));
	}

	private static RetryDecision decide(RequestFacts request, AttemptOutcome outcome) {
		return decide(DEFAULTS, request, outcome);
	}

	private static ServerHints verdict(ServerHints.Verdict verdict) {
		return new ServerHints(null, verdict, false);
	}

	private static Response withMillis(int status, RetryAfter retryAfter, long millis) {
		ServerHints hints = new ServerHints(Duration.ofMillis(millis), ServerHints.Verdict.NONE, false);
		return new Response(status, ServerHints.combine(retryAfter, hints), hints);
	}

	private static RetryAfter.Delay seconds(long seconds) {
		return new RetryAfter.Delay(Duration.ofSeconds(seconds), RetryAfter.Form.SECONDS);
	}

	private static RetrySettings forbiddenRuleOff() {
		RetrySettings.Header h = DEFAULTS.header();
		return DEFAULTS.withHeader(new RetrySettings.Header(h.maxWait(), h.onInvalid(), h.dateReference(), true,
				true, false));
	}

	@Test
	void whenMillisecondHint1500AloneThenWaitIsPlannedFromExactly1500() {
		assertThat(decide(GET, withMillis(429, RetryAfter.ABSENT, 1500)))
			.isEqualTo(new Retry(Duration.ofMillis(1650), Duration.ofMillis(1500), DelaySource.RETRY_AFTER_MS));
	}

	@Test
	void whenRetryAfterOneAndHint1500ThenBaseIs1500FromTheHint() {
		assertThat(decide(GET, withMillis(503, seconds(1), 1500)))
			.isEqualTo(new Retry(Duration.ofMillis(1650), Duration.ofMillis(1500), DelaySource.RETRY_AFTER_MS));
	}

	@Test
	void whenRetryAfterFiveAndHint100ThenBaseIsFiveSeconds() {
		assertThat(decide(GET, withMillis(429, seconds(5), 100)))
			.isEqualTo(new Retry(Duration.ofMillis(5500), Duration.ofSeconds(5), DelaySource.RETRY_AFTER_SECONDS));
	}

	@Test
	void whenMillisecondHintOverMaxWaitThenAbandonedNotShortened() {
		assertThat(decide(GET, withMillis(429, RetryAfter.ABSENT, 61_000)))
			.isEqualTo(new Stop(StopReason.RETRY_AFTER_TOO_LONG));
	}

	@Test
	void whenSaturatedMillisecondHintThenAbandonedAsTooLong() {
		ServerHints hints = new ServerHints(ServerHints.parseMillis("99999999999999999999"),
				ServerHints.Verdict.NONE, false);
		assertThat(decide(GET, new Response(429, ServerHints.combine(RetryAfter.ABSENT, hints), hints)))
			.isEqualTo(new Stop(StopReason.RETRY_AFTER_TOO_LONG));
	}

	@Test
	void whenMillisecondHintDoesNotFitBudgetThenAbandonedWithReason() {
		assertThat(decide(GET, withMillis(429, RetryAfter.ABSENT, 9_600)))
			.isEqualTo(new Stop(StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
	}

	@Test
	void whenVerdictFalseOnRetryableStatusThenStopsWithItsOwnReason() {
		assertThat(decide(GET, new Response(503, seconds(1), verdict(ServerHints.Verdict.NO_RETRY))))
			.isEqualTo(new Stop(StopReason.SERVER_SAID_NO_RETRY));
	}

	@Test
	void whenVerdictFalseOnSuccessThenPlainSuccess() {
		assertThat(decide(GET, new Response(200, RetryAfter.ABSENT, verdict(ServerHints.Verdict.NO_RETRY))))
			.isEqualTo(new Stop(StopReason.SUCCESS));
	}

	@Test
	void whenVerdictTrueOn409GetThenRetriedAfterBackoff() {
		assertThat(decide(GET, new Response(409, RetryAfter.ABSENT, verdict(ServerHints.Verdict.RETRY))))
			.isEqualTo(new Retry(Duration.ofMillis(1100), Duration.ofSeconds(1), DelaySource.BACKOFF));
	}

	@Test
	void whenVerdictTrueOnPostWithoutKeyThenNotRepeatable() {
		assertThat(decide(POST, new Response(503, RetryAfter.ABSENT, verdict(ServerHints.Verdict.RETRY))))
			.isEqualTo(new Stop(StopReason.NON_IDEMPOTENT));
	}

	@Test
	void whenVerdictTrueOnSuccessThenNotRetried() {
		assertThat(decide(GET, new Response(200, RetryAfter.ABSENT, verdict(ServerHints.Verdict.RETRY))))
			.isEqualTo(new Stop(StopReason.SUCCESS));
	}

	@Test
	void when403WithRetryAfterThenRetriedAsRateLimited() {
		assertThat(decide(GET, new Response(403, seconds(2))))
			.isEqualTo(new Retry(Duration.ofMillis(2200), Duration.ofSeconds(2), DelaySource.RETRY_AFTER_SECONDS));
	}

	@Test
	void when403WithMillisecondHintThenRetriedAsRateLimited() {
		assertThat(decide(GET, withMillis(403, RetryAfter.ABSENT, 1500)))
			.isEqualTo(new Retry(Duration.ofMillis(1650), Duration.ofMillis(1500), DelaySource.RETRY_AFTER_MS));
	}

	@Test
	void when403WithSpentQuotaAndNoDelayThenRetriedAfterBackoff() {
		Response spent = new Response(403, RetryAfter.ABSENT, new ServerHints(null, ServerHints.Verdict.NONE, true));
		assertThat(decide(GET, spent))
			.isEqualTo(new Retry(Duration.ofMillis(1100), Duration.ofSeconds(1), DelaySource.BACKOFF));
	}

	@Test
	void whenPlain403ThenNeverRetried() {
		assertThat(decide(GET, new Response(403, RetryAfter.ABSENT))).isEqualTo(new Stop(StopReason.NOT_RETRYABLE));
		assertThat(decide(GET, new Response(403, new RetryAfter.Invalid("x"))))
			.isEqualTo(new Stop(StopReason.NOT_RETRYABLE));
	}

	@Test
	void whenRateLimitedForbiddenOffThen403NotRetried() {
		assertThat(decide(forbiddenRuleOff(), GET, new Response(403, seconds(2))))
			.isEqualTo(new Stop(StopReason.NOT_RETRYABLE));
	}

	@Test
	void when403RateLimitedOnPostThenNotRepeatable() {
		assertThat(decide(POST, new Response(403, seconds(2)))).isEqualTo(new Stop(StopReason.NON_IDEMPOTENT));
	}

	@Test
	void whenRateLimited403ThenRetryableStatusSaysSo() {
		assertThat(RetryPlanner.isRetryableStatus(DEFAULTS, new Response(403, seconds(1)))).isTrue();
		assertThat(RetryPlanner.isRetryableStatus(DEFAULTS.withRetryableStatuses(Set.of(429)),
				new Response(503, RetryAfter.ABSENT))).isFalse();
	}

}
