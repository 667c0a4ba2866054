package dev.retryafter.autoconfigure;

import java.util.Set;

import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.header.RateLimitFields;
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
	 * Quota dialects read, all by default: 'ietf' for RateLimit-Policy and RateLimit,
	 * 'x-ratelimit' for the plain X-RateLimit-Limit, -Remaining and -Reset (and the
	 * X-Rate-Limit- spelling), 'github', 'gitlab', 'openai', 'anthropic' and 'discord' for
	 * those APIs' own fields.
	 */
	private @Nullable Set<RateLimitFields> fields;

	/**
	 * Maps this group onto the core's {@link RetrySettings.RateLimit}, one line per setting: a value
	 * unset at both levels is the core's default.
	 * @param m where each value comes from
	 * @param d the core's defaults
	 * @return the core's settings
	 */
	static RetrySettings.RateLimit map(PropertyMerge<RateLimitProperties> m, RetrySettings.RateLimit d) {
		return new RetrySettings.RateLimit(
				m.get("enabled", RateLimitProperties::getEnabled, PropertyChecks::required, d.enabled()),
				m.get("fields", RateLimitProperties::getFields, PropertyChecks::rateLimitFields, d.fields()));
	}

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
