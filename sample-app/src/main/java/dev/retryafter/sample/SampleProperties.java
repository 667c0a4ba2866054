package dev.retryafter.sample;

import java.net.URI;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the sample application.
 */
@ConfigurationProperties("sample")
public class SampleProperties {

	/**
	 * Root URL the relay forwards to. Defaults to the application's own root,
	 * http://localhost:${server.port}, so that /relay/demo/report reaches /demo/report.
	 */
	private @Nullable URI upstreamUrl;

	/**
	 * The configured upstream root.
	 * @return the root URL, or {@code null} for the application's own root
	 */
	public @Nullable URI getUpstreamUrl() {
		return this.upstreamUrl;
	}

	/**
	 * Sets the upstream root.
	 * @param upstreamUrl the root URL, or {@code null} for the application's own root
	 */
	public void setUpstreamUrl(@Nullable URI upstreamUrl) {
		this.upstreamUrl = upstreamUrl;
	}

}
