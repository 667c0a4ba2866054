package dev.retryafter.benchmarks;

import java.net.URI;

/**
 * One client under test, retrying the way its library does: a GET that returns the final
 * status after the library's retries.
 */
interface Caller extends AutoCloseable {

	/** The status reported when the call ended in an I/O error. */
	int IO_ERROR = 0;

	/**
	 * Sends a GET, letting the library retry.
	 * @param uri the target
	 * @return the final status code, or {@link #IO_ERROR}
	 */
	default int get(URI uri) {
		return get(uri, null);
	}

	/**
	 * Sends a GET with an {@code Authorization} header, letting the library retry.
	 * @param uri the target
	 * @param authorization the header's value, or {@code null} for none
	 * @return the final status code, or {@link #IO_ERROR}
	 */
	int get(URI uri, String authorization);

	/**
	 * Why calls gave up, where the library says so (ours, from its abandonment meter).
	 * @return e.g. {@code retry-budget=60}, or empty
	 */
	default String abandonments() {
		return "";
	}

	/**
	 * Requests the library held back before sending them (ours, from its cooldown meter).
	 * @return the count, or -1 when the library never holds requests
	 */
	default int held() {
		return -1;
	}

	@Override
	void close();

}
