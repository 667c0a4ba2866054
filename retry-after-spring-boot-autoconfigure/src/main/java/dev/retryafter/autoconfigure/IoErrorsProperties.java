package dev.retryafter.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * Retries of requests that failed with an I/O error.
 *
 * @since 0.1.0
 */
public class IoErrorsProperties {

	/**
	 * Whether connection failures, where the request was never sent, are retried for any
	 * method.
	 */
	private @Nullable Boolean connect;

	/**
	 * Whether read timeouts and connection resets after sending are retried for
	 * repeatable requests.
	 */
	private @Nullable Boolean read;

	public @Nullable Boolean getConnect() {
		return this.connect;
	}

	public void setConnect(@Nullable Boolean connect) {
		this.connect = connect;
	}

	public @Nullable Boolean getRead() {
		return this.read;
	}

	public void setRead(@Nullable Boolean read) {
		this.read = read;
	}

}
