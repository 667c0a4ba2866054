package dev.retryafter.core;

import java.util.Objects;

/**
 * The settings in force for one request, with the name of the client they belong to.
 *
 * @param name the named client ({@code retry-after.clients.<name>}), or {@link #DEFAULT_NAME};
 * used as the {@code client} meter tag, never the raw host
 * @param settings the settings
 * @since 0.1.0
 */
public record ClientSettings(String name, RetrySettings settings) {

	/** Name of the settings used for hosts no named client lists. */
	public static final String DEFAULT_NAME = "default";

	public ClientSettings {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(settings, "settings");
	}

}
