package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.DateReference;
import dev.retryafter.core.OnInvalidRetryAfter;
import dev.retryafter.core.RateLimitFields;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the Retry-After aware retries (prefix {@code retry-after}): the
 * per-request settings of {@link RetrySettingsProperties}, with their defaults, and what the
 * whole application shares.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("retry-after")
public class RetryAfterProperties extends RetrySettingsProperties {

	/**
	 * Whether Retry-After aware retries are applied to the HTTP clients Spring Boot builds.
	 */
	private boolean enabled = true;

	/**
	 * Where host cooldowns are kept.
	 */
	private Store store = Store.LOCAL;

	private final Redis redis = new Redis();

	private final Observations observations = new Observations();

	/**
	 * Named clients, each applying its overrides to the hosts it lists: under
	 * retry-after.clients.<name>, "hosts" and any per-request key of retry-after.
	 */
	private Map<String, Client> clients = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Store getStore() {
		return this.store;
	}

	public void setStore(Store store) {
		this.store = store;
	}

	public Redis getRedis() {
		return this.redis;
	}

	public Observations getObservations() {
		return this.observations;
	}

	public Map<String, Client> getClients() {
		return this.clients;
	}

	public void setClients(Map<String, Client> clients) {
		this.clients = clients;
	}

	/**
	 * Where host cooldowns are kept.
	 */
	public enum Store {

		/**
		 * In this application instance's memory.
		 */
		LOCAL,

		/**
		 * In Redis, shared by every instance that uses the same key prefix.
		 */
		REDIS

	}

	/**
	 * Local exponential backoff, used when the server sends no usable {@code Retry-After}.
	 */
	public static class Backoff {

		/**
		 * Wait before the first retry.
		 */
		private @Nullable Duration initial = Duration.ofSeconds(1);

		/**
		 * Factor applied to the wait for each further retry, at least 1.
		 */
		private @Nullable Double multiplier = 2.0;

		/**
		 * Longest local backoff wait.
		 */
		private @Nullable Duration max = Duration.ofSeconds(8);

		public @Nullable Duration getInitial() {
			return this.initial;
		}

		public void setInitial(@Nullable Duration initial) {
			this.initial = initial;
		}

		public @Nullable Double getMultiplier() {
			return this.multiplier;
		}

		public void setMultiplier(@Nullable Double multiplier) {
			this.multiplier = multiplier;
		}

		public @Nullable Duration getMax() {
			return this.max;
		}

		public void setMax(@Nullable Duration max) {
			this.max = max;
		}

	}

	/**
	 * Handling of the {@code Retry-After} response header.
	 */
	public static class Header {

		/**
		 * Longest server-requested wait honoured; a longer one abandons the request instead
		 * of shortening the wait.
		 */
		private @Nullable Duration maxWait = Duration.ofSeconds(60);

		/**
		 * What a present but invalid Retry-After header does.
		 */
		private @Nullable OnInvalidRetryAfter onInvalid = OnInvalidRetryAfter.BACKOFF;

		/**
		 * What an HTTP-date Retry-After is measured against.
		 */
		private @Nullable DateReference dateReference = DateReference.SERVER_DATE;

		public @Nullable Duration getMaxWait() {
			return this.maxWait;
		}

		public void setMaxWait(@Nullable Duration maxWait) {
			this.maxWait = maxWait;
		}

		public @Nullable OnInvalidRetryAfter getOnInvalid() {
			return this.onInvalid;
		}

		public void setOnInvalid(@Nullable OnInvalidRetryAfter onInvalid) {
			this.onInvalid = onInvalid;
		}

		public @Nullable DateReference getDateReference() {
			return this.dateReference;
		}

		public void setDateReference(@Nullable DateReference dateReference) {
			this.dateReference = dateReference;
		}

	}

	/**
	 * Retries of requests that failed with an I/O error.
	 */
	public static class IoErrors {

		/**
		 * Whether connection failures, where the request was never sent, are retried for any
		 * method.
		 */
		private @Nullable Boolean connect = true;

		/**
		 * Whether read timeouts and connection resets after sending are retried for
		 * repeatable requests.
		 */
		private @Nullable Boolean read = true;

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

	/**
	 * Per-host cooldown: a {@code Retry-After} received by one request holds back the other
	 * requests to the same origin. {@code max-duration} and {@code max-hosts} size the
	 * instance's one cooldown store, and {@code partition-secret} keys it, so they are read at
	 * the top level only.
	 */
	public static class Cooldown {

