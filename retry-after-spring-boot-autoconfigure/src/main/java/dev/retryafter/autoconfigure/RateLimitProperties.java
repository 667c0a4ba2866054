package dev.retryafter.autoconfigure;

import java.util.Set;

import dev.retryafter.core.RateLimitFields;
import org.jspecify.annotations.Nullable;

/**
 * Pacing inside the quota an origin announces in its responses.
 *
 * @since 0.1.0
 */
public class RateLimitProperties {

	/**
	 * Whether the quota fields of responses are read and first attempts paced so that they
	 * stay inside the announced quota.
	 */
	private @Nullable Boolean enabled;

	/**
	 * Quota fields read: 'ietf' for RateLimit-Policy and RateLimit, 'x-ratelimit' for
	 * X-RateLimit-Limit, -Remaining and -Reset (and the X-Rate-Limit- spelling).
	 */
	private @Nullable Set<RateLimitFields> fields;

	public @Nullable Boolean getEnabled() {
		return this.enabled;
	}

	public void setEnabled(@Nullable Boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable Set<RateLimitFields> getFields() {
		return this.fields;
	}

	public void setFields(@Nullable Set<RateLimitFields> fields) {
		this.fields = fields;
	}

}
