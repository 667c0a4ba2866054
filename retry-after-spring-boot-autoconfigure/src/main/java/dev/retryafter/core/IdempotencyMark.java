package dev.retryafter.core;

/**
 * A caller's explicit statement about whether one request may be repeated.
 *
 * @since 0.1.0
 */
public enum IdempotencyMark {

	/** No mark: the method and the idempotency-key header decide. */
	UNSPECIFIED,

	/** The caller says the request may be repeated (e.g. a POST it made safe to replay). */
	REPEATABLE,

	/** The caller says the request must not be repeated (e.g. a GET with side effects). */
	NOT_REPEATABLE

}
