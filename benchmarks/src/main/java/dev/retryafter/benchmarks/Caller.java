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
	int get(URI uri);

	/**
	 * Why calls gave up, where the library says so (ours, from its abandonment meter).
	 * @return e.g. {@code retry-budget=60}, or empty
	 */
	default String abandonments() {
		return "";
	}

	@Override
	void close();

}
