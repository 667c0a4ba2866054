package dev.retryafter.call;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.IdempotencyMark;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryPermits;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.FakeClock;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of {@link FirstAttemptRules}: each answer worked out ahead of time is the planner's
 * (or the settings') own, so a call settled with them decides as {@link RetryPlanner#decide}.
 */
class FirstAttemptRulesTests {

	private static final RetrySettings DEFAULTS = RetrySettings.defaults();

	/** Settings that retry a success and a client error, and repeat only {@code GET} by itself. */
	private static final RetrySettings ODD = DEFAULTS.withRetryableStatuses(Set.of(200, 404, 503))
		.withRetryableMethods(Set.of("GET"));

	private static final RandomGenerator RANDOM = () -> 0L;

	/** Statuses outside the precomputed range, answered by the planner each time. */
	private static final int[] OUT_OF_RANGE = { -1, 1000, 1200, Integer.MAX_VALUE, Integer.MIN_VALUE };

	@Test
	void whenTheRulesStopAResponseWithoutRetryAfterThenThePlannerStopsItAlikeWhateverElseItIsGiven() {
		for (RetrySettings settings : List.of(DEFAULTS, ODD)) {
			FirstAttemptRules rules = rules(settings);
			for (int status : statuses()) {
				RetryDecision.Stop stop = rules.stopWithoutRetryAfter(status);
				AttemptOutcome outcome = new AttemptOutcome.Response(status, RetryAfter.ABSENT);
				if (stop == null) {
					assertThat(settings.retryableStatuses()).contains(status);
					continue;
				}
				assertThat(stop.reason()).isEqualTo((status < 400) ? StopReason.SUCCESS : StopReason.NOT_RETRYABLE);
				for (RequestFacts facts : facts()) {
					for (int attempt : new int[] { 1, 2, 3, 7 }) {
						for (Duration elapsed : List.of(Duration.ZERO, Duration.ofSeconds(29), Duration.ofDays(1))) {
							RefusingPermits permits = new RefusingPermits();
							assertThat(RetryPlanner.decide(settings, facts, outcome, attempt, elapsed, permits, RANDOM))
								.isSameAs(stop);
							assertThat(permits.asked).isZero();
						}
					}
				}
			}
		}
	}

	@Test
	void whenAStatusIsRetryableThenTheRulesLeaveItToThePlanner() {
		FirstAttemptRules rules = rules(ODD);

		assertThat(rules.stopWithoutRetryAfter(200)).isNull();
		assertThat(rules.stopWithoutRetryAfter(404)).isNull();
		assertThat(rules.stopWithoutRetryAfter(503)).isNull();
		assertThat(rules.stopWithoutRetryAfter(429)).isEqualTo(new RetryDecision.Stop(StopReason.NOT_RETRYABLE));
		assertThat(rules.stopWithoutRetryAfter(204)).isEqualTo(new RetryDecision.Stop(StopReason.SUCCESS));
	}

	@Test
	void whenAFirstResponseSaysNothingMoreThanItsStatusThenRuleOneSettlesIt() {
		FirstAttemptRules rules = rules(DEFAULTS);
		RateLimitFieldReader quotaFields = quotaFields();

		assertThat(rules.settledBy(200, headers(), quotaFields)).isEqualTo(new RetryDecision.Stop(StopReason.SUCCESS));
		assertThat(rules.settledBy(404, headers("X-Trace", "t1"), quotaFields))
			.isEqualTo(new RetryDecision.Stop(StopReason.NOT_RETRYABLE));
		// A success never looks further than its Retry-After: a hint there asks for nothing.
		assertThat(rules.settledBy(200, headers("Retry-After-Ms", "700"), quotaFields))
			.isEqualTo(new RetryDecision.Stop(StopReason.SUCCESS));
		// Retryable: the call plans it.
		assertThat(rules.settledBy(503, headers(), quotaFields)).isNull();
	}

	@Test
	void whenAFirstResponseMayStillLeadToARetryOrRecordSomethingThenItIsNotSettled() {
		FirstAttemptRules rules = rules(DEFAULTS);
		RateLimitFieldReader quotaFields = quotaFields();

		// A Retry-After on any status: the call records the cooldown and reports the field.
		assertThat(rules.settledBy(200, headers("Retry-After", "7"), quotaFields)).isNull();
		assertThat(rules.settledBy(404, headers("Retry-After", "7"), quotaFields)).isNull();
		// An error's millisecond hint, and a 403 that may be a spent quota.
		assertThat(rules.settledBy(404, headers("Retry-After-Ms", "700"), quotaFields)).isNull();
		assertThat(rules.settledBy(403, headers(), quotaFields)).isNull();
		// A quota announced on a success paces the requests that follow.
		assertThat(rules.settledBy(200, headers("RateLimit", "\"burst\";r=0;t=2"), quotaFields)).isNull();
	}

	@Test
	void whenA403IsNotReadAsARateLimitThenItIsSettledAsNotRetryable() {
		RetrySettings.Header header = DEFAULTS.header();
		FirstAttemptRules rules = rules(DEFAULTS.withHeader(new RetrySettings.Header(header.maxWait(),
				header.onInvalid(), header.dateReference(), true, true, false)));

		assertThat(rules.settledBy(403, headers(), quotaFields()))
			.isEqualTo(new RetryDecision.Stop(StopReason.NOT_RETRYABLE));
	}

	@Test
	void whenTheKeyHeaderDoesNotDecideThenThePlannerDecidesAlikeWithAndWithoutIt() {
		List<HttpMethod> methods = new ArrayList<>(List.of(HttpMethod.values()));
		methods.add(HttpMethod.valueOf("PURGE"));
		methods.add(HttpMethod.valueOf("PROPFIND"));
		AttemptOutcome busy = new AttemptOutcome.Response(503, new RetryAfter.Delay(Duration.ofSeconds(2),
				RetryAfter.Form.SECONDS));
		for (RetrySettings settings : List.of(DEFAULTS, ODD, DEFAULTS.withRetryableMethods(Set.of("PURGE")))) {
			FirstAttemptRules rules = rules(settings);
			for (HttpMethod method : methods) {
				String name = RequestFactsResolver.method(method);
				for (IdempotencyMark mark : IdempotencyMark.values()) {
					boolean decides = rules.keyDecides(method, name, mark);
					assertThat(decides).as("%s %s", name, mark)
						.isEqualTo(mark == IdempotencyMark.UNSPECIFIED && !settings.retryableMethods().contains(name));
					RetryDecision withKey = RetryPlanner.decide(settings, new RequestFacts(name, mark, true, true),
							busy, 1, Duration.ZERO, RetryPermits.UNLIMITED, RANDOM);
					RetryDecision withoutKey = RetryPlanner.decide(settings,
							new RequestFacts(name, mark, false, true), busy, 1, Duration.ZERO, RetryPermits.UNLIMITED,
							RANDOM);
					if (decides) {
						assertThat(withKey).isInstanceOf(RetryDecision.Retry.class);
						assertThat(withoutKey).isEqualTo(new RetryDecision.Stop(StopReason.NON_IDEMPOTENT));
					}
					else {
						assertThat(withKey).as("%s %s", name, mark).isEqualTo(withoutKey);
					}
				}
			}
		}
	}

	@Test
	void whenAMethodIsNamedThenItIsTheNameTheFactsResolverGives() {
		for (HttpMethod method : HttpMethod.values()) {
			assertThat(FirstAttemptRules.methodName(method)).isEqualTo(method.name());
		}
		assertThat(FirstAttemptRules.methodName(HttpMethod.valueOf("purge"))).isEqualTo("PURGE");
		assertThat(FirstAttemptRules.methodName(HttpMethod.valueOf("PROPFIND"))).isEqualTo("PROPFIND");
	}

	@Test
	void whenTheBudgetSlidesOnTheCallsClockThenTheRulesSaySo() {
		FakeClock clock = new FakeClock();
		RetryBudget budget = RetryBudget.of(DEFAULTS.budget(), clock);
		ClientSettings client = new ClientSettings("default", DEFAULTS);

		assertThat(new FirstAttemptRules(client, budget, clock).budgetOnCallClock()).isTrue();
		assertThat(new FirstAttemptRules(client, budget, MonotonicClock.SYSTEM).budgetOnCallClock()).isFalse();
		assertThat(new FirstAttemptRules(client, null, clock).budgetOnCallClock()).isFalse();
	}

	private static FirstAttemptRules rules(RetrySettings settings) {
		return new FirstAttemptRules(new ClientSettings("default", settings), null, MonotonicClock.SYSTEM);
	}

	private static RateLimitFieldReader quotaFields() {
		return new RateLimitFieldReader(new LocalCooldownStore(new OriginProtection(100)), MonotonicClock.SYSTEM,
				Clock.systemUTC());
	}

	private static HttpHeaders headers(String... namesAndValues) {
		HttpHeaders headers = new HttpHeaders();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			headers.add(namesAndValues[i], namesAndValues[i + 1]);
		}
		return headers;
	}

	private static List<Integer> statuses() {
		List<Integer> statuses = new ArrayList<>();
		for (int status = 0; status < 1000; status++) {
			statuses.add(status);
		}
		for (int status : OUT_OF_RANGE) {
			statuses.add(status);
		}
		return statuses;
	}

	private static List<RequestFacts> facts() {
		List<RequestFacts> facts = new ArrayList<>();
		for (String method : List.of("GET", "POST", "PURGE")) {
			for (IdempotencyMark mark : IdempotencyMark.values()) {
				for (boolean key : new boolean[] { false, true }) {
					for (boolean replayable : new boolean[] { false, true }) {
						facts.add(new RequestFacts(method, mark, key, replayable));
					}
				}
			}
		}
		return facts;
	}

	/** Permits that refuse, and count how often they were asked. */
	private static final class RefusingPermits implements RetryPermits {

		private int asked;

		@Override
		public boolean tryAcquire() {
			this.asked++;
			return false;
		}

		@Override
		public void refund() {
			this.asked++;
		}

	}

}
