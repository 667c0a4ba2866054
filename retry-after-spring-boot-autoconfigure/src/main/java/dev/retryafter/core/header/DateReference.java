package dev.retryafter.core.header;

/**
 * What an HTTP-date {@code Retry-After} is measured against.
 *
 * @since 0.1.0
 */
public enum DateReference {

	/**
	 * The response's own {@code Date} field when present and valid (removes client/server
	 * clock skew), else the local receive instant.
	 */
	SERVER_DATE,

	/** Always the local clock at the time the response was received. */
	LOCAL_CLOCK

}
