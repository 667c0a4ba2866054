package dev.retryafter.core;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Supplier;

import dev.retryafter.core.header.DateReference;
import dev.retryafter.core.header.RetryAfter;
import org.junit.jupiter.api.Test;

import dev.retryafter.core.RetryDecision.Retry;
import dev.retryafter.core.RetryDecision.Stop;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property-style test of {@link RetryPlanner}: 100,000 random settings, requests, outcomes,
 * attempts and elapsed times from a seeded {@link SplittableRandom}, including the extremes
 * (the longest {@code Duration}, saturated server delays, huge multipliers, attempt numbers
 * near {@link Integer#MAX_VALUE}, negative elapsed times). A failure message names the case
 * number, so a failing case can be replayed with the same seed.
 */
class RetryPlannerPropertyTests {

	private static final long SEED = 0x5EED_2026_0908L;

	private static final int CASES = 100_000;

	/** The largest value a {@code Duration} can hold. */
	private static final Duration LONGEST = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);

	private static final String[] METHODS = { "GET", "GET", "GET", "HEAD", "PUT", "DELETE", "POST", "PATCH" };

	private static final int[] STATUSES = { 200, 304, 400, 500, 429, 429, 429, 503, 503, 503 };

	@Test
	void shouldNeverThrowAndEveryRetryShouldRespectTheServerTheBudgetAndTheAttemptLimit() {
		SplittableRandom random = new SplittableRandom(SEED);
		Map<StopReason, Integer> stops = new EnumMap<>(StopReason.class);
		Set<DelaySource> sources = EnumSet.noneOf(DelaySource.class);
		int retries = 0;
		for (int i = 0; i < CASES; i++) {
			Case c = randomCase(random);
			CountingPermits permits = new CountingPermits(random.nextInt(10) != 0);
			RetryDecision decision = RetryPlanner.decide(c.settings, c.request, c.outcome, c.attempt, c.elapsed,
					permits, random.split());
			int number = i;
			Supplier<String> description = () -> "case " + number + ": " + c + " -> " + decision;
			if (decision instanceof Retry retry) {
				retries++;
				sources.add(retry.source());
				assertRetry(c, retry, description);
				// A retry the server paced spends no budget; every other one takes one permit.
				assertThat(permits.acquires()).as(description).isEqualTo(retry.isServerPaced() ? 0 : 1);
				assertThat(permits.refunds()).as(description).isZero();
			}
			else {
				Stop stop = (Stop) decision;
				stops.merge(stop.reason(), 1, Integer::sum);
				// A permit taken for a retry that a later rule stopped goes back, exactly once.
				assertThat(permits.refunds()).as(description).isEqualTo(permits.granted());
				assertThat(permits.acquires()).as(description).isLessThanOrEqualTo(1);
			}
		}
		// The generator must reach every rule, or the properties above prove little.
		assertThat(retries).isGreaterThan(CASES / 20);
		assertThat(sources).containsExactlyInAnyOrder(DelaySource.values());
		assertThat(stops.keySet()).containsExactlyInAnyOrder(StopReason.SUCCESS, StopReason.NOT_RETRYABLE,
				StopReason.NON_IDEMPOTENT, StopReason.MAX_ATTEMPTS, StopReason.RETRY_BUDGET,
				StopReason.INVALID_RETRY_AFTER, StopReason.RETRY_AFTER_TOO_LONG,
				StopReason.RETRY_AFTER_EXCEEDS_BUDGET, StopReason.BUDGET_EXHAUSTED);
	}

	private static void assertRetry(Case c, Retry retry, Supplier<String> description) {
		RetrySettings settings = c.settings;
		assertThat(c.attempt).as(description).isLessThan(settings.maxAttempts());
		assertThat(retry.base()).as(description).isLessThanOrEqualTo(retry.delay());
		BigDecimal remaining = seconds(settings.totalBudget())
			.subtract(seconds(c.elapsed.isNegative() ? Duration.ZERO : c.elapsed));
		assertThat(seconds(retry.delay()).add(seconds(settings.attemptReserve()))).as(description)
			.isLessThanOrEqualTo(remaining);
		BigDecimal jitterCeiling = seconds(retry.base())
			.multiply(BigDecimal.ONE.add(new BigDecimal(settings.jitter())))
			.add(new BigDecimal("0.000000001"));
		assertThat(seconds(retry.delay())).as(description).isLessThanOrEqualTo(jitterCeiling);
		Duration backoff = ExponentialBackoff.forRetry(settings.backoff(), c.attempt);
		if (c.outcome instanceof AttemptOutcome.Response response
				&& response.retryAfter() instanceof RetryAfter.Delay delay) {
			assertThat(retry.base()).as(description).isGreaterThanOrEqualTo(delay.delay());
			assertThat(delay.delay()).as(description).isLessThanOrEqualTo(settings.header().maxWait());
			assertThat(retry.base()).as(description).isEqualTo(max(delay.delay(), backoff));
		}
		else {
			assertThat(retry.base()).as(description).isEqualTo(backoff);
			assertThat(retry.source()).as(description).isEqualTo(DelaySource.BACKOFF);
		}
	}

	private static Case randomCase(SplittableRandom random) {
		// Drawn in the order of the components, so the seed replays the same cases; what is not
		// drawn keeps its default.
		RetrySettings settings = RetrySettings.defaults()
			.withMaxAttempts(maxAttempts(random))
			.withTotalBudget(budget(random))
			.withAttemptReserve(reserve(random))
			.withRetryableStatuses(statuses(random))
			.withRetryableMethods(random.nextBoolean() ? Set.of("GET", "HEAD", "PUT", "DELETE") : Set.of("GET"))
			.withBackoff(
					new RetrySettings.Backoff(backoffDuration(random), multiplier(random), backoffDuration(random)))
			.withJitter(unit(random))
			.withHeader(new RetrySettings.Header(maxWait(random),
					random.nextBoolean() ? OnInvalidRetryAfter.BACKOFF : OnInvalidRetryAfter.ABANDON,
					DateReference.SERVER_DATE))
			.withIoErrors(new RetrySettings.IoErrors(random.nextInt(5) != 0, random.nextInt(5) != 0));
		RequestFacts request = new RequestFacts(METHODS[random.nextInt(METHODS.length)], mark(random),
				random.nextInt(4) == 0, random.nextInt(20) != 0);
		return new Case(settings, request, outcome(random), attempt(random), elapsed(random));
	}

	private static IdempotencyMark mark(SplittableRandom random) {
		return switch (random.nextInt(6)) {
			case 0 -> IdempotencyMark.REPEATABLE;
			case 1 -> IdempotencyMark.NOT_REPEATABLE;
			default -> IdempotencyMark.UNSPECIFIED;
		};
	}

	private static int maxAttempts(SplittableRandom random) {
		return switch (random.nextInt(4)) {
			case 0 -> 1;
			case 1 -> Integer.MAX_VALUE;
			default -> random.nextInt(1, 12);
		};
	}

	private static int attempt(SplittableRandom random) {
		return switch (random.nextInt(6)) {
			case 0 -> Integer.MAX_VALUE;
			case 1 -> random.nextInt(1, Integer.MAX_VALUE);
			default -> random.nextInt(1, 4);
		};
	}

	private static Duration budget(SplittableRandom random) {
		return switch (random.nextInt(8)) {
			case 0 -> Duration.ZERO;
			case 1 -> LONGEST;
			case 2 -> Duration.ofSeconds(random.nextLong(0, Long.MAX_VALUE), random.nextInt(1_000_000_000));
			default -> Duration.ofMillis(random.nextLong(0, 120_001));
		};
	}

	private static Duration reserve(SplittableRandom random) {
		return switch (random.nextInt(10)) {
			case 0 -> Duration.ZERO;
			case 1 -> LONGEST;
			default -> Duration.ofMillis(random.nextLong(0, 5_001));
		};
	}

	private static Duration backoffDuration(SplittableRandom random) {
		return switch (random.nextInt(8)) {
			case 0 -> Duration.ZERO;
			case 1 -> LONGEST;
			default -> Duration.ofNanos(random.nextLong(0, 5_000_000_001L));
		};
	}

	private static double multiplier(SplittableRandom random) {
		return switch (random.nextInt(6)) {
			case 0 -> 1.0;
			case 1 -> Double.MAX_VALUE;
			case 2 -> 2.0;
			default -> random.nextDouble(1.0, 10.0);
		};
	}

	private static double unit(SplittableRandom random) {
		return switch (random.nextInt(5)) {
			case 0 -> 0.0;
			case 1 -> 1.0;
			default -> random.nextDouble();
		};
	}

	private static Duration maxWait(SplittableRandom random) {
		return switch (random.nextInt(8)) {
			case 0 -> Duration.ZERO;
			case 1 -> RetryAfter.MAX_DELAY.minusNanos(1);
			default -> Duration.ofMillis(random.nextLong(0, 120_001));
		};
	}

	private static Duration elapsed(SplittableRandom random) {
		return switch (random.nextInt(20)) {
			case 0 -> Duration.ofSeconds(Long.MIN_VALUE);
			case 1 -> LONGEST;
			case 2 -> Duration.ofMillis(-random.nextLong(0, 20_001));
			case 3, 4, 5 -> Duration.ZERO;
			default -> Duration.ofNanos(random.nextLong(0, 20_000_000_001L));
		};
	}

	private static AttemptOutcome outcome(SplittableRandom random) {
		if (random.nextInt(5) == 0) {
			IoFailureKind[] kinds = IoFailureKind.values();
			return new AttemptOutcome.IoFailure(kinds[random.nextInt(kinds.length)]);
		}
		return new AttemptOutcome.Response(STATUSES[random.nextInt(STATUSES.length)], retryAfter(random));
	}

	private static RetryAfter retryAfter(SplittableRandom random) {
		// Every form, the millisecond hint's too, so every delay source is reached.
		RetryAfter.Form form = RetryAfter.Form.values()[random.nextInt(RetryAfter.Form.values().length)];
		return switch (random.nextInt(8)) {
			case 0 -> RetryAfter.ABSENT;
			case 1 -> new RetryAfter.Invalid("fixture");
			case 2 -> new RetryAfter.Delay(RetryAfter.MAX_DELAY, form);
			case 3 -> new RetryAfter.Delay(Duration.ZERO, form);
			default -> new RetryAfter.Delay(Duration.ofNanos(random.nextLong(0, 90_000_000_001L)), form);
		};
	}

	private static Set<Integer> statuses(SplittableRandom random) {
		return switch (random.nextInt(10)) {
			case 0, 1 -> Set.of(429, 503, 500);
			case 2 -> Set.of();
			default -> Set.of(429, 503);
		};
	}

	private static BigDecimal seconds(Duration duration) {
		return BigDecimal.valueOf(duration.getSeconds()).add(BigDecimal.valueOf(duration.getNano(), 9));
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

	private record Case(RetrySettings settings, RequestFacts request, AttemptOutcome outcome, int attempt,
			Duration elapsed) {
	}

}
