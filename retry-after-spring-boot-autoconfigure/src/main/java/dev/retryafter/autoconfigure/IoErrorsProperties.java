package dev.retryafter.autoconfigure;

import dev.retryafter.core.RetrySettings;
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

	/**
	 * Maps this group onto the core's {@link RetrySettings.IoErrors}, one line per setting: a value
	 * unset at both levels is the core's default.
	 * @param m where each value comes from
	 * @param d the core's defaults
	 * @return the core's settings
	 */
	static RetrySettings.IoErrors map(PropertyMerge<IoErrorsProperties> m, RetrySettings.IoErrors d) {
		return new RetrySettings.IoErrors(
				m.get("connect", IoErrorsProperties::getConnect, PropertyChecks::required, d.connect()),
				m.get("read", IoErrorsProperties::getRead, PropertyChecks::required, d.read()));
	}

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
