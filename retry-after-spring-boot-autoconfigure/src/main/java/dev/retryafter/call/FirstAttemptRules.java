package dev.retryafter.call;

import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.IdempotencyMark;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.header.RetryAfter;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;

/**
 * What the first attempt of a request needs to know about its client, worked out once per
 * client instead of once per request: the client's retry budget, the planner's rule 1 for
 * every status without {@code Retry-After}, and which standard methods the settings repeat by
 * themselves (public for the adapters, not for applications). Each answer is the planner's
 * or the settings' own, asked ahead of time, so a request settled with them is decided
 * exactly as {@link RetryPlanner#decide} decides it.
 */
public final class FirstAttemptRules {

	// HttpStatusCode's range: 100 to 999.
	private static final int STATUSES = 1000;

	private static final HttpMethod[] STANDARD_METHODS = HttpMethod.values();

	private final ClientSettings client;

	private final @Nullable RetryBudget budget;

	private final boolean budgetOnCallClock;

	/** Rule 1's answer by status, for a response without {@code Retry-After}. */
	private final RetryDecision.@Nullable Stop[] stops = new RetryDecision.Stop[STATUSES];

	/** By index in {@link #STANDARD_METHODS}: whether the settings list the method as repeatable. */
	private final boolean[] repeatable = new boolean[STANDARD_METHODS.length];

	/**
	 * Works out the rules of one client.
	 * @param client the client and its settings
	 * @param budget its retry budget, or {@code null}
	 * @param clock the clock the calls are timed on
	 */
	FirstAttemptRules(ClientSettings client, @Nullable RetryBudget budget, MonotonicClock clock) {
		this.client = client;
		this.budget = budget;
		this.budgetOnCallClock = budget != null && budget.ticksOn(clock);
		for (int status = 0; status < STATUSES; status++) {
			this.stops[status] = RetryPlanner.stopIfFinal(client.settings(),
					ResponseOutcomes.outcome(status, RetryAfter.ABSENT));
		}
		for (int i = 0; i < STANDARD_METHODS.length; i++) {
			this.repeatable[i] = client.settings().retryableMethods().contains(STANDARD_METHODS[i].name());
		}
	}

	/**
	 * The client these rules are worked out for.
	 * @return the client and its settings
	 */
	public ClientSettings client() {
		return this.client;
	}

	/**
	 * The client's settings.
	 * @return the settings
	 */
	public RetrySettings settings() {
		return this.client.settings();
	}

	/**
	 * The client's retry budget, which the first attempt counts towards.
	 * @return the budget, or {@code null} when the client has none
	 */
	public @Nullable RetryBudget budget() {
		return this.budget;
	}

	/**
	 * Whether the budget slides on the calls' clock, so a call's start reading can count the
	 * request.
	 * @return whether the budget ticks on the calls' monotonic clock
	 */
	public boolean budgetOnCallClock() {
		return this.budgetOnCallClock;
	}

	/**
	 * The planner's rule 1 for a response without {@code Retry-After}.
	 * @param status the response status
	 * @return the stop that ends the request whatever else is known, or {@code null} when the
	 * status is retryable
	 */
	public RetryDecision.@Nullable Stop stopWithoutRetryAfter(int status) {
		if (status >= 0 && status < STATUSES) {
			return this.stops[status];
		}
		return RetryPlanner.stopIfFinal(settings(), ResponseOutcomes.outcome(status, RetryAfter.ABSENT));
	}

	/**
	 * Whether a first response settles its request, the one rule both adapters' first-attempt
	 * shortcuts apply: a call is built only for a response this does not settle. A response
	 * with {@code Retry-After}, or announcing its origin's quota, goes on as a call, which
	 * records the cooldown or the quota under the request's key; an error with a millisecond
	 * hint, a verdict or a spent quota (a rate-limited {@code 403}) may still be retried, and
	 * the call reads them. A success never looks further than its {@code Retry-After}.
	 * @param status the response status
	 * @param headers the response headers
	 * @param quotaFields the adapter's quota field reader ({@link CallContext#quotaFields()})
	 * @return the stop the planner would decide, whatever else is known, or {@code null} when
	 * the response must go on as a call
	 */
	public RetryDecision.@Nullable Stop settledBy(int status, HttpHeaders headers, RateLimitFieldReader quotaFields) {
		if (ResponseOutcomes.hasRetryAfter(headers)) {
			return null;
		}
		RetryDecision.Stop stop = stopWithoutRetryAfter(status);
		if (stop == null) {
			return null;
		}
		if (status >= 400 && (ResponseOutcomes.hasRetryHints(headers)
				|| (status == 403 && settings().header().rateLimitedForbidden()))) {
			return null;
		}
		return quotaFields.present(settings(), status, headers) ? null : stop;
	}

	/**
	 * The method name as the planner and the listener see it: a standard method's own name
	 * (upper case already), any other upper-cased.
	 * @param method the request method
	 * @return its name, upper case
	 */
	public static String methodName(HttpMethod method) {
		for (HttpMethod standard : STANDARD_METHODS) {
			if (standard == method) {
				return standard.name();
			}
		}
		return RequestFactsResolver.method(method);
	}

	/**
	 * Whether the idempotency-key header can change any decision about a request: only for
	 * an unmarked request whose method the settings do not repeat by themselves (a key makes
	 * such a request repeatable). For any other, reading the header may wait until a retry is
	 * considered.
	 * @param method the request method
	 * @param name its name, upper case
	 * @param mark the caller's mark
	 * @return whether the header decides
	 */
	public boolean keyDecides(HttpMethod method, String name, IdempotencyMark mark) {
		return mark == IdempotencyMark.UNSPECIFIED && !repeatable(method, name);
	}

	private boolean repeatable(HttpMethod method, String name) {
		for (int i = 0; i < STANDARD_METHODS.length; i++) {
			if (STANDARD_METHODS[i] == method) {
				return this.repeatable[i];
			}
		}
		return settings().retryableMethods().contains(name);
	}

}
