package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;

import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.RetrySettings;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationUnit;

/**
 * Per-host cooldown: a {@code Retry-After} received by one request holds back the other
 * requests to the same origin. {@code max-duration} and {@code max-hosts} size the
 * instance's one cooldown store, and {@code partition-secret} keys it, so they are read at
 * the top level only: a named client that sets one fails start-up.
 *
 * @since 0.1.0
 */
public class CooldownProperties {

	/**
	 * Whether a received Retry-After holds back other requests to the same origin.
	 */
	private @Nullable Boolean enabled;

	/**
	 * What a request to a cooling-down origin does.
	 */
	private @Nullable CooldownMode mode;

	/**
	 * HTTP status codes whose Retry-After starts a cooldown.
	 */
	private @Nullable Set<Integer> statuses;

	/**
	 * Longest cooldown, whatever the server asked or another instance reported. A number
	 * without a unit is in seconds.
	 */
	@DurationUnit(ChronoUnit.SECONDS)
	private @Nullable Duration maxDuration;

	/**
	 * Request headers whose values split an origin's cooldown, e.g. Authorization; only a
	 * one-way digest of the values is kept.
	 */
	private @Nullable List<String> partitionHeaders;

	/**
	 * Path prefixes that each form a cooldown scope of their own, e.g. /api/search: a 429
	 * under one holds back only the requests under it. '/' makes the whole origin one scope.
	 * Without them, a 429 holds its route (the first path segment) and the routes the server
	 * names the same X-RateLimit-Bucket or X-RateLimit-Resource for.
	 */
	private @Nullable List<String> scopes;

	/**
	 * Maximum number of cooldown keys (origins, or partitions of origins) remembered.
	 */
	private @Nullable Integer maxHosts;

	/**
	 * Secret, at least 32 characters, that keys the partition digests and signs the Redis
	 * store's messages; the same on every instance sharing a store, e.g. the output of
	 * 'openssl rand -base64 32'. Required with the Redis store and partition headers;
	 * otherwise a random secret of this JVM keys the digests.
	 */
	private @Nullable String partitionSecret;

	/**
	 * Maps this group onto the core's {@link RetrySettings.Cooldown}, one line per setting: a value
	 * unset at both levels is the core's default. The top-level-only {@code max-duration},
	 * {@code max-hosts} and {@code partition-secret} are not per-request settings: the mapper
	 * sizes and keys the one cooldown store with them.
	 * @param m where each value comes from
	 * @param d the core's defaults
	 * @return the core's settings
	 */
	static RetrySettings.Cooldown map(PropertyMerge<CooldownProperties> m, RetrySettings.Cooldown d) {
		return new RetrySettings.Cooldown(
				m.get("enabled", CooldownProperties::getEnabled, PropertyChecks::required, d.enabled()),
				m.get("mode", CooldownProperties::getMode, PropertyChecks::required, d.mode()),
				m.get("statuses", CooldownProperties::getStatuses, PropertyChecks::statuses, d.statuses()),
				m.get("partition-headers", CooldownProperties::getPartitionHeaders, PropertyChecks::headerNames,
						d.partitionHeaders()),
				m.get("scopes", CooldownProperties::getScopes, PropertyChecks::scopes, d.scopes()));
	}

	public @Nullable Boolean getEnabled() {
		return this.enabled;
	}

	public void setEnabled(@Nullable Boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable CooldownMode getMode() {
		return this.mode;
	}

	public void setMode(@Nullable CooldownMode mode) {
		this.mode = mode;
	}

	public @Nullable Set<Integer> getStatuses() {
		return this.statuses;
	}

	public void setStatuses(@Nullable Set<Integer> statuses) {
		this.statuses = statuses;
	}

	public @Nullable Duration getMaxDuration() {
		return this.maxDuration;
	}

	public void setMaxDuration(@Nullable Duration maxDuration) {
		this.maxDuration = maxDuration;
	}

	public @Nullable List<String> getPartitionHeaders() {
		return this.partitionHeaders;
	}

	public void setPartitionHeaders(@Nullable List<String> partitionHeaders) {
		this.partitionHeaders = partitionHeaders;
	}

	public @Nullable List<String> getScopes() {
		return this.scopes;
	}

	public void setScopes(@Nullable List<String> scopes) {
		this.scopes = scopes;
	}

	public @Nullable Integer getMaxHosts() {
		return this.maxHosts;
	}

	public void setMaxHosts(@Nullable Integer maxHosts) {
		this.maxHosts = maxHosts;
	}

	public @Nullable String getPartitionSecret() {
		return this.partitionSecret;
	}

	public void setPartitionSecret(@Nullable String partitionSecret) {
		this.partitionSecret = partitionSecret;
	}

}
