package dev.retryafter.core;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.header.ServerHints;
import org.jspecify.annotations.Nullable;

/**
 * Decides, for one attempt's outcome, whether to retry and after how long. Eight rules, the
 * first that applies wins: (1) a success or a non-retryable outcome ends the request (a
 * rate-limited 403 is retryable; a server verdict {@code false} stops a retryable one, a
 * verdict {@code true} makes any error retryable); (2) a
 * request that may not be repeated stops, unless it provably never left; (3) the last allowed
 * attempt stops; (4) the retry budget may refuse; (5) an invalid {@code Retry-After} abandons
 * or counts as absent; (6) a {@code Retry-After} longer than {@code header.max-wait} abandons;
 * (7) a wait plus the attempt reserve that does not fit the total budget abandons; (8) else
 * retry after the longer of the server's delay and the local backoff, plus jitter. A pure function of its arguments: it never sleeps,
 * logs or reads a clock.
 * <p>
 * No arithmetic here can overflow, whatever the settings and inputs: a server delay is
 * compared with {@code header.max-wait} before it is added to anything, and budget checks
 * subtract non-negative durations from non-negative durations only.
 *
 * @since 0.1.0
 */
public final class RetryPlanner {

	// A stop carries nothing but its reason, so one shared instance per reason spares an
	// allocation on every request that ends (most end at once, with a success).
	private static final RetryDecision.Stop[] STOPS = stops();

	private static final int FORBIDDEN = 403;

	private RetryPlanner() {
	}

	/**
	 * Decides what follows an attempt.
	 * @param settings the settings in force for this request
	 * @param request facts about the request
	 * @param outcome how the attempt ended
	 * @param attempt the number of the attempt that just ended, 1 for the first
	 * @param elapsed monotonic time since the first attempt started (a negative value is
	 * taken as zero)
	 * @param permits the retry budget, asked at rule 4 (and refunded if a later rule stops)
	 * @param random the random source for jitter
	 * @return the decision
	 * @throws IllegalArgumentException if {@code attempt < 1}
	 */
	public static RetryDecision decide(RetrySettings settings, RequestFacts request, AttemptOutcome outcome,
			int attempt, Duration elapsed, RetryPermits permits, RandomGenerator random) {
		checkPlanArguments(settings, outcome, attempt, elapsed, random);
		Objects.requireNonNull(request, "request");
		Objects.requireNonNull(permits, "permits");
		RetryDecision.Stop stop = finalStop(settings, outcome);
		if (stop == null) {
			stop = stopIfNotRepeatable(settings, request, outcome);
		}
		if (stop == null) {
			stop = stopIfLastAttempt(settings, attempt);
		}
		boolean serverPaced = isServerPaced(settings, outcome, attempt);
		if (stop == null && !serverPaced) {
			stop = stopIfBudgetRefuses(permits);
		}
		if (stop != null) {
			return stop;
		}
		if (serverPaced) {
			return planWait(settings, outcome, attempt, elapsed, random);
		}
		try {
			RetryDecision decision = planWait(settings, outcome, attempt, elapsed, random);
			if (decision instanceof RetryDecision.Stop) {
				permits.refund();
			}
			return decision;
		}
		catch (RuntimeException | Error ex) {
			// Only a misbehaving RandomGenerator can get here; the permit was not used.
			permits.refund();
			throw ex;
		}
	}

	/**
	 * Whether the server, not the client, sets this retry's wait: a valid {@code Retry-After}
	 * of at least {@link RetryDecision.Retry#SERVER_PACED_MINIMUM} that is not shorter than
	 * the local backoff (so the retry, if any, is {@link RetryDecision.Retry#isServerPaced()}).
	 * Such a retry comes back when the server said it could take it, so it spends no retry
	 * budget (rule 4 is skipped): a one-off herd told to return in a second all returns. The
	 * budget still limits what the client schedules by itself (backoff, I/O failures, and
	 * {@code Retry-After: 0}, which paces nothing).
	 */
	private static boolean isServerPaced(RetrySettings settings, AttemptOutcome outcome, int attempt) {
		if (outcome instanceof AttemptOutcome.Response response
				&& response.retryAfter() instanceof RetryAfter.Delay delay
				&& delay.delay().compareTo(RetryDecision.Retry.SERVER_PACED_MINIMUM) >= 0) {
			return delay.delay().compareTo(ExponentialBackoff.forRetry(settings.backoff(), attempt)) >= 0;
		}
		return false;
	}

