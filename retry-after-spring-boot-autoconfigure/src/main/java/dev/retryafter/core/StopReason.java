package dev.retryafter.core;

/**
 * Why retrying stopped. {@link #SUCCESS}, {@link #NOT_RETRYABLE} and {@link #OUTER_RETRY}
 * are normal ends; every other value is an abandonment and becomes the {@code reason} tag of
 * {@code http.client.retry.abandoned}.
 *
 * @since 0.1.0
 */
public enum StopReason {

	/** The outcome was a success (a status that is neither retryable nor an error). */
	SUCCESS("success", false),

	/** The outcome was an error that is not retryable (e.g. 500, or an unknown host). */
	NOT_RETRYABLE("not-retryable", false),

	/** The request may not be repeated. */
	NON_IDEMPOTENT("non-idempotent", true),

	/** The last allowed attempt was made. */
	MAX_ATTEMPTS("max-attempts", true),

	/** The retry budget refused another retry. */
	RETRY_BUDGET("retry-budget", true),

	/** The {@code Retry-After} field was invalid and the policy is to abandon. */
	INVALID_RETRY_AFTER("invalid-retry-after", true),

	/** The server asked for a wait longer than {@code retry-after.header.max-wait}. */
	RETRY_AFTER_TOO_LONG("retry-after-too-long", true),

	/** The server's wait plus the attempt reserve does not fit the remaining budget. */
	RETRY_AFTER_EXCEEDS_BUDGET("retry-after-exceeds-budget", true),

	/** The local backoff plus the attempt reserve does not fit the remaining budget. */
	BUDGET_EXHAUSTED("budget-exhausted", true),

	/**
	 * The server said not to retry ({@code X-Should-Retry: false} or
	 * {@code Stripe-Should-Retry: false}) on an outcome that would otherwise be retried.
	 */
	SERVER_SAID_NO_RETRY("server-said-no-retry", true),

	/** The waiting thread was interrupted. */
	INTERRUPTED("interrupted", true),

	/** The origin is cooling down and the request was refused without being sent. */
	COOLDOWN("cooldown", true),

	/**
	 * The caller cancelled a non-blocking call (a reactive subscriber went away) while it
	 * waited for a retry or a cooldown, so nothing more was sent.
	 */
	CANCELLED("cancelled", true),

	/**
	 * A retry layer around the client (a spring-retry template backing off with the same
	 * policy) decides whether to retry: the interceptor sent this one attempt and handed the
	 * outcome back. Not an abandonment: that layer may still retry.
	 */
	OUTER_RETRY("outer-retry", false);

	private final String tagValue;

	private final boolean abandonment;

	StopReason(String tagValue, boolean abandonment) {
		this.tagValue = tagValue;
		this.abandonment = abandonment;
	}

	/**
	 * The value used for the {@code reason} meter tag and in log lines.
	 * @return the tag value
	 */
	public String tagValue() {
		return this.tagValue;
	}

	/**
	 * Whether this reason means a retryable failure was given up on.
	 * @return whether this is an abandonment
	 */
	public boolean isAbandonment() {
		return this.abandonment;
	}

}