		/**
		 * Whether a received Retry-After holds back other requests to the same origin.
		 */
		private @Nullable Boolean enabled = true;

		/**
		 * What a request to a cooling-down origin does.
		 */
		private @Nullable CooldownMode mode = CooldownMode.WAIT;

		/**
		 * HTTP status codes whose Retry-After starts a cooldown.
		 */
		private @Nullable Set<Integer> statuses = new LinkedHashSet<>(List.of(429));

		/**
		 * Longest cooldown, whatever the server asked or another instance reported.
		 */
		private @Nullable Duration maxDuration = Duration.ofSeconds(60);

		/**
		 * Request headers whose values split an origin's cooldown, e.g. Authorization; only a
		 * one-way digest of the values is kept.
		 */
		private @Nullable List<String> partitionHeaders = new ArrayList<>();

		/**
		 * Maximum number of cooldown keys (origins, or partitions of origins) remembered.
		 */
		private @Nullable Integer maxHosts = 10000;

		/**
		 * Secret, at least 32 characters, that keys the partition digests and signs the Redis
		 * store's messages; the same on every instance sharing a store, e.g. the output of
		 * 'openssl rand -base64 32'. Required with the Redis store and partition headers;
		 * otherwise a random secret of this JVM keys the digests.
		 */
		private @Nullable String partitionSecret;

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

	/**
	 * Retry budget, bounding retries to a share of the requests made.
	 */
	public static class Budget {

		/**
		 * Whether the retry budget applies.
		 */
		private @Nullable Boolean enabled = true;

		/**
		 * Retries allowed per request made within the window.
		 */
		private @Nullable Double ratio = 0.2;

		/**
		 * Retries always allowed per second, whatever the number of requests.
		 */
		private @Nullable Integer minPerSecond = 10;

		/**
		 * Window over which the ratio is measured.
		 */
		private @Nullable Duration window = Duration.ofSeconds(10);

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Double getRatio() {
			return this.ratio;
		}

		public void setRatio(@Nullable Double ratio) {
			this.ratio = ratio;
		}

		public @Nullable Integer getMinPerSecond() {
			return this.minPerSecond;
		}

		public void setMinPerSecond(@Nullable Integer minPerSecond) {
			this.minPerSecond = minPerSecond;
		}

		public @Nullable Duration getWindow() {
			return this.window;
		}

		public void setWindow(@Nullable Duration window) {
			this.window = window;
		}

	}

	/**
	 * Pacing inside the quota an origin announces in its responses.
	 */
	public static class RateLimit {

		/**
		 * Whether the quota fields of responses are read and first attempts paced so that they
		 * stay inside the announced quota.
		 */
		private @Nullable Boolean enabled = true;

		/**
		 * Quota fields read: 'ietf' for RateLimit-Policy and RateLimit, 'x-ratelimit' for
		 * X-RateLimit-Limit, -Remaining and -Reset (and the X-Rate-Limit- spelling).
		 */
		private @Nullable Set<RateLimitFields> fields = new LinkedHashSet<>(
				List.of(RateLimitFields.IETF, RateLimitFields.X_RATELIMIT));

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

	/**
	 * Redis cooldown store, used when the store is {@code redis}.
	 */
	public static class Redis {

		/**
		 * Prefix of the Redis keys and channel that hold host cooldowns. Defaults to
		 * "retry-after:<spring.application.name>:", or "retry-after:" when the application has
		 * no name, so unrelated applications on one Redis do not share cooldowns.
		 */
		private @Nullable String keyPrefix;

		public @Nullable String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(@Nullable String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

	}

	/**
	 * Micrometer observations of each attempt and each wait, made when an
	 * {@code ObservationRegistry} bean exists.
	 */
	public static class Observations {

		/**
		 * Whether to observe each attempt (http.client.retry.attempt) and each wait or hold
		 * (http.client.retry.wait) of a traced call as children of the call's observation, so
		 * the tracer shows every attempt.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * A named client: the hosts it applies to and its overrides of the per-request settings.
	 * Every setting left unset inherits the top-level value.
	 */
	public static class Client extends RetrySettingsProperties {

		/**
		 * Hosts this client applies to, as a host name or a host and port.
		 */
		private Set<String> hosts = new LinkedHashSet<>();

		/**
		 * Creates a client that overrides nothing yet.
		 */
		public Client() {
			unsetAll();
		}

		public Set<String> getHosts() {
			return this.hosts;
		}

		public void setHosts(Set<String> hosts) {
			this.hosts = hosts;
		}

	}

}