	/**
	 * Plans the wait alone (rules 5 to 8), for a retry layer that has already decided to retry
	 * by its own rules (status, repeatability, attempt count, budget), such as a spring-retry
	 * {@code RetryPolicy}. {@link #decide} runs the same rules once rules 1 to 4 passed.
	 * @param settings the settings in force for this request
	 * @param outcome how the attempt ended
	 * @param attempt the number of the attempt that just ended, 1 for the first
	 * @param elapsed monotonic time since the first attempt started (a negative value is
	 * taken as zero)
	 * @param random the random source for jitter
	 * @return a retry with its wait, or a stop when the wait must not be shortened to fit
	 * ({@code invalid-retry-after}, {@code retry-after-too-long},
	 * {@code retry-after-exceeds-budget}, {@code budget-exhausted})
	 * @throws IllegalArgumentException if {@code attempt < 1}
	 */
	public static RetryDecision planWait(RetrySettings settings, AttemptOutcome outcome, int attempt,
			Duration elapsed, RandomGenerator random) {
		checkPlanArguments(settings, outcome, attempt, elapsed, random);
		RetryAfter retryAfter = retryAfter(outcome);
		RetryDecision.Stop stop = stopIfInvalidRetryAfter(settings, retryAfter);
		if (stop == null) {
			stop = stopIfRetryAfterTooLong(settings, retryAfter);
		}
		if (stop != null) {
			return stop;
		}
		RetryAfter.@Nullable Delay serverDelay = (retryAfter instanceof RetryAfter.Delay delay) ? delay : null;
		Duration backoff = ExponentialBackoff.forRetry(settings.backoff(), attempt);
		Duration base = (serverDelay != null) ? max(serverDelay.delay(), backoff) : backoff;
		Duration limit = longestWait(settings, elapsed);
		stop = stopIfOverBudget(serverDelay, base, limit);
		if (stop != null) {
			return stop;
		}
		return retry(settings, serverDelay, backoff, base, limit, random);
	}

	/**
	 * Checks the arguments {@link #decide} and {@link #planWait} share.
	 * @throws IllegalArgumentException if {@code attempt < 1}
	 */
	private static void checkPlanArguments(RetrySettings settings, AttemptOutcome outcome, int attempt,
			Duration elapsed, RandomGenerator random) {
		Objects.requireNonNull(settings, "settings");
		Objects.requireNonNull(outcome, "outcome");
		Objects.requireNonNull(elapsed, "elapsed");
		Objects.requireNonNull(random, "random");
		if (attempt < 1) {
			throw new IllegalArgumentException("attempt must be at least 1: " + attempt);
		}
	}

	/**
	 * Rule 1 alone: whether the outcome ends the request whatever else is known about it. It
	 * needs no request facts, no elapsed time and no permits, so a client adapter can settle
	 * the common case (a success) without gathering them: when this returns a stop,
	 * {@link #decide} returns the same one for every request, attempt, elapsed time and
	 * permits, and asks nothing of the permits.
	 * @param settings the settings in force for this request
	 * @param outcome how the attempt ended
	 * @return the stop ({@code success} or {@code not-retryable}), or {@code null} when the
	 * outcome is retryable and the later rules decide
	 */
	public static RetryDecision.@Nullable Stop stopIfFinal(RetrySettings settings, AttemptOutcome outcome) {
		Objects.requireNonNull(settings, "settings");
		Objects.requireNonNull(outcome, "outcome");
		return finalStop(settings, outcome);
	}

