package dev.retryafter.core;

/**
 * What kind of I/O failure ended an attempt. The distinction that matters is whether the
 * request may have reached the server.
 *
 * @since 0.1.0
 */
public enum IoFailureKind {

	/** The connection was refused: the request never left. */
	CONNECT_REFUSED("connect-refused", false),

	/** The connection could not be opened in time: the request never left. */
	CONNECT_TIMEOUT("connect-timeout", false),

	/** The response did not arrive in time: the server may have received the request. */
	READ_TIMEOUT("read-timeout", true),

	/** The connection was reset or closed after the request was sent. */
	RESET_AFTER_SEND("reset-after-send", true),

	/** The host name could not be resolved: never retried. */
	UNKNOWN_HOST("unknown-host", false),

	/**
	 * The TLS handshake failed or the server's certificate was refused: never retried, since
	 * the same handshake would fail the same way.
	 */
	TLS_FAILURE("tls-failure", false),

	/** Any other I/O failure: treated as possibly sent. */
	OTHER("other", true);

	private final String tagValue;

	private final boolean maybeSent;

	IoFailureKind(String tagValue, boolean maybeSent) {
		this.tagValue = tagValue;
		this.maybeSent = maybeSent;
	}

	/**
	 * The value used in log lines and by callers that report the failure, e.g.
	 * {@code connect-refused}.
	 * @return the tag value
	 */
	public String tagValue() {
		return this.tagValue;
	}

	/**
	 * Whether the server may have received the request.
	 * @return whether the request may have been sent
	 */
	public boolean maybeSent() {
		return this.maybeSent;
	}

}
