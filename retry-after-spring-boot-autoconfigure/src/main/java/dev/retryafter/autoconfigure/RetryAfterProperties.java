package dev.retryafter.autoconfigure;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of the Retry-After aware retries (prefix {@code retry-after}): the
 * per-request settings of {@link RetrySettingsProperties} and what the whole application
 * shares.
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

	/**
	 * Most bytes kept in memory for retries across the application at once: the copies of
	 * retried responses' bodies kept during a wait, and the recorded request bodies a WebClient
	 * retry sends again. A body that does not fit is not kept: the call goes on as with a body
	 * over its own limit. A number without a unit is in bytes.
	 */
	private @Nullable DataSize maxRecordedBytes;

	private final Redis redis = new Redis();

	private final Observations observations = new Observations();

	/**
	 * Named clients, each applying its overrides to the hosts it lists and to the HTTP
	 * service group of its name: under retry-after.clients.<name>, "hosts" and any
	 * per-request key of retry-after.
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

	public @Nullable DataSize getMaxRecordedBytes() {
		return this.maxRecordedBytes;
	}

	public void setMaxRecordedBytes(@Nullable DataSize maxRecordedBytes) {
		this.maxRecordedBytes = maxRecordedBytes;
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
	 * It applies to the HTTP service group of its name too, with or without hosts. Every
	 * setting left unset inherits the top-level value.
	 */
	public static class Client extends RetrySettingsProperties {

		/**
		 * Hosts this client applies to, as a host name or a host and port. None: the client
		 * applies to the requests of the HTTP service group of its name only.
		 */
		private Set<String> hosts = new LinkedHashSet<>();

		public Set<String> getHosts() {
			return this.hosts;
		}

		public void setHosts(Set<String> hosts) {
			this.hosts = hosts;
		}

	}

}