	/**
	 * Rule 1: a success, or an outcome that is not retryable, ends the request normally.
	 */
	private static RetryDecision.@Nullable Stop finalStop(RetrySettings settings, AttemptOutcome outcome) {
		if (outcome instanceof AttemptOutcome.Response response) {
			ServerHints.Verdict verdict = response.hints().verdict();
			if (isRetryableStatus(settings, response)) {
				return (verdict == ServerHints.Verdict.NO_RETRY) ? stop(StopReason.SERVER_SAID_NO_RETRY) : null;
			}
			if (verdict == ServerHints.Verdict.RETRY && response.status() >= 400) {
				// The server vouches for a retry; rules 2 to 8 still ask repeatability and budget.
				return null;
			}
			return stop((response.status() < 400) ? StopReason.SUCCESS : StopReason.NOT_RETRYABLE);
		}
		IoFailureKind kind = ((AttemptOutcome.IoFailure) outcome).kind();
		if (kind == IoFailureKind.UNKNOWN_HOST || kind == IoFailureKind.TLS_FAILURE) {
			return stop(StopReason.NOT_RETRYABLE);
		}
		boolean retried = kind.maybeSent() ? settings.ioErrors().read() : settings.ioErrors().connect();
		return retried ? null : stop(StopReason.NOT_RETRYABLE);
	}

	/**
	 * Whether a response's status is retried by the settings: a listed status, or a 403 that
	 * is a rate-limit answer (GitHub answers a spent quota and a secondary limit with 403): it
	 * carries a usable {@code Retry-After} or millisecond hint, or announces a quota of zero.
	 * A plain 403 is a refusal and is never retried.
	 * @param settings the settings in force
	 * @param response the response
	 * @return whether its status is retried
	 */
	public static boolean isRetryableStatus(RetrySettings settings, AttemptOutcome.Response response) {
		if (settings.retryableStatuses().contains(response.status())) {
			return true;
		}
		return isRateLimitedForbidden(settings, response);
	}

	/**
	 * Whether a response is a 403 that the settings treat as a rate-limit answer.
	 * @param settings the settings in force
	 * @param response the response
	 * @return whether it is a rate-limited 403
	 */
	public static boolean isRateLimitedForbidden(RetrySettings settings, AttemptOutcome.Response response) {
		return response.status() == FORBIDDEN && settings.header().rateLimitedForbidden()
				&& (response.retryAfter() instanceof RetryAfter.Delay || response.hints().quotaSpent());
	}

	/**
	 * Rule 2: a request that may not be repeated stops, unless it provably never left.
	 */
	private static RetryDecision.@Nullable Stop stopIfNotRepeatable(RetrySettings settings, RequestFacts request,
			AttemptOutcome outcome) {
		if (!request.bodyReplayable()) {
			// Even a never-sent request cannot be sent again without its body.
			return stop(StopReason.NON_IDEMPOTENT);
		}
		if (outcome instanceof AttemptOutcome.IoFailure failure && !failure.kind().maybeSent()) {
			// Nothing reached the server, so nothing would be repeated.
			return null;
		}
		return isRepeatable(settings, request) ? null : stop(StopReason.NON_IDEMPOTENT);
	}

	/**
	 * Whether a request that reached the server may be sent again, its body aside: the
	 * caller's mark, else a repeatable method or an idempotency key. A client adapter asks it
	 * before the first attempt, to keep a copy of the body only when a retry could need it.
	 * @param settings the settings in force for this request
	 * @param request the request's facts ({@code bodyReplayable} is not read)
	 * @return whether it may be repeated
	 * @since 0.2.0
	 */
	public static boolean isRepeatable(RetrySettings settings, RequestFacts request) {
		return switch (request.mark()) {
			case REPEATABLE -> true;
			case NOT_REPEATABLE -> false;
			case UNSPECIFIED -> settings.retryableMethods().contains(request.method()) || request.hasIdempotencyKey();
		};
	}

	/**
	 * Rule 3: the attempt that just ended was the last allowed one.
	 */
	private static RetryDecision.@Nullable Stop stopIfLastAttempt(RetrySettings settings, int attempt) {
		return (attempt >= settings.maxAttempts()) ? stop(StopReason.MAX_ATTEMPTS) : null;
	}

	/**
	 * Rule 4: the retry budget refuses. A permit taken here is refunded if a later rule stops.
	 */
	private static RetryDecision.@Nullable Stop stopIfBudgetRefuses(RetryPermits permits) {
		return permits.tryAcquire() ? null : stop(StopReason.RETRY_BUDGET);
	}

