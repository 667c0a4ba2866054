package dev.retryafter.core.header;

import dev.retryafter.core.RetrySettings;

/**
 * A header reader that reaches into the rest of the core, as {@link ServerHints} once did
 * through {@code RetrySettings.Header}: what {@code CorePackagesArchitectureTests} must reject.
 * Public only so that the test in {@code dev.retryafter.core} can import it.
 */
public final class CoreDependentReader {

	private CoreDependentReader() {
	}

	/**
	 * Reads the switch from the settings record instead of being handed it.
	 * @param settings the settings
	 * @return whether millisecond hints are read
	 */
	public static boolean millisecondHints(RetrySettings settings) {
		return settings.header().millisecondHints();
	}

}
