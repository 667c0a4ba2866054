package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.retryafter.call.RecordedBytes;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.ClientSettingsCatalog.NamedClient;
import dev.retryafter.core.RetrySettings;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.unit.DataSize;

/**
 * Validates {@link RetryAfterProperties} and maps them to the immutable {@link ClientSettingsCatalog}
 * the policy core runs on. Every invalid value fails with an
 * {@link InvalidConfigurationPropertyValueException} naming the full property (for a named
 * client, {@code retry-after.clients.<name>.<key>}), so start-up stops with a message that says
 * what to fix.
 * <p>
 * The properties carry no defaults: each value is a named client's own when set, else the top
 * level's, else the one of {@link RetrySettings#defaults()} (or of {@link OriginProtection} for
 * the shared cooldown store), so the core owns every default. Each properties group maps its
 * own per-request values ({@link RetrySettingsProperties#map}); this class checks the settings
 * the whole instance shares, the named clients' hosts, and assembles the result.
 *
 * @since 0.1.0
 */
final class RetryAfterSettingsMapper {

	static final String PREFIX = "retry-after";

	private final RetryAfterProperties properties;

	RetryAfterSettingsMapper(RetryAfterProperties properties) {
		this.properties = properties;
	}

	/**
	 * Validates the properties and builds the default settings and the named clients, each
	 * named client inheriting every setting it does not override from the top level.
	 * @return the clients
	 * @throws InvalidConfigurationPropertyValueException if a value is invalid
	 */
	ClientSettingsCatalog map() {
		validateSharedSettings();
		RetrySettings defaults = settings(PREFIX, this.properties);
		Map<String, NamedClient> named = new LinkedHashMap<>();
		Map<String, String> hostOwners = new HashMap<>();
		this.properties.getClients().forEach((name, client) -> {
			String prefix = PREFIX + ".clients." + name;
			rejectSharedSettings(prefix + ".cooldown", client.getCooldown());
			Set<String> hosts = hosts(prefix + ".hosts", name, client.getHosts(), hostOwners);
			named.put(name, new NamedClient(hosts, settings(prefix, client)));
		});
		return new ClientSettingsCatalog(defaults, named);
	}

	/**
	 * The instance's one cooldown map, sized by the top-level properties.
	 * @return an empty map
	 */
	OriginProtection hostCooldowns() {
		CooldownProperties cooldown = this.properties.getCooldown();
		Integer maxHosts = cooldown.getMaxHosts();
		Duration maxDuration = cooldown.getMaxDuration();
		return new OriginProtection((maxHosts != null) ? maxHosts : OriginProtection.DEFAULT_MAX_HOSTS,
				(maxDuration != null) ? maxDuration : OriginProtection.DEFAULT_MAX_DURATION);
	}

	/**
	 * The most bytes the application's calls keep for retries at once.
	 * @return the bound in bytes, the default when unset
	 */
	long maxRecordedBytes() {
		DataSize max = this.properties.getMaxRecordedBytes();
		if (max == null) {
			return RecordedBytes.DEFAULT_MAX;
		}
		if (max.isNegative()) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".max-recorded-bytes", max,
					"must not be negative (0 keeps no body for a retry)");
		}
		return max.toBytes();
	}

	/**
	 * Maps the per-request settings under {@code prefix}; each properties group maps its own
	 * values, checking each under the name it came from.
	 * @param prefix {@code retry-after}, or {@code retry-after.clients.<name>}
	 * @param own the properties under {@code prefix}
	 * @return the settings the core runs on
	 */
	private RetrySettings settings(String prefix, RetrySettingsProperties own) {
		return RetrySettingsProperties.map(new PropertyMerge<>(prefix, own, PREFIX, this.properties),
				RetrySettings.defaults());
	}

	private void validateSharedSettings() {
		CooldownProperties cooldown = this.properties.getCooldown();
		if (cooldown.getMaxHosts() != null) {
			PropertyChecks.atLeastOne(PREFIX + ".cooldown.max-hosts", cooldown.getMaxHosts());
		}
		if (cooldown.getMaxDuration() != null) {
			PropertyChecks.positive(PREFIX + ".cooldown.max-duration", cooldown.getMaxDuration());
		}
		PropertyChecks.required(PREFIX + ".store", this.properties.getStore());
		String keyPrefix = this.properties.getRedis().getKeyPrefix();
		if (keyPrefix != null && keyPrefix.isBlank()) {
			// Unset means the default; a blank prefix would make every key in Redis look shared.
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".redis.key-prefix", keyPrefix,
					"must not be blank (leave it unset for the default)");
		}
	}

	/**
	 * A named client shares the instance's one cooldown store, so a value it sets for the
	 * store would be ignored: it fails start-up instead of being believed.
	 */
	private static void rejectSharedSettings(String prefix, CooldownProperties cooldown) {
		rejectShared(prefix + ".max-duration", cooldown.getMaxDuration());
		rejectShared(prefix + ".max-hosts", cooldown.getMaxHosts());
		// The secret itself never reaches the message.
		rejectShared(prefix + ".partition-secret", (cooldown.getPartitionSecret() != null) ? "******" : null);
	}

	private static void rejectShared(String name, @Nullable Object value) {
		if (value != null) {
			throw new InvalidConfigurationPropertyValueException(name, value, "is read at the top level only; set "
					+ PREFIX + name.substring(name.indexOf(".cooldown.")) + " instead");
		}
	}

	private static Set<String> hosts(String name, String client, @Nullable Set<String> hosts,
			Map<String, String> hostOwners) {
		Set<String> result = new LinkedHashSet<>();
		if (hosts == null) {
			// Without hosts a client applies to the HTTP service group of its name, which only
			// HttpServiceGroupCheck can see, once the groups exist.
			return result;
		}
		for (String host : hosts) {
			if (host == null || host.isBlank() || containsWhitespace(host)) {
				throw new InvalidConfigurationPropertyValueException(name, host,
						"must be a host name or a host and port, without spaces");
			}
			checkHostForm(name, host);
			String previous = hostOwners.putIfAbsent(host.toLowerCase(Locale.ROOT), client);
			if (previous != null && !previous.equals(client)) {
				throw new InvalidConfigurationPropertyValueException(name, host,
						"host is also listed by client '" + previous + "'; a host may belong to one client only");
			}
			result.add(host);
		}
		return result;
	}

	/**
	 * A request's host is matched exactly (ignoring case), so an entry written as a URL or a
	 * pattern would silently never match: it fails start-up with the form to use instead.
	 */
	private static void checkHostForm(String name, String host) {
		if (host.contains("://")) {
			throw new InvalidConfigurationPropertyValueException(name, host,
					"must be a host name or a host and port, without a scheme (api.example.com, not "
							+ "https://api.example.com)");
		}
		if (host.indexOf('*') >= 0) {
			throw new InvalidConfigurationPropertyValueException(name, host,
					"wildcards are not supported: list each host name (hosts are matched exactly)");
		}
		if (host.indexOf('/') >= 0 || host.indexOf('@') >= 0 || host.indexOf('?') >= 0 || host.indexOf('#') >= 0) {
			throw new InvalidConfigurationPropertyValueException(name, host,
					"must be a host name or a host and port, without a path, user or query");
		}
	}

	private static boolean containsWhitespace(String value) {
		return value.chars().anyMatch(Character::isWhitespace);
	}

}
