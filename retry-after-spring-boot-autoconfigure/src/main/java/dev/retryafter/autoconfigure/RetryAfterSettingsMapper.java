package dev.retryafter.autoconfigure;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

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

	private static final String PREFIX = "retry-after";

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
		RetrySettings defaults = settings(new Values(PREFIX, this.properties, this.properties));
		Map<String, NamedClient> named = new LinkedHashMap<>();
		Map<String, String> hostOwners = new HashMap<>();
		this.properties.getClients().forEach((name, client) -> {
			String prefix = PREFIX + ".clients." + name;
			Set<String> hosts = hosts(prefix + ".hosts", name, client.getHosts(), hostOwners);
			named.put(name, new NamedClient(hosts, settings(new Values(prefix, client, this.properties))));
		});
		return new RetryClients(defaults, named);
	}

	private void validateSharedSettings() {
		RetryAfterProperties.Cooldown cooldown = this.properties.getCooldown();
		if (PropertyChecks.required(PREFIX + ".cooldown.max-hosts", cooldown.getMaxHosts()) < 1) {
			throw invalid("cooldown.max-hosts", cooldown.getMaxHosts(), "must be at least 1");
		}
		PropertyChecks.positive(PREFIX + ".cooldown.max-duration", cooldown.getMaxDuration());
		PropertyChecks.required(PREFIX + ".store", this.properties.getStore());
		String keyPrefix = this.properties.getRedis().getKeyPrefix();
		if (keyPrefix != null && keyPrefix.isBlank()) {
			// Unset means the default; a blank prefix would make every key in Redis look shared.
			throw invalid("redis.key-prefix", keyPrefix, "must not be blank (leave it unset for the default)");
		}
	}

	/**
	 * The one merge and validation pass, one line per setting: each value is the client's
	 * own when it sets one, else the top level's, and is checked under the name it came from.
	 */
	private static RetrySettings settings(Values v) {
		return new RetrySettings(v.get("max-attempts", (s) -> s.getMaxAttempts(), PropertyChecks::maxAttempts),
				v.get("total-budget", (s) -> s.getTotalBudget(), PropertyChecks::nonNegative),
				v.get("attempt-reserve", (s) -> s.getAttemptReserve(), PropertyChecks::nonNegative),
				v.get("retryable-statuses", (s) -> s.getRetryableStatuses(), PropertyChecks::statuses),
				v.get("retryable-methods", (s) -> s.getRetryableMethods(), PropertyChecks::methods),
				v.get("idempotency-key-header", (s) -> s.getIdempotencyKeyHeader(), PropertyChecks::headerName),
				new RetrySettings.Backoff(
						v.get("backoff.initial", (s) -> s.getBackoff().getInitial(), PropertyChecks::nonNegative),
						v.get("backoff.multiplier", (s) -> s.getBackoff().getMultiplier(),
								PropertyChecks::multiplier),
						v.get("backoff.max", (s) -> s.getBackoff().getMax(), PropertyChecks::nonNegative)),
				v.get("jitter", (s) -> s.getJitter(), PropertyChecks::jitter),
				new RetrySettings.Header(
						v.get("header.max-wait", (s) -> s.getHeader().getMaxWait(), PropertyChecks::maxWait),
						v.get("header.on-invalid", (s) -> s.getHeader().getOnInvalid(), PropertyChecks::required),
						v.get("header.date-reference", (s) -> s.getHeader().getDateReference(),
								PropertyChecks::required)),
				new RetrySettings.IoErrors(
						v.get("io-errors.connect", (s) -> s.getIoErrors().getConnect(), PropertyChecks::required),
						v.get("io-errors.read", (s) -> s.getIoErrors().getRead(), PropertyChecks::required)),
				new RetrySettings.Cooldown(
						v.get("cooldown.enabled", (s) -> s.getCooldown().getEnabled(), PropertyChecks::required),
						v.get("cooldown.mode", (s) -> s.getCooldown().getMode(), PropertyChecks::required),
						v.get("cooldown.statuses", (s) -> s.getCooldown().getStatuses(), PropertyChecks::statuses),
						v.get("cooldown.partition-headers", (s) -> s.getCooldown().getPartitionHeaders(),
								PropertyChecks::headerNames)),
				new RetrySettings.Budget(
						v.get("budget.enabled", (s) -> s.getBudget().getEnabled(), PropertyChecks::required),
						v.get("budget.ratio", (s) -> s.getBudget().getRatio(), PropertyChecks::ratio),
						v.get("budget.min-per-second", (s) -> s.getBudget().getMinPerSecond(),
								PropertyChecks::minPerSecond),
						v.get("budget.window", (s) -> s.getBudget().getWindow(), PropertyChecks::positive)));
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

	private static InvalidConfigurationPropertyValueException invalid(String key, Object value, String reason) {
		return new InvalidConfigurationPropertyValueException(PREFIX + "." + key, value, reason);
	}

	private static boolean containsWhitespace(String value) {
		return value.chars().anyMatch(Character::isWhitespace);
	}

	/**
	 * Where one client's values come from: its own properties, else the top level's.
	 */
	private record Values(String prefix, RetrySettingsProperties own, RetrySettingsProperties inherited) {

		<T, R> R get(String key, Function<RetrySettingsProperties, @Nullable T> property, Check<T, R> check) {
			T value = property.apply(this.own);
			if (value != null) {
				return check.apply(this.prefix + "." + key, value);
			}
			return check.apply(PREFIX + "." + key, property.apply(this.inherited));
		}

	}

	/**
	 * Validates a bound value and returns it as the core takes it.
	 */
	@FunctionalInterface
	private interface Check<T, R> {

		R apply(String name, @Nullable T value);

	}

}
