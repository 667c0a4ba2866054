package dev.retryafter.core;

/**
 * What kind of I/O failure ended an attempt. The distinction that matters is whether the
 * request may have reached the server.
 *
 * @since 0.1.0
 */
public enum IoFailureKind {

	/** The connection was refused: the request never left. */
	CONNECT_REFUSED(false),

	/** The connection could not be opened in time: the request never left. */
	CONNECT_TIMEOUT(false),

	/** The response did not arrive in time: the server may have received the request. */
	READ_TIMEOUT(true),

	/** The connection was reset or closed after the request was sent. */
	RESET_AFTER_SEND(true),

	/** The host name could not be resolved: never retried. */
	UNKNOWN_HOST(false),

	/**
	 * The TLS handshake failed or the server's certificate was refused: never retried, since
	 * the same handshake would fail the same way.
	 */
	TLS_FAILURE(false),

	/** Any other I/O failure: treated as possibly sent. */
	OTHER(true);

	private final boolean maybeSent;

	IoFailureKind(boolean maybeSent) {
		this.maybeSent = maybeSent;
	}

	/**
	 * Whether the server may have received the request.
	 * @return whether the request may have been sent
	 */
	public boolean maybeSent() {
		return this.maybeSent;
	}

}