	/**
	 * Rule 5: an invalid {@code Retry-After} abandons, or (policy {@code backoff}) counts as
	 * absent, which the later rules do by ignoring anything but a {@link RetryAfter.Delay}.
	 */
	private static RetryDecision.@Nullable Stop stopIfInvalidRetryAfter(RetrySettings settings,
			RetryAfter retryAfter) {
		if (retryAfter instanceof RetryAfter.Invalid && settings.header().onInvalid() == OnInvalidRetryAfter.ABANDON) {
			return stop(StopReason.INVALID_RETRY_AFTER);
		}
		return null;
	}

	/**
	 * Rule 6: the server asks for longer than {@code header.max-wait} (equal is honoured). Runs
	 * before the delay is added to anything, so a saturated delay never reaches arithmetic.
	 */
	private static RetryDecision.@Nullable Stop stopIfRetryAfterTooLong(RetrySettings settings,
			RetryAfter retryAfter) {
		if (retryAfter instanceof RetryAfter.Delay delay && delay.delay().compareTo(settings.header().maxWait()) > 0) {
			return stop(StopReason.RETRY_AFTER_TOO_LONG);
		}
		return null;
	}

	/**
	 * Rule 7: the server's delay, or else the base, plus the attempt reserve does not fit the
	 * remaining budget. A server delay is never shortened to fit: the request gives up instead.
	 * @param limit the remaining budget minus the attempt reserve (negative if nothing fits)
	 */
	private static RetryDecision.@Nullable Stop stopIfOverBudget(RetryAfter.@Nullable Delay serverDelay,
			Duration base, Duration limit) {
		if (serverDelay != null && serverDelay.delay().compareTo(limit) > 0) {
			return stop(StopReason.RETRY_AFTER_EXCEEDS_BUDGET);
		}
		if (base.compareTo(limit) > 0) {
			return stop(StopReason.BUDGET_EXHAUSTED);
		}
		return null;
	}

	/**
	 * Rule 8: retry after the base plus jitter, trimmed to the budget but never below the base.
	 */
	private static RetryDecision.Retry retry(RetrySettings settings, RetryAfter.@Nullable Delay serverDelay,
			Duration backoff, Duration base, Duration limit, RandomGenerator random) {
		Duration wait = Jitter.apply(base, settings.jitter(), random, limit);
		return new RetryDecision.Retry(wait, base, source(serverDelay, backoff));
	}

	/**
	 * The server's delay names the source when it set the base (ties go to the server: it was
	 * the server's wait that was honoured).
	 */
	private static DelaySource source(RetryAfter.@Nullable Delay serverDelay, Duration backoff) {
		if (serverDelay == null || serverDelay.delay().compareTo(backoff) < 0) {
			return DelaySource.BACKOFF;
		}
		return switch (serverDelay.form()) {
			case SECONDS -> DelaySource.RETRY_AFTER_SECONDS;
			case DATE -> DelaySource.RETRY_AFTER_DATE;
			case MILLIS -> DelaySource.RETRY_AFTER_MS;
			case QUOTA_RESET -> DelaySource.QUOTA_RESET;
		};
	}

	/**
	 * The longest wait that leaves the attempt reserve inside the remaining budget:
	 * {@code total-budget - elapsed - attempt-reserve}. Each subtraction has two non-negative
	 * operands, so none can overflow; a negative remaining budget is returned as is, since no
	 * wait fits it.
	 */
	private static Duration longestWait(RetrySettings settings, Duration elapsed) {
		Duration remaining = settings.totalBudget().minus(elapsed.isNegative() ? Duration.ZERO : elapsed);
		return remaining.isNegative() ? remaining : remaining.minus(settings.attemptReserve());
	}

	private static RetryAfter retryAfter(AttemptOutcome outcome) {
		return (outcome instanceof AttemptOutcome.Response response) ? response.retryAfter() : RetryAfter.ABSENT;
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

	private static RetryDecision.Stop[] stops() {
		StopReason[] reasons = StopReason.values();
		RetryDecision.Stop[] stops = new RetryDecision.Stop[reasons.length];
		for (StopReason reason : reasons) {
			stops[reason.ordinal()] = new RetryDecision.Stop(reason);
		}
		return stops;
	}

	private static RetryDecision.Stop stop(StopReason reason) {
		return STOPS[reason.ordinal()];
	}

}
