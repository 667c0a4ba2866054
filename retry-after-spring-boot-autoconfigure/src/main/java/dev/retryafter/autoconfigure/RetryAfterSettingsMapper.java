package dev.retryafter.autoconfigure;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetryClients.NamedClient;
import dev.retryafter.core.RetrySettings;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Validates {@link RetryAfterProperties} and maps them to the immutable {@link RetryClients}
 * the policy core runs on. Every invalid value fails with an
 * {@link InvalidConfigurationPropertyValueException} naming the full property (for a named
 * client, {@code retry-after.clients.<name>.<key>}), so start-up stops with a message that says
 * what to fix.
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
	RetryClients map() {
		validateSharedSettings();
		RetrySettings defaults = this.properties.settings(PREFIX, this.properties);
		Map<String, NamedClient> named = new LinkedHashMap<>();
		Map<String, String> hostOwners = new HashMap<>();
		this.properties.getClients().forEach((name, client) -> {
			String prefix = PREFIX + ".clients." + name;
			Set<String> hosts = hosts(prefix + ".hosts", name, client.getHosts(), hostOwners);
			named.put(name, new NamedClient(hosts, client.settings(prefix, this.properties)));
		});
		return new RetryClients(defaults, named);
	}

	private void validateSharedSettings() {
		RetryAfterProperties.Cooldown cooldown = this.properties.getCooldown();
		PropertyChecks.atLeastOne(PREFIX + ".cooldown.max-hosts", cooldown.getMaxHosts());
		PropertyChecks.positive(PREFIX + ".cooldown.max-duration", cooldown.getMaxDuration());
		PropertyChecks.required(PREFIX + ".store", this.properties.getStore());
		String keyPrefix = this.properties.getRedis().getKeyPrefix();
		if (keyPrefix != null && keyPrefix.isBlank()) {
			// Unset means the default; a blank prefix would make every key in Redis look shared.
			throw new InvalidConfigurationPropertyValueException(PREFIX + ".redis.key-prefix", keyPrefix,
					"must not be blank (leave it unset for the default)");
		}
	}

	private static Set<String> hosts(String name, String client, @Nullable Set<String> hosts,
			Map<String, String> hostOwners) {
		if (hosts == null || hosts.isEmpty()) {
			throw new InvalidConfigurationPropertyValueException(name, hosts,
					"a named client must list at least one host");
		}
		Set<String> result = new LinkedHashSet<>();
		for (String host : hosts) {
			if (host == null || host.isBlank() || containsWhitespace(host)) {
				throw new InvalidConfigurationPropertyValueException(name, host,
						"must be a host name or a host and port, without spaces");
			}
			String previous = hostOwners.putIfAbsent(host.toLowerCase(Locale.ROOT), client);
			if (previous != null && !previous.equals(client)) {
				throw new InvalidConfigurationPropertyValueException(name, host,
						"host is also listed by client '" + previous + "'; a host may belong to one client only");
			}
			result.add(host);
		}
		return result;
	}

	private static boolean containsWhitespace(String value) {
		return value.chars().anyMatch(Character::isWhitespace);
	}

}
