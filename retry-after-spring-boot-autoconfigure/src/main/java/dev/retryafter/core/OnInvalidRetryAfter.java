package dev.retryafter.core;

/**
 * What to do with a present but invalid {@code Retry-After} field.
 *
 * @since 0.1.0
 */
public enum OnInvalidRetryAfter {

	/** Behave as if the field were absent: use local backoff. */
	BACKOFF,

	/** Stop retrying with reason {@link StopReason#INVALID_RETRY_AFTER}. */
	ABANDON

}
