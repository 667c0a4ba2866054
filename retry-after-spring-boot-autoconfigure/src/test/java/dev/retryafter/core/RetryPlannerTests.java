package dev.retryafter.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import java.util.stream.Stream;

import dev.retryafter.core.header.DateReference;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.retryafter.core.AttemptOutcome.IoFailure;
import dev.retryafter.core.AttemptOutcome.Response;
import dev.retryafter.core.RetryDecision.Retry;
import dev.retryafter.core.RetryDecision.Stop;
import dev.retryafter.core.header.RetryAfter.Form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * Tests for {@link RetryPlanner}: one group per retry rule, then the rule order, the
 * seed articles' fixtures and argument checks. Unless a test says otherwise, settings are the
 * documented defaults (3 attempts, 10 s budget, 500 ms reserve, backoff 1 s x 2 up to 8 s,
 * jitter 0.2, max-wait 60 s) and the random source returns 0.5, so a wait is exactly
 * {@code base x 1.1}.
 */
class RetryPlannerTests {

	private static final RetrySettings DEFAULTS = RetrySettings.defaults();

	private static final RequestFacts GET = RequestFacts.of("GET");

	private static final RequestFacts POST = RequestFacts.of("POST");

	private static final Duration START = Duration.ZERO;

	/** The largest value a {@code Duration} can hold. */
	private static final Duration LONGEST = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);

	private static RetryDecision decide(RetrySettings settings, RequestFacts request, AttemptOutcome outcome,
			int attempt, Duration elapsed) {
		return RetryPlanner.decide(settings, request, outcome, attempt, elapsed, RetryPermits.UNLIMITED,
				new FixedRandom(0.5));
	}

	private static RetryDecision decide(RequestFacts request, AttemptOutcome outcome) {
		return decide(DEFAULTS, request, outcome, 1, START);
	}

	private static Response response(int status) {
		return new Response(status, RetryAfter.ABSENT);
	}

	private static Response response(int status, RetryAfter retryAfter) {
		return new Response(status, retryAfter);
	}

	private static RetryAfter.Delay seconds(long seconds) {
		return new RetryAfter.Delay(Duration.ofSeconds(seconds), Form.SECONDS);
	}

	private static RetryAfter.Delay date(Duration delay) {
		return new RetryAfter.Delay(delay, Form.DATE);
	}

	private static RetryAfter.Invalid invalid() {
		return new RetryAfter.Invalid("not a delay-seconds or HTTP-date value");
	}

	private static IoFailure io(IoFailureKind kind) {
		return new IoFailure(kind);
	}

	private static Stop stop(StopReason reason) {
		return new Stop(reason);
	}

	private static Retry retry(Duration delay, Duration base, DelaySource source) {
		return new Retry(delay, base, source);
	}

	private static Duration seconds(double seconds) {
		return Duration.ofNanos(Math.round(seconds * 1e9));
	}

	private static RetrySettings.Header header(Duration maxWait, OnInvalidRetryAfter onInvalid) {
		return new RetrySettings.Header(maxWait, onInvalid, DateReference.SERVER_DATE);
	}

	/** The request after attempt 1 with no Retry-After: base 1 s, wait 1.1 s. */
	private static final Retry FIRST_BACKOFF = retry(seconds(1.1), Duration.ofSeconds(1), DelaySource.BACKOFF);

	@Nested
	class Rule1SuccessOrNotRetryable {

		@ParameterizedTest
		@ValueSource(ints = { 100, 200, 201, 204, 301, 304, 307, 399 })
		void whenStatusIsBelow400AndNotRetryableThenStopWithSuccess(int status) {
			assertThat(decide(GET, response(status))).isEqualTo(stop(StopReason.SUCCESS));
		}

		@ParameterizedTest
		@ValueSource(ints = { 400, 401, 404, 408, 500, 502, 504, 599 })
		void whenStatusIsAnErrorAndNotRetryableThenStopWithNotRetryable(int status) {
			assertThat(decide(GET, response(status))).isEqualTo(stop(StopReason.NOT_RETRYABLE));
		}

		@Test
		void whenTheSameReasonStopsAgainThenTheDecisionIsShared() {
			// One instance per reason: ending a request allocates no decision.
			assertThat(decide(GET, response(200))).isSameAs(decide(POST, response(204)));
			assertThat(decide(GET, response(404))).isSameAs(decide(GET, response(500)));
		}

		@Test
		void when500ThenNotRetryableByDefault() {
			assertThat(decide(GET, response(500, seconds(1)))).isEqualTo(stop(StopReason.NOT_RETRYABLE));
		}

		@Test
		void when200ThenSuccessEvenWithARetryAfterField() {
			assertThat(decide(GET, response(200, seconds(3)))).isEqualTo(stop(StopReason.SUCCESS));
		}

		@ParameterizedTest
		@ValueSource(ints = { 429, 503, 529 })
		void whenStatusIsRetryableByDefaultThenRetry(int status) {
			assertThat(decide(GET, response(status))).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void whenStatusIsAddedToRetryableStatusesThenRetry() {
			RetrySettings settings = DEFAULTS.withRetryableStatuses(Set.of(500));
			assertThat(decide(settings, GET, response(500), 1, START)).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void whenStatusIsRemovedFromRetryableStatusesThenNotRetryable() {
			RetrySettings settings = DEFAULTS.withRetryableStatuses(Set.of(503));
			assertThat(decide(settings, GET, response(429, seconds(1)), 1, START))
				.isEqualTo(stop(StopReason.NOT_RETRYABLE));
		}

		@Test
		void whenUnknownHostThenNotRetryable() {
			assertThat(decide(GET, io(IoFailureKind.UNKNOWN_HOST))).isEqualTo(stop(StopReason.NOT_RETRYABLE));
		}

		@Test
		void whenTheTlsHandshakeOrCertificateFailsThenNotRetryableEvenThoughNothingWasSent() {
			assertThat(IoFailureKind.TLS_FAILURE.maybeSent()).isFalse();
			assertThat(decide(GET, io(IoFailureKind.TLS_FAILURE))).isEqualTo(stop(StopReason.NOT_RETRYABLE));
			assertThat(decide(POST, io(IoFailureKind.TLS_FAILURE)))
				.isEqualTo(stop(StopReason.NOT_RETRYABLE));
		}

		@ParameterizedTest
		@EnumSource(names = { "CONNECT_REFUSED", "CONNECT_TIMEOUT" })
		void whenConnectErrorsAreNotRetriedThenConnectFailuresAreNotRetryable(IoFailureKind kind) {
			RetrySettings settings = DEFAULTS.withIoErrors(new RetrySettings.IoErrors(false, true));
			assertThat(decide(settings, GET, io(kind), 1, START)).isEqualTo(stop(StopReason.NOT_RETRYABLE));
		}

		@ParameterizedTest
		@EnumSource(names = { "READ_TIMEOUT", "RESET_AFTER_SEND", "OTHER" })
		void whenConnectErrorsAreNotRetriedThenReadFailuresStillAre(IoFailureKind kind) {
			RetrySettings settings = DEFAULTS.withIoErrors(new RetrySettings.IoErrors(false, true));
			assertThat(decide(settings, GET, io(kind), 1, START)).isEqualTo(FIRST_BACKOFF);
		}

		@ParameterizedTest
		@EnumSource(names = { "READ_TIMEOUT", "RESET_AFTER_SEND", "OTHER" })
		void whenReadErrorsAreNotRetriedThenMaybeSentFailuresAreNotRetryable(IoFailureKind kind) {
			RetrySettings settings = DEFAULTS.withIoErrors(new RetrySettings.IoErrors(true, false));
			assertThat(decide(settings, GET, io(kind), 1, START)).isEqualTo(stop(StopReason.NOT_RETRYABLE));
		}

		@ParameterizedTest
		@EnumSource(names = { "CONNECT_REFUSED", "CONNECT_TIMEOUT" })
		void whenReadErrorsAreNotRetriedThenConnectFailuresStillAre(IoFailureKind kind) {
			RetrySettings settings = DEFAULTS.withIoErrors(new RetrySettings.IoErrors(true, false));
			assertThat(decide(settings, GET, io(kind), 1, START)).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void whenStoppedByRule1ThenThePermitsAreNotAsked() {
			CountingPermits permits = CountingPermits.granting();
			RetryPlanner.decide(DEFAULTS, GET, response(200), 1, START, permits, new FixedRandom(0.5));
			assertThat(permits.acquires()).isZero();
			assertThat(permits.refunds()).isZero();
		}

	}

	@Nested
	class Rule2Repeatable {

		@Test
		void whenPost503ThenNonIdempotent() {
			assertThat(decide(POST, response(503))).isEqualTo(stop(StopReason.NON_IDEMPOTENT));
		}

		@ParameterizedTest
		@ValueSource(strings = { "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE", "get", "Delete" })
		void whenMethodIsIdempotentByDefaultThenRetry(String method) {
			assertThat(decide(RequestFacts.of(method), response(503))).isEqualTo(FIRST_BACKOFF);
		}

		@ParameterizedTest
		@ValueSource(strings = { "POST", "PATCH", "CONNECT", "PROPFIND" })
		void whenMethodIsNotIdempotentByDefaultThenNonIdempotent(String method) {
			assertThat(decide(RequestFacts.of(method), response(429, seconds(1))))
				.isEqualTo(stop(StopReason.NON_IDEMPOTENT));
		}

		@Test
		void whenRetryableMethodsAreNarrowedThenOthersAreNonIdempotent() {
			RetrySettings settings = DEFAULTS.withRetryableMethods(Set.of("get"));
			assertThat(decide(settings, RequestFacts.of("PUT"), response(503), 1, START))
				.isEqualTo(stop(StopReason.NON_IDEMPOTENT));
			assertThat(decide(settings, GET, response(503), 1, START)).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void whenPostCarriesAnIdempotencyKeyThenRetry() {
			RequestFacts post = new RequestFacts("POST", IdempotencyMark.UNSPECIFIED, true, true);
			assertThat(decide(post, response(503))).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void whenPostIsMarkedRepeatableThenRetry() {
			RequestFacts post = new RequestFacts("POST", IdempotencyMark.REPEATABLE, false, true);
			assertThat(decide(post, response(503))).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void whenGetIsMarkedNotRepeatableThenNonIdempotent() {
			RequestFacts get = new RequestFacts("GET", IdempotencyMark.NOT_REPEATABLE, false, true);
			assertThat(decide(get, response(503))).isEqualTo(stop(StopReason.NON_IDEMPOTENT));
		}

		@Test
		void whenMarkedNotRepeatableThenAnIdempotencyKeyDoesNotOverrideTheMark() {
			RequestFacts get = new RequestFacts("GET", IdempotencyMark.NOT_REPEATABLE, true, true);
			assertThat(decide(get, response(503))).isEqualTo(stop(StopReason.NON_IDEMPOTENT));
		}

		@Test
		void whenBodyIsNotReplayableThenNonIdempotentEvenForAnIdempotentMethod() {
			RequestFacts put = new RequestFacts("PUT", IdempotencyMark.REPEATABLE, true, false);
			assertThat(decide(put, response(503))).isEqualTo(stop(StopReason.NON_IDEMPOTENT));
		}

		@Test
		void whenBodyIsNotReplayableThenNonIdempotentEvenIfNeverSent() {
			RequestFacts post = new RequestFacts("POST", IdempotencyMark.UNSPECIFIED, false, false);
			assertThat(decide(post, io(IoFailureKind.CONNECT_REFUSED))).isEqualTo(stop(StopReason.NON_IDEMPOTENT));
		}

		@Test
		void whenConnectionRefusedOnPostThenRetryWithBackoff() {
			assertThat(decide(POST, io(IoFailureKind.CONNECT_REFUSED))).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void whenConnectTimeoutOnARequestMarkedNotRepeatableThenRetryBecauseNothingWasSent() {
			RequestFacts post = new RequestFacts("POST", IdempotencyMark.NOT_REPEATABLE, false, true);
			assertThat(decide(post, io(IoFailureKind.CONNECT_TIMEOUT))).isEqualTo(FIRST_BACKOFF);
		}

		@ParameterizedTest
		@EnumSource(names = { "READ_TIMEOUT", "RESET_AFTER_SEND", "OTHER" })
		void whenMaybeSentFailureOnPostThenNonIdempotent(IoFailureKind kind) {
			assertThat(decide(POST, io(kind))).isEqualTo(stop(StopReason.NON_IDEMPOTENT));
		}

		@Test
		void whenReadTimeoutOnGetThenRetryWithBackoff() {
			assertThat(decide(GET, io(IoFailureKind.READ_TIMEOUT))).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void whenReadTimeoutOnPostWithAnIdempotencyKeyThenRetry() {
			RequestFacts post = new RequestFacts("POST", IdempotencyMark.UNSPECIFIED, true, true);
			assertThat(decide(post, io(IoFailureKind.READ_TIMEOUT))).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void whenNonIdempotentThenThePermitsAreNotAsked() {
			CountingPermits permits = CountingPermits.granting();
			RetryPlanner.decide(DEFAULTS, POST, response(503), 1, START, permits, new FixedRandom(0.5));
			assertThat(permits.acquires()).isZero();
		}

	}

	@Nested
	class Rule3MaxAttempts {

		@Test
		void whenAttempt3Of3ThenMaxAttempts() {
			assertThat(decide(DEFAULTS, GET, response(503), 3, START)).isEqualTo(stop(StopReason.MAX_ATTEMPTS));
		}

		@Test
		void whenAttempt2Of3ThenRetry() {
			assertThat(decide(DEFAULTS, GET, response(503), 2, START))
				.isEqualTo(retry(seconds(2.2), Duration.ofSeconds(2), DelaySource.BACKOFF));
		}

		@Test
		void whenAttemptIsPastMaxAttemptsThenMaxAttempts() {
			assertThat(decide(DEFAULTS, GET, response(503), 7, START)).isEqualTo(stop(StopReason.MAX_ATTEMPTS));
		}

		@Test
		void whenMaxAttemptsIsOneThenTheFirstAttemptIsTheLast() {
			RetrySettings settings = DEFAULTS.withMaxAttempts(1);
			assertThat(decide(settings, GET, io(IoFailureKind.CONNECT_REFUSED), 1, START))
				.isEqualTo(stop(StopReason.MAX_ATTEMPTS));
		}

		@Test
		void whenMaxAttemptsReachedThenThePermitsAreNotAsked() {
			CountingPermits permits = CountingPermits.granting();
			RetryPlanner.decide(DEFAULTS, GET, response(503), 3, START, permits, new FixedRandom(0.5));
			assertThat(permits.acquires()).isZero();
		}

	}

	@Nested
	class Rule4RetryBudget {

		@Test
		void whenBudgetRefusesThenRetryBudget() {
			CountingPermits permits = CountingPermits.refusing();
			RetryDecision decision = RetryPlanner.decide(DEFAULTS, GET, response(503), 1, START, permits,
					new FixedRandom(0.5));
			assertThat(decision).isEqualTo(stop(StopReason.RETRY_BUDGET));
			assertThat(permits.acquires()).isEqualTo(1);
			assertThat(permits.refunds()).isZero();
		}

		@Test
		void whenRetryThenOnePermitIsTakenAndKept() {
			CountingPermits permits = CountingPermits.granting();
			RetryDecision decision = RetryPlanner.decide(DEFAULTS, GET, response(503), 1, START, permits,
					new FixedRandom(0.5));
			assertThat(decision).isEqualTo(FIRST_BACKOFF);
			assertThat(permits.acquires()).isEqualTo(1);
			assertThat(permits.refunds()).isZero();
		}

		static Stream<Arguments> laterStops() {
			RetrySettings abandon = DEFAULTS.withHeader(header(Duration.ofSeconds(60), OnInvalidRetryAfter.ABANDON));
			return Stream.of(
					Arguments.of(abandon, response(503, invalid()), START, StopReason.INVALID_RETRY_AFTER),
					Arguments.of(DEFAULTS, response(503, seconds(0)), Duration.ofSeconds(9),
							StopReason.BUDGET_EXHAUSTED),
					Arguments.of(DEFAULTS, response(503), Duration.ofSeconds(9), StopReason.BUDGET_EXHAUSTED));
		}

		static Stream<Arguments> serverPacedStops() {
			return Stream.of(Arguments.of(response(503, seconds(61)), START, StopReason.RETRY_AFTER_TOO_LONG),
					Arguments.of(response(429, seconds(6)), Duration.ofSeconds(5),
							StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
		}

		@ParameterizedTest
		@MethodSource("serverPacedStops")
		void whenAServerPacedRetryIsStoppedByALaterRuleThenNoPermitWasTakenOrRefunded(Response outcome,
				Duration elapsed, StopReason reason) {
			CountingPermits permits = CountingPermits.granting();
			assertThat(RetryPlanner.decide(DEFAULTS, GET, outcome, 1, elapsed, permits, new FixedRandom(0.5)))
				.isEqualTo(stop(reason));
			assertThat(permits.acquires()).isZero();
			assertThat(permits.refunds()).isZero();
		}

		@Test
		void whenTheServerPacesTheRetryThenTheBudgetIsNotAskedAndTheRetryIsServerPaced() {
			CountingPermits permits = CountingPermits.refusing();
			RetryDecision decision = RetryPlanner.decide(DEFAULTS, GET, response(429, seconds(1)), 1, START, permits,
					new FixedRandom(0.5));
			assertThat(decision).isEqualTo(retry(seconds(1.1), Duration.ofSeconds(1), DelaySource.RETRY_AFTER_SECONDS));
			assertThat(((Retry) decision).isServerPaced()).isTrue();
			assertThat(permits.acquires()).isZero();
		}

		@Test
		void whenRetryAfterIsZeroOrShorterThanTheBackoffThenTheBudgetStillDecides() {
			assertThat(RetryPlanner.decide(DEFAULTS, GET, response(429, seconds(0)), 1, START,
					CountingPermits.refusing(), new FixedRandom(0.5)))
				.isEqualTo(stop(StopReason.RETRY_BUDGET));
			// Attempt 2: the 2 s backoff outweighs the server's 1 s, so the client paced it.
			assertThat(RetryPlanner.decide(DEFAULTS, GET, response(429, seconds(1)), 2, START,
					CountingPermits.refusing(), new FixedRandom(0.5)))
				.isEqualTo(stop(StopReason.RETRY_BUDGET));
			RetryDecision charged = RetryPlanner.decide(DEFAULTS, GET, response(429, seconds(1)), 2, START,
					CountingPermits.granting(), new FixedRandom(0.5));
			assertThat(charged).isEqualTo(retry(seconds(2.2), Duration.ofSeconds(2), DelaySource.BACKOFF));
			assertThat(((Retry) charged).isServerPaced()).isFalse();
		}

		@ParameterizedTest
		@MethodSource("laterStops")
		void whenALaterRuleStopsThenThePermitIsRefundedExactlyOnce(RetrySettings settings, Response outcome,
				Duration elapsed, StopReason reason) {
			CountingPermits permits = CountingPermits.granting();
			RetryDecision decision = RetryPlanner.decide(settings, GET, outcome, 1, elapsed, permits,
					new FixedRandom(0.5));
			assertThat(decision).isEqualTo(stop(reason));
			assertThat(permits.acquires()).isEqualTo(1);
			assertThat(permits.refunds()).isEqualTo(1);
		}

		@Test
		void whenTheRandomSourceFailsThenThePermitIsRefundedAndTheFailureSurfaces() {
			CountingPermits permits = CountingPermits.granting();
			RandomGenerator broken = () -> {
				throw new IllegalStateException("entropy exhausted");
			};
			assertThatIllegalStateException()
				.isThrownBy(() -> RetryPlanner.decide(DEFAULTS, GET, response(503), 1, START, permits, broken))
				.withMessage("entropy exhausted");
			assertThat(permits.acquires()).isEqualTo(1);
			assertThat(permits.refunds()).isEqualTo(1);
		}

	}

	@Nested
	class Rule5InvalidRetryAfter {

		@Test
		void whenInvalidAndPolicyIsAbandonThenInvalidRetryAfter() {
			RetrySettings settings = DEFAULTS.withHeader(header(Duration.ofSeconds(60), OnInvalidRetryAfter.ABANDON));
			assertThat(decide(settings, GET, response(503, invalid()), 1, START))
				.isEqualTo(stop(StopReason.INVALID_RETRY_AFTER));
		}

		@Test
		void whenInvalidAndPolicyIsBackoffThenBehaveAsIfAbsent() {
			assertThat(decide(GET, response(503, invalid()))).isEqualTo(FIRST_BACKOFF)
				.isEqualTo(decide(GET, response(503, RetryAfter.ABSENT)));
		}

		@Test
		void whenInvalidAndPolicyIsBackoffOnALaterAttemptThenTheBackoffGrows() {
			assertThat(decide(DEFAULTS, GET, response(429, invalid()), 2, START))
				.isEqualTo(retry(seconds(2.2), Duration.ofSeconds(2), DelaySource.BACKOFF));
		}

		@Test
		void whenAbsentAndPolicyIsAbandonThenBackoffIsUsed() {
			RetrySettings settings = DEFAULTS.withHeader(header(Duration.ofSeconds(60), OnInvalidRetryAfter.ABANDON));
			assertThat(decide(settings, GET, response(503), 1, START)).isEqualTo(FIRST_BACKOFF);
		}

	}

	@Nested
	class Rule6RetryAfterTooLong {

		@Test
		void whenRetryAfter61ThenTooLong() {
			assertThat(decide(GET, response(429, seconds(61)))).isEqualTo(stop(StopReason.RETRY_AFTER_TOO_LONG));
		}

		@Test
		void whenRetryAfterEqualsMaxWaitThenItIsHonoured() {
			RetrySettings settings = DEFAULTS.withTotalBudget(Duration.ofMinutes(2));
			assertThat(decide(settings, GET, response(429, seconds(60)), 1, START))
				.isEqualTo(retry(Duration.ofSeconds(66), Duration.ofSeconds(60), DelaySource.RETRY_AFTER_SECONDS));
		}

		@Test
		void whenRetryAfterIsSaturatedThenTooLong() {
			RetryAfter.Delay saturated = new RetryAfter.Delay(RetryAfter.MAX_DELAY, Form.SECONDS);
			assertThat(saturated.saturated()).isTrue();
			assertThat(decide(GET, response(503, saturated))).isEqualTo(stop(StopReason.RETRY_AFTER_TOO_LONG));
		}

		@Test
		void whenSaturatedAndBudgetAndMaxWaitAreHugeThenTooLongWithoutOverflow() {
			RetrySettings settings = DEFAULTS.withTotalBudget(LONGEST)
				.withAttemptReserve(LONGEST)
				.withHeader(header(RetryAfter.MAX_DELAY.minusNanos(1), OnInvalidRetryAfter.BACKOFF));
			RetryAfter.Delay saturated = new RetryAfter.Delay(RetryAfter.MAX_DELAY, Form.DATE);
			assertThat(decide(settings, GET, response(503, saturated), 1, START))
				.isEqualTo(stop(StopReason.RETRY_AFTER_TOO_LONG));
		}

		@Test
		void whenDateIsLaterThanMaxWaitThenTooLong() {
			assertThat(decide(GET, response(503, date(Duration.ofSeconds(60).plusNanos(1)))))
				.isEqualTo(stop(StopReason.RETRY_AFTER_TOO_LONG));
		}

		@Test
		void whenMaxWaitIsLoweredThenAShorterDelayIsTooLong() {
			RetrySettings settings = DEFAULTS.withHeader(header(Duration.ofSeconds(5), OnInvalidRetryAfter.BACKOFF));
			assertThat(decide(settings, GET, response(503, seconds(6)), 1, START))
				.isEqualTo(stop(StopReason.RETRY_AFTER_TOO_LONG));
		}

	}

	@Nested
	class Rule7Budget {

		@Test
		void when503RetryAfter6With5SecondsLeftThenRetryAfterExceedsBudget() {
			assertThat(decide(DEFAULTS, GET, response(503, seconds(6)), 1, Duration.ofSeconds(5)))
				.isEqualTo(stop(StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
		}

		@Test
		void whenServerDelayPlusReserveExceedsTheWholeBudgetThenRetryAfterExceedsBudget() {
			// 9.5 s + 500 ms reserve would fit exactly; 9.5 s + 1 ns does not.
			assertThat(decide(GET, response(503, date(seconds(9.5).plusNanos(1)))))
				.isEqualTo(stop(StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
		}

		@Test
		void whenServerDelayPlusReserveEqualsTheRemainingBudgetThenRetryWithoutJitter() {
			assertThat(decide(GET, response(503, date(seconds(9.5)))))
				.isEqualTo(retry(seconds(9.5), seconds(9.5), DelaySource.RETRY_AFTER_DATE));
		}

		@Test
		void whenServerDelayFitsButBackoffDoesNotThenBudgetExhausted() {
			// Attempt 2: backoff 2 s; 8 s elapsed leaves 2 s, so at most 1.5 s may be waited.
			assertThat(decide(DEFAULTS, GET, response(503, seconds(1)), 2, Duration.ofSeconds(8)))
				.isEqualTo(stop(StopReason.BUDGET_EXHAUSTED));
		}

		@Test
		void whenBackoffPlusReserveExceedsRemainingThenBudgetExhausted() {
			assertThat(decide(DEFAULTS, GET, response(503), 1, Duration.ofMillis(8_500).plusNanos(1)))
				.isEqualTo(stop(StopReason.BUDGET_EXHAUSTED));
		}

		@Test
		void whenBackoffPlusReserveEqualsRemainingThenRetryWithoutJitter() {
			assertThat(decide(DEFAULTS, GET, response(503), 1, Duration.ofMillis(8_500)))
				.isEqualTo(retry(Duration.ofSeconds(1), Duration.ofSeconds(1), DelaySource.BACKOFF));
		}

		@Test
		void whenIoFailureAndBudgetIsSpentThenBudgetExhausted() {
			assertThat(decide(DEFAULTS, GET, io(IoFailureKind.CONNECT_REFUSED), 2, Duration.ofSeconds(8)))
				.isEqualTo(stop(StopReason.BUDGET_EXHAUSTED));
		}

		@Test
		void whenBudgetIsOverspentThenAZeroServerDelayStillExceedsIt() {
			assertThat(decide(DEFAULTS, GET, response(429, seconds(0)), 1, Duration.ofSeconds(12)))
				.isEqualTo(stop(StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
		}

		@Test
		void whenBudgetIsOverspentWithoutServerDelayThenBudgetExhausted() {
			assertThat(decide(DEFAULTS, GET, response(503), 1, Duration.ofSeconds(12)))
				.isEqualTo(stop(StopReason.BUDGET_EXHAUSTED));
		}

		@Test
		void whenElapsedIsNegativeThenItCountsAsZero() {
			// With -5 s taken literally 15 s would remain and 10 s would fit.
			assertThat(decide(DEFAULTS, GET, response(503, seconds(10)), 1, Duration.ofSeconds(-5)))
				.isEqualTo(stop(StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
			assertThat(decide(DEFAULTS, GET, response(503), 1, Duration.ofSeconds(-5))).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void whenElapsedIsTheLongestDurationThenBudgetExhaustedWithoutOverflow() {
			assertThat(decide(DEFAULTS, GET, response(503), 1, LONGEST)).isEqualTo(stop(StopReason.BUDGET_EXHAUSTED));
		}

		@Test
		void whenElapsedIsTheMostNegativeDurationThenItCountsAsZero() {
			Duration mostNegative = Duration.ofSeconds(Long.MIN_VALUE);
			assertThat(decide(DEFAULTS, GET, response(503), 1, mostNegative)).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void whenBudgetAndReserveAreTheLongestDurationThenBudgetExhaustedWithoutOverflow() {
			RetrySettings settings = DEFAULTS.withTotalBudget(LONGEST).withAttemptReserve(LONGEST);
			assertThat(decide(settings, GET, response(503), 1, START)).isEqualTo(stop(StopReason.BUDGET_EXHAUSTED));
		}

		@Test
		void whenBudgetIsZeroThenBudgetExhausted() {
			RetrySettings settings = DEFAULTS.withTotalBudget(Duration.ZERO);
			assertThat(decide(settings, GET, response(503), 1, START)).isEqualTo(stop(StopReason.BUDGET_EXHAUSTED));
		}

	}

	@Nested
	class Rule8Wait {

		@Test
		void when429RetryAfter3OnAttempt1ThenWaitIsBetween3And3Point6SecondsWithSeededRandom() {
			SplittableRandom random = new SplittableRandom(42);
			double draw = new SplittableRandom(42).nextDouble();
			RetryDecision decision = RetryPlanner.decide(DEFAULTS, GET, response(429, seconds(3)), 1, START,
					RetryPermits.UNLIMITED, random);
			Duration expected = Duration.ofSeconds(3).plusNanos(Math.round(draw * 0.2 * 3e9));
			assertThat(decision).isEqualTo(retry(expected, Duration.ofSeconds(3), DelaySource.RETRY_AFTER_SECONDS));
			assertThat(((Retry) decision).delay()).isBetween(Duration.ofSeconds(3), Duration.ofMillis(3_600));
		}

		@Test
		void when429RetryAfter3AndRandomIsHalfThenWaitIs3Point3Seconds() {
			assertThat(decide(GET, response(429, seconds(3))))
				.isEqualTo(retry(Duration.ofMillis(3_300), Duration.ofSeconds(3), DelaySource.RETRY_AFTER_SECONDS));
		}

		@Test
		void whenAbsentOnAttempt1ThenBaseIsOneSecond() {
			assertThat(decide(DEFAULTS, GET, response(503), 1, START))
				.isEqualTo(retry(Duration.ofMillis(1_100), Duration.ofSeconds(1), DelaySource.BACKOFF));
		}

		@Test
		void whenAbsentOnAttempt2ThenBaseIsTwoSeconds() {
			assertThat(decide(DEFAULTS, GET, response(503), 2, Duration.ofSeconds(2)))
				.isEqualTo(retry(Duration.ofMillis(2_200), Duration.ofSeconds(2), DelaySource.BACKOFF));
		}

		@ParameterizedTest
		@ValueSource(ints = { 4, 5, 10, 1_000, Integer.MAX_VALUE - 1 })
		void whenAbsentOnLargeAttemptNumbersThenBaseIsCappedAtEightSeconds(int attempt) {
			RetrySettings settings = DEFAULTS.withMaxAttempts(Integer.MAX_VALUE);
			assertThat(decide(settings, GET, response(503), attempt, START))
				.isEqualTo(retry(Duration.ofMillis(8_800), Duration.ofSeconds(8), DelaySource.BACKOFF));
		}

		@Test
		void whenServerDelayIsSmallerThanBackoffThenBackoffSetsTheBase() {
			assertThat(decide(DEFAULTS, GET, response(429, seconds(1)), 2, START))
				.isEqualTo(retry(Duration.ofMillis(2_200), Duration.ofSeconds(2), DelaySource.BACKOFF));
		}

		@Test
		void whenServerDelayIsZeroThenBackoffSetsTheBase() {
			assertThat(decide(GET, response(503, seconds(0)))).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void whenServerDelayEqualsBackoffThenTheServerIsNamedAsSource() {
			assertThat(decide(DEFAULTS, GET, response(429, seconds(2)), 2, START))
				.isEqualTo(retry(Duration.ofMillis(2_200), Duration.ofSeconds(2), DelaySource.RETRY_AFTER_SECONDS));
		}

		@Test
		void whenServerDelayIsADateThenSourceIsRetryAfterDate() {
			assertThat(decide(GET, response(503, date(Duration.ofSeconds(7)))))
				.isEqualTo(retry(Duration.ofMillis(7_700), Duration.ofSeconds(7), DelaySource.RETRY_AFTER_DATE));
		}

		@Test
		void whenServerDelayHasNanosecondsThenTheyAreKept() {
			Duration delay = Duration.ofSeconds(4, 123_456_789);
			assertThat(decide(GET, response(503, date(delay))))
				.isEqualTo(retry(Duration.ofSeconds(4, 535_802_468), delay, DelaySource.RETRY_AFTER_DATE));
		}

		@Test
		void whenIoFailureThenSourceIsBackoff() {
			assertThat(decide(DEFAULTS, GET, io(IoFailureKind.RESET_AFTER_SEND), 2, START))
				.isEqualTo(retry(Duration.ofMillis(2_200), Duration.ofSeconds(2), DelaySource.BACKOFF));
		}

		@Test
		void whenJitterWouldPassTheBudgetThenItIsTrimmedButNeverBelowBase() {
			// 9 s + 0.5 x 0.2 x 9 s = 9.9 s; 10 s - 500 ms reserve leaves 9.5 s.
			assertThat(decide(GET, response(503, seconds(9))))
				.isEqualTo(retry(Duration.ofMillis(9_500), Duration.ofSeconds(9), DelaySource.RETRY_AFTER_SECONDS));
		}

		@Test
		void whenJitterIsTrimmedToNothingThenWaitIsBase() {
			assertThat(decide(DEFAULTS, GET, response(503, seconds(3)), 1, Duration.ofMillis(6_500)))
				.isEqualTo(retry(Duration.ofSeconds(3), Duration.ofSeconds(3), DelaySource.RETRY_AFTER_SECONDS));
		}

		@Test
		void whenJitterIsZeroThenWaitIsBase() {
			RetrySettings settings = DEFAULTS.withJitter(0);
			assertThat(decide(settings, GET, response(429, seconds(3)), 1, START))
				.isEqualTo(retry(Duration.ofSeconds(3), Duration.ofSeconds(3), DelaySource.RETRY_AFTER_SECONDS));
		}

		@Test
		void whenJitterIsOneAndRandomIsHalfThenHalfTheBaseIsAdded() {
			RetrySettings settings = DEFAULTS.withJitter(1);
			assertThat(decide(settings, GET, response(429, seconds(3)), 1, START))
				.isEqualTo(retry(Duration.ofMillis(4_500), Duration.ofSeconds(3), DelaySource.RETRY_AFTER_SECONDS));
		}

		@Test
		void whenRetryThenExactlyOneRandomValueIsDrawn() {
			FixedRandom random = new FixedRandom(0.5);
			RetryPlanner.decide(DEFAULTS, GET, response(503), 1, START, RetryPermits.UNLIMITED, random);
			assertThat(random.draws()).isEqualTo(1);
		}

		@Test
		void whenStopThenNoRandomValueIsDrawn() {
			FixedRandom random = new FixedRandom(0.5);
			RetryPlanner.decide(DEFAULTS, GET, response(503), 1, Duration.ofSeconds(10), RetryPermits.UNLIMITED,
					random);
			assertThat(random.draws()).isZero();
		}

	}

	@Nested
	class RuleOrder {

		@Test
		void whenNotRetryableAndNonIdempotentOnTheLastAttemptThenNotRetryable() {
			assertThat(decide(DEFAULTS, POST, response(500), 3, START)).isEqualTo(stop(StopReason.NOT_RETRYABLE));
		}

		@Test
		void whenReadErrorsAreOffThenNotRetryableBeforeNonIdempotent() {
			RetrySettings settings = DEFAULTS.withIoErrors(new RetrySettings.IoErrors(true, false));
			assertThat(decide(settings, POST, io(IoFailureKind.READ_TIMEOUT), 1, START))
				.isEqualTo(stop(StopReason.NOT_RETRYABLE));
		}

		@Test
		void whenNonIdempotentPostOnAttempt3Of3ThenNonIdempotent() {
			assertThat(decide(DEFAULTS, POST, response(503), 3, START)).isEqualTo(stop(StopReason.NON_IDEMPOTENT));
		}

		@Test
		void whenMaxAttemptsAndBudgetWouldRefuseThenMaxAttemptsAndTheBudgetIsNotAsked() {
			CountingPermits permits = CountingPermits.refusing();
			assertThat(RetryPlanner.decide(DEFAULTS, GET, response(503), 3, START, permits, new FixedRandom(0.5)))
				.isEqualTo(stop(StopReason.MAX_ATTEMPTS));
			assertThat(permits.acquires()).isZero();
		}

		@Test
		void whenBudgetRefusesAndRetryAfterIsInvalidUnderAbandonThenRetryBudget() {
			RetrySettings settings = DEFAULTS.withHeader(header(Duration.ofSeconds(60), OnInvalidRetryAfter.ABANDON));
			assertThat(RetryPlanner.decide(settings, GET, response(503, invalid()), 1, START,
					CountingPermits.refusing(), new FixedRandom(0.5)))
				.isEqualTo(stop(StopReason.RETRY_BUDGET));
		}

		@Test
		void whenBudgetRefusesAndRetryAfterIsTooLongThenRetryBudget() {
			// Under a second the server paces nothing, so rule 4 runs, and before rule 6 would.
			RetrySettings strict = DEFAULTS.withHeader(header(Duration.ofMillis(100), OnInvalidRetryAfter.BACKOFF));
			assertThat(RetryPlanner.decide(strict, GET, response(503, date(Duration.ofMillis(500))), 1, START,
					CountingPermits.refusing(), new FixedRandom(0.5)))
				.isEqualTo(stop(StopReason.RETRY_BUDGET));
		}

		@Test
		void whenServerPacedAndRetryAfterIsTooLongThenTooLongWithoutAskingTheBudget() {
			CountingPermits permits = CountingPermits.refusing();
			assertThat(RetryPlanner.decide(DEFAULTS, GET, response(503, seconds(61)), 1, START, permits,
					new FixedRandom(0.5)))
				.isEqualTo(stop(StopReason.RETRY_AFTER_TOO_LONG));
			assertThat(permits.acquires()).isZero();
		}

		@Test
		void whenTooLongAndOverBudgetThenTooLong() {
			assertThat(decide(DEFAULTS, GET, response(503, seconds(61)), 1, Duration.ofSeconds(9)))
				.isEqualTo(stop(StopReason.RETRY_AFTER_TOO_LONG));
		}

		@Test
		void whenServerDelayAndBackoffBothExceedTheBudgetThenRetryAfterExceedsBudget() {
			// Attempt 2: the server's 6 s and the 2 s backoff both miss the 4.5 s that fit.
			assertThat(decide(DEFAULTS, GET, response(503, seconds(6)), 2, Duration.ofSeconds(5)))
				.isEqualTo(stop(StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
		}

	}

	/**
	 * The seed articles' fixtures restated. Their policies differ from SPEC's defaults, so each
	 * group states the settings that make the two agree, and where they cannot agree the test
	 * names the difference.
	 */
	@Nested
	class SeedFixtures {

		/**
		 * Seed 000 ("Retry-After tells when to try again"): 429/503, GET and HEAD only, three
		 * attempts, wait = max(server, 2^(attempt-1) s) plus a fixed 0.25 s, and a remaining
		 * budget of 10 s with no reserve. SPEC's jitter is proportional, not a constant, so the
		 * fixtures are restated with jitter 0 (the seed's own "same delay" case) and the
		 * 0.25 s is dropped from the expected waits.
		 */
		private final RetrySettings seed000 = DEFAULTS.withRetryableMethods(Set.of("GET", "HEAD"))
			.withJitter(0)
			.withAttemptReserve(Duration.ZERO);

		@Test
		void seed000WhenHugeDelaySecondsThenStop() {
			RetryAfter.Delay huge = new RetryAfter.Delay(RetryAfter.MAX_DELAY, Form.SECONDS);
			assertThat(decide(this.seed000, GET, response(503, huge), 1, START))
				.isEqualTo(stop(StopReason.RETRY_AFTER_TOO_LONG));
		}

		@Test
		void seed000WhenThreeSecondsAskedWithTwoLeftThenStop() {
			assertThat(decide(this.seed000, GET, response(503, seconds(3)), 1, Duration.ofSeconds(8)))
				.isEqualTo(stop(StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
		}

		@Test
		void seed000WhenPostThenStop() {
			assertThat(decide(this.seed000, POST, response(503, seconds(3)), 1, START))
				.isEqualTo(stop(StopReason.NON_IDEMPOTENT));
		}

		@Test
		void seed000WhenDeleteThenStopUnderTheSeedPolicyButRetryUnderSpecDefaults() {
			RequestFacts delete = RequestFacts.of("DELETE");
			assertThat(decide(this.seed000, delete, response(503, seconds(3)), 1, START))
				.isEqualTo(stop(StopReason.NON_IDEMPOTENT));
			assertThat(decide(DEFAULTS, delete, response(503, seconds(3)), 1, START))
				.isEqualTo(retry(Duration.ofMillis(3_300), Duration.ofSeconds(3), DelaySource.RETRY_AFTER_SECONDS));
		}

		@Test
		void seed000WhenThirdAttemptThenStop() {
			assertThat(decide(this.seed000, GET, response(503, seconds(3)), 3, START))
				.isEqualTo(stop(StopReason.MAX_ATTEMPTS));
		}

		@Test
		void seed000WhenSecondsRouteThenWaitThreeSeconds() {
			assertThat(decide(this.seed000, GET, response(429, seconds(3)), 1, START))
				.isEqualTo(retry(Duration.ofSeconds(3), Duration.ofSeconds(3), DelaySource.RETRY_AFTER_SECONDS));
		}

		@Test
		void seed000WhenDateRouteThenWaitSevenSeconds() {
			assertThat(decide(this.seed000, GET, response(503, date(Duration.ofSeconds(7))), 1, START))
				.isEqualTo(retry(Duration.ofSeconds(7), Duration.ofSeconds(7), DelaySource.RETRY_AFTER_DATE));
		}

		@Test
		void seed000WhenInvalidOrMissingRouteThenWaitTheOneSecondBackoff() {
			Retry oneSecond = retry(Duration.ofSeconds(1), Duration.ofSeconds(1), DelaySource.BACKOFF);
			assertThat(decide(this.seed000, GET, response(503, invalid()), 1, START)).isEqualTo(oneSecond);
			assertThat(decide(this.seed000, GET, response(503), 1, START)).isEqualTo(oneSecond);
		}

		@Test
		void seed000WhenRedirectWithRetryAfterThenNotRetried() {
			assertThat(decide(this.seed000, GET, response(307, seconds(3)), 1, START))
				.isEqualTo(stop(StopReason.SUCCESS));
		}

		@Test
		void seed000WhenIdenticalDelaysWithoutJitterThenIdenticalPlansAndWithJitterThenSpread() {
			List<Duration> same = new ArrayList<>();
			List<Duration> spread = new ArrayList<>();
			for (double draw : new double[] { 0.1, 0.2, 0.3, 0.4 }) {
				same.add(((Retry) RetryPlanner.decide(this.seed000, GET, response(429, seconds(3)), 1, START,
						RetryPermits.UNLIMITED, new FixedRandom(draw))).delay());
				spread.add(((Retry) RetryPlanner.decide(DEFAULTS, GET, response(429, seconds(3)), 1, START,
						RetryPermits.UNLIMITED, new FixedRandom(draw))).delay());
			}
			assertThat(same).containsExactly(Duration.ofSeconds(3), Duration.ofSeconds(3), Duration.ofSeconds(3),
					Duration.ofSeconds(3));
			assertThat(spread).containsExactly(Duration.ofMillis(3_060), Duration.ofMillis(3_120),
					Duration.ofMillis(3_180), Duration.ofMillis(3_240));
		}

		/**
		 * Seed 003 ("What you will build"): 429/503, three attempts, backoff 1 s, 2 s (cap 8 s),
		 * no jitter, a 5 s budget for waiting only (no reserve), an invalid header stops, and a
		 * server delay replaces the backoff. Restated with jitter 0, reserve 0, budget 5 s and
		 * on-invalid abandon. The seed's 999 s numeric ceiling is SPEC's max-wait (60 s).
		 */
		private final RetrySettings seed003 = DEFAULTS.withJitter(0)
			.withAttemptReserve(Duration.ZERO)
			.withTotalBudget(Duration.ofSeconds(5))
			.withHeader(header(Duration.ofSeconds(60), OnInvalidRetryAfter.ABANDON));

		@Test
		void seed003When429RetryAfter3ThenThreeSeconds() {
			assertThat(decide(this.seed003, GET, response(429, seconds(3)), 1, START))
				.isEqualTo(retry(Duration.ofSeconds(3), Duration.ofSeconds(3), DelaySource.RETRY_AFTER_SECONDS));
		}

		@Test
		void seed003When503DateFourSecondsAheadThenFourSeconds() {
			assertThat(decide(this.seed003, GET, response(503, date(Duration.ofSeconds(4))), 1, START))
				.isEqualTo(retry(Duration.ofSeconds(4), Duration.ofSeconds(4), DelaySource.RETRY_AFTER_DATE));
		}

		@Test
		void seed003WhenDateInThePastThenTheBackoffStillAppliesUnlessItIsZero() {
			// The seed returns 0 (the header replaces the backoff); SPEC takes the larger of the two.
			RetryAfter.Delay past = date(Duration.ZERO);
			assertThat(decide(this.seed003, GET, response(503, past), 1, START))
				.isEqualTo(retry(Duration.ofSeconds(1), Duration.ofSeconds(1), DelaySource.BACKOFF));
			RetrySettings noBackoff = this.seed003
				.withBackoff(new RetrySettings.Backoff(Duration.ZERO, 2.0, Duration.ofSeconds(8)));
			assertThat(decide(noBackoff, GET, response(503, past), 1, START))
				.isEqualTo(retry(Duration.ZERO, Duration.ZERO, DelaySource.RETRY_AFTER_DATE));
		}

		@Test
		void seed003WhenNoHeaderOnAttempt2ThenTwoSeconds() {
			assertThat(decide(this.seed003, GET, response(503), 2, START))
				.isEqualTo(retry(Duration.ofSeconds(2), Duration.ofSeconds(2), DelaySource.BACKOFF));
		}

		@Test
		void seed003When401ThenStop() {
			assertThat(decide(this.seed003, GET, response(401), 1, START)).isEqualTo(stop(StopReason.NOT_RETRYABLE));
		}

		@Test
		void seed003When429RetryAfter6WithFiveSecondBudgetThenStop() {
			assertThat(decide(this.seed003, GET, response(429, seconds(6)), 1, START))
				.isEqualTo(stop(StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
		}

		@Test
		void seed003WhenInvalidHeaderThenStopUnderAbandonButBackOffUnderSpecDefaults() {
			assertThat(decide(this.seed003, GET, response(503, invalid()), 1, START))
				.isEqualTo(stop(StopReason.INVALID_RETRY_AFTER));
			assertThat(decide(DEFAULTS, GET, response(503, invalid()), 1, START)).isEqualTo(FIRST_BACKOFF);
		}

		@Test
		void seed003WhenThirdAttemptThenStop() {
			assertThat(decide(this.seed003, GET, response(503), 3, START)).isEqualTo(stop(StopReason.MAX_ATTEMPTS));
		}

		@Test
		void seed003WhenHugeDelaySecondsThenStop() {
			RetryAfter.Delay huge = new RetryAfter.Delay(RetryAfter.MAX_DELAY, Form.SECONDS);
			assertThat(decide(this.seed003, GET, response(429, huge), 1, START))
				.isEqualTo(stop(StopReason.RETRY_AFTER_TOO_LONG));
		}

		@Test
		void seed003WhenDelayEqualsTheBudgetThenRetry() {
			// The seed retries when delay <= remaining; with no reserve SPEC agrees.
			assertThat(decide(this.seed003, GET, response(429, seconds(5)), 1, START))
				.isEqualTo(retry(Duration.ofSeconds(5), Duration.ofSeconds(5), DelaySource.RETRY_AFTER_SECONDS));
		}

	}

	@Nested
	class ArgumentChecks {

		@ParameterizedTest
		@ValueSource(ints = { 0, -1, Integer.MIN_VALUE })
		void whenAttemptIsBelowOneThenIllegalArgument(int attempt) {
			assertThatIllegalArgumentException().isThrownBy(() -> decide(DEFAULTS, GET, response(503), attempt, START))
				.withMessage("attempt must be at least 1: " + attempt);
		}

		@Test
		void whenAttemptIsBelowOneThenIllegalArgumentEvenForASuccess() {
			assertThatIllegalArgumentException().isThrownBy(() -> decide(DEFAULTS, GET, response(200), 0, START))
				.withMessage("attempt must be at least 1: 0");
		}

		@Test
		void whenElapsedIsNullThenNullPointerNamingIt() {
			assertThatNullPointerException()
				.isThrownBy(() -> RetryPlanner.decide(DEFAULTS, GET, response(503), 1, nullDuration(),
						RetryPermits.UNLIMITED, new FixedRandom(0.5)))
				.withMessage("elapsed");
		}

		private static Duration nullDuration() {
			return null;
		}

	}

	@Nested
	class PlanWaitAlone {

		@Test
		void whenStatusIsNotRetryableAndAttemptsAreSpentThenWaitIsStillPlanned() {
			// Rules 1 to 4 belong to the caller's retry layer here.
			assertThat(RetryPlanner.planWait(DEFAULTS, response(500), 3, START, new FixedRandom(0.5)))
				.isEqualTo(retry(seconds(4.4), Duration.ofSeconds(4), DelaySource.BACKOFF));
		}

		@Test
		void whenServerAsksForLongerThanMaxWaitThenStops() {
			assertThat(RetryPlanner.planWait(DEFAULTS, response(503, seconds(61)), 1, START, new FixedRandom(0.5)))
				.isEqualTo(stop(StopReason.RETRY_AFTER_TOO_LONG));
		}

		@Test
		void whenRulesOneToFourPassThenPlansWhatDecidePlans() {
			AttemptOutcome outcome = response(429, seconds(2));
			assertThat(RetryPlanner.planWait(DEFAULTS, outcome, 1, START, new FixedRandom(0.5)))
				.isEqualTo(decide(DEFAULTS, GET, outcome, 1, START))
				.isEqualTo(retry(seconds(2.2), Duration.ofSeconds(2), DelaySource.RETRY_AFTER_SECONDS));
		}

		@Test
		void whenAttemptIsBelowOneThenRejected() {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> RetryPlanner.planWait(DEFAULTS, response(503), 0, START, new FixedRandom(0.5)))
				.withMessage("attempt must be at least 1: 0");
		}

	}

}
