package dev.retryafter.call;

import java.time.Duration;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryPermits;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.StopReason;
import dev.retryafter.spi.RetriedInvocation;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link RetryCall} may spend: its own time budget ({@code total-budget}, from the
 * request's start) and its side of its client's retry budget (the requests the call counts,
 * the permits the planner takes for its retries, and those given back for a retry never sent
 * or a decision handed back to an outer retry layer). Kept apart from the call so that every
 * place a permit is taken or given back is in one class: a permit that leaks starves the
 * client's other calls of retries.
 */
final class CallBudget {

	private static final RetryDecision.Stop OUTER_RETRY = new RetryDecision.Stop(StopReason.OUTER_RETRY);

	private final ClientSettings client;

	/** The client's retry budget as the planner sees it: each retry the client paces takes from it. */
	private final RetryPermits permits;

	/** The client's retry budget, which counts the request once it is sent; null if off. */
	private final @Nullable RetryBudget budget;

	/** The monotonic reading the request's time budget runs from. */
	private final long startNanos;

	/** Whether the request was counted as its first attempt went out: later admissions are for retries. */
	private boolean firstSent;

	CallBudget(ClientSettings client, @Nullable RetryBudget budget, long startNanos, boolean firstSent) {
		this.client = client;
		this.budget = budget;
		this.permits = (budget != null) ? budget.permits() : RetryPermits.UNLIMITED;
		this.startNanos = startNanos;
		this.firstSent = firstSent;
	}

	/** Whether the first attempt has gone out, counted (by the call, or before it took over). */
	boolean firstSent() {
		return this.firstSent;
	}

	/** Whether the whole time budget is spent at {@code nowNanos}. */
	boolean timeSpent(long nowNanos) {
		return elapsed(nowNanos).compareTo(this.client.settings().totalBudget()) >= 0;
	}

	/** What is left of the time budget at {@code nowNanos}, never negative. */
	Duration timeLeft(long nowNanos) {
		Duration left = this.client.settings().totalBudget().minus(elapsed(nowNanos));
		return left.isNegative() ? Duration.ZERO : left;
	}

	private Duration elapsed(long nowNanos) {
		return Duration.ofNanos(nowNanos - this.startNanos);
	}

	/** Counts the request as its first attempt is sent. */
	void firstAttemptSent() {
		this.firstSent = true;
		if (this.budget != null) {
			this.budget.recordRequest();
		}
	}

	/**
	 * Counts a retry being sent: a server-paced one took no permit, but is a request the
	 * origin sees.
	 */
	void retrySent(RetryDecision.Retry retry) {
		if (retry.isServerPaced() && this.budget != null) {
			this.budget.recordRequest();
		}
	}

	/** Gives back the permit of a retry that is never sent; a server-paced one took none. */
	void retryCalledOff(RetryDecision.Retry retry) {
		if (!retry.isServerPaced()) {
			this.permits.refund();
		}
	}

	/**
	 * Plans what follows an attempt with this budget's permits. When an outer retry layer
	 * drives the call, a first attempt that would continue is handed back to it instead
	 * (reason {@code outer-retry}), if that layer retries it.
	 * @param call the call, asked for its collaborators and its outer-retry invocation
	 * @param facts the request's facts as they stand now
	 * @param outcome how the attempt ended
	 * @param attempt the attempt number, 1 for the first
	 * @return the decision, not yet reported
	 */
	RetryDecision plan(RetryCall call, RequestFacts facts, AttemptOutcome outcome, int attempt) {
		CallContext context = call.context();
		RetryDecision decision = RetryPlanner.decide(this.client.settings(), facts, outcome, attempt,
				elapsed(context.monotonicClock().nanoTime()), this.permits, context.random());
		if (attempt == 1 && wouldContinue(decision)) {
			RetriedInvocation invocation = call.retriedInvocation();
			if (invocation != null && call.takes(invocation, outcome)) {
				invocation.handedBack(this.client.name(), facts.method(), outcome, context.monotonicClock().nanoTime());
				decision = handBack(decision);
			}
			else if (invocation == null && context.outerRetry().isOuterRetryActive()) {
				decision = handBack(decision);
			}
		}
		return decision;
	}

	// Anything but a normal end: only then can an outer layer matter, so a success never asks.
	private static boolean wouldContinue(RetryDecision decision) {
		return !(decision instanceof RetryDecision.Stop stop) || stop.reason().isAbandonment();
	}

	// The outer layer plans its own wait (from the same Retry-After) and decides whether to try
	// again: this call neither waits nor spends a retry-budget permit, and refunds the planner's.
	private RetryDecision handBack(RetryDecision decision) {
		if (decision instanceof RetryDecision.Retry) {
			this.permits.refund();
		}
		return OUTER_RETRY;
	}

}
