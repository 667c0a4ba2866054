package dev.retryafter.core;

/**
 * What a request does when its origin is cooling down.
 *
 * @since 0.1.0
 */
public enum CooldownMode {

	/** Wait until the origin's not-before instant (plus jitter) if that fits the budget, else fail fast. */
	WAIT,

	/** Fail at once without sending. */
	FAIL_FAST

}
