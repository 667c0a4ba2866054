package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.retryafter.autoconfigure.RetryAfterProperties.Client;
import dev.retryafter.core.RetryAfter;
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

	private static final int MIN_STATUS = 100;

	private static final int MAX_STATUS = 599;

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
		RetrySettings defaults = defaults();
		Map<String, NamedClient> named = new LinkedHashMap<>();
		Map<String, String> hostOwners = new HashMap<>();
		this.properties.getClients().forEach((name, client) -> {
			String prefix = PREFIX + ".clients." + name;
			Set<String> hosts = hosts(prefix + ".hosts", name, client.getHosts(), hostOwners);
			named.put(name, new NamedClient(hosts, client(prefix, client, defaults)));
		});
		return new RetryClients(defaults, named);
	}

	private void validateSharedSettings() {
		int maxHosts = this.properties.getCooldown().getMaxHosts();
		if (maxHosts < 1) {
			throw invalid("cooldown.max-hosts", maxHosts, "must be at least 1");
		}
		positive(PREFIX + ".cooldown.max-duration", this.properties.getCooldown().getMaxDuration());
		required(PREFIX + ".store", this.properties.getStore());
		required(PREFIX + ".redis.key-prefix", this.properties.getRedis().getKeyPrefix());
	}

	private RetrySettings defaults() {
		RetryAfterProperties p = this.properties;
		return new RetrySettings(maxAttempts(PREFIX + ".max-attempts", p.getMaxAttempts()),
				nonNegative(PREFIX + ".total-budget", p.getTotalBudget()),
				nonNegative(PREFIX + ".attempt-reserve", p.getAttemptReserve()),
				statuses(PREFIX + ".retryable-statuses", p.getRetryableStatuses()),
				methods(PREFIX + ".retryable-methods", p.getRetryableMethods()),
				headerName(PREFIX + ".idempotency-key-header", p.getIdempotencyKeyHeader()),
				new RetrySettings.Backoff(nonNegative(PREFIX + ".backoff.initial", p.getBackoff().getInitial()),
						multiplier(PREFIX + ".backoff.multiplier", p.getBackoff().getMultiplier()),
						nonNegative(PREFIX + ".backoff.max", p.getBackoff().getMax())),
				jitter(PREFIX + ".jitter", p.getJitter()),
				new RetrySettings.Header(maxWait(PREFIX + ".header.max-wait", p.getHeader().getMaxWait()),
						required(PREFIX + ".header.on-invalid", p.getHeader().getOnInvalid()),
						required(PREFIX + ".header.date-reference", p.getHeader().getDateReference())),
				new RetrySettings.IoErrors(p.getIoErrors().isConnect(), p.getIoErrors().isRead()),
				new RetrySettings.Cooldown(p.getCooldown().isEnabled(),
						required(PREFIX + ".cooldown.mode", p.getCooldown().getMode()),
						statuses(PREFIX + ".cooldown.statuses", p.getCooldown().getStatuses()),
						headerNames(PREFIX + ".cooldown.partition-headers", p.getCooldown().getPartitionHeaders())),
				new RetrySettings.Budget(p.getBudget().isEnabled(), ratio(PREFIX + ".budget.ratio", p.getBudget().getRatio()),
						minPerSecond(PREFIX + ".budget.min-per-second", p.getBudget().getMinPerSecond()),
						positive(PREFIX + ".budget.window", p.getBudget().getWindow())));
	}

	private RetrySettings client(String prefix, Client client, RetrySettings inherited) {
		RetryAfterProperties.BackoffOverrides backoff = client.getBackoff();
		RetryAfterProperties.HeaderOverrides header = client.getHeader();
		RetryAfterProperties.IoErrorsOverrides ioErrors = client.getIoErrors();
		RetryAfterProperties.CooldownOverrides cooldown = client.getCooldown();
		RetryAfterProperties.BudgetOverrides budget = client.getBudget();
		return new RetrySettings(
				(client.getMaxAttempts() != null) ? maxAttempts(prefix + ".max-attempts", client.getMaxAttempts())
						: inherited.maxAttempts(),
				(client.getTotalBudget() != null) ? nonNegative(prefix + ".total-budget", client.getTotalBudget())
						: inherited.totalBudget(),
				(client.getAttemptReserve() != null)
						? nonNegative(prefix + ".attempt-reserve", client.getAttemptReserve())
						: inherited.attemptReserve(),
				(client.getRetryableStatuses() != null)
						? statuses(prefix + ".retryable-statuses", client.getRetryableStatuses())
						: inherited.retryableStatuses(),
				(client.getRetryableMethods() != null)
						? methods(prefix + ".retryable-methods", client.getRetryableMethods())
						: inherited.retryableMethods(),
				(client.getIdempotencyKeyHeader() != null)
						? headerName(prefix + ".idempotency-key-header", client.getIdempotencyKeyHeader())
						: inherited.idempotencyKeyHeader(),
				new RetrySettings.Backoff(
						(backoff.getInitial() != null) ? nonNegative(prefix + ".backoff.initial", backoff.getInitial())
								: inherited.backoff().initial(),
						(backoff.getMultiplier() != null)
								? multiplier(prefix + ".backoff.multiplier", backoff.getMultiplier())
								: inherited.backoff().multiplier(),
						(backoff.getMax() != null) ? nonNegative(prefix + ".backoff.max", backoff.getMax())
								: inherited.backoff().max()),
				(client.getJitter() != null) ? jitter(prefix + ".jitter", client.getJitter()) : inherited.jitter(),
				new RetrySettings.Header(
						(header.getMaxWait() != null) ? maxWait(prefix + ".header.max-wait", header.getMaxWait())
								: inherited.header().maxWait(),
						or(header.getOnInvalid(), inherited.header().onInvalid()),
						or(header.getDateReference(), inherited.header().dateReference())),
				new RetrySettings.IoErrors(or(ioErrors.getConnect(), inherited.ioErrors().connect()),
						or(ioErrors.getRead(), inherited.ioErrors().read())),
				new RetrySettings.Cooldown(or(cooldown.getEnabled(), inherited.cooldown().enabled()),
						or(cooldown.getMode(), inherited.cooldown().mode()),
						(cooldown.getStatuses() != null)
								? statuses(prefix + ".cooldown.statuses", cooldown.getStatuses())
								: inherited.cooldown().statuses(),
						(cooldown.getPartitionHeaders() != null)
								? headerNames(prefix + ".cooldown.partition-headers", cooldown.getPartitionHeaders())
								: inherited.cooldown().partitionHeaders()),
				new RetrySettings.Budget(or(budget.getEnabled(), inherited.budget().enabled()),
						(budget.getRatio() != null) ? ratio(prefix + ".budget.ratio", budget.getRatio())
								: inherited.budget().ratio(),
						(budget.getMinPerSecond() != null)
								? minPerSecond(prefix + ".budget.min-per-second", budget.getMinPerSecond())
								: inherited.budget().minPerSecond(),
						(budget.getWindow() != null) ? positive(prefix + ".budget.window", budget.getWindow())
								: inherited.budget().window()));
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

	private static int maxAttempts(String name, int value) {
		if (value < 1) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must be at least 1");
		}
		return value;
	}

	private static Duration nonNegative(String name, @Nullable Duration value) {
		if (required(name, value).isNegative()) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must not be negative");
		}
		// Bounded like every delay the core handles, so a planned wait (base plus jitter)
		// always fits in a long of nanoseconds for the sleeper and the timers.
		if (value.compareTo(RetryAfter.MAX_DELAY) > 0) {
			throw new InvalidConfigurationPropertyValueException(name, value,
					"must be at most " + RetryAfter.MAX_DELAY.toDays() + " days");
		}
		return value;
	}

	private static Duration positive(String name, @Nullable Duration value) {
		if (required(name, value).isNegative() || value.isZero()) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must be positive");
		}
		// The bound RetryBudget and HostCooldowns enforce: checked here so start-up names the
		// property.
		if (value.compareTo(RetryAfter.MAX_DELAY) > 0) {
			throw new InvalidConfigurationPropertyValueException(name, value,
					"must be at most " + RetryAfter.MAX_DELAY.toDays() + " days");
		}
		return value;
	}

	private static Duration maxWait(String name, @Nullable Duration value) {
		// Strictly below the saturation ceiling, so a saturated Retry-After always abandons.
		if (required(name, value).compareTo(RetryAfter.MAX_DELAY) >= 0) {
			throw new InvalidConfigurationPropertyValueException(name, value,
					"must be less than " + RetryAfter.MAX_DELAY.toDays() + " days");
		}
		return nonNegative(name, value);
	}

	private static double jitter(String name, double value) {
		if (!(value >= 0 && value <= 1)) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must be between 0 and 1");
		}
		return value;
	}

	private static double multiplier(String name, double value) {
		if (!(value >= 1) || Double.isInfinite(value)) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must be a finite number of at least 1");
		}
		return value;
	}

	private static double ratio(String name, double value) {
		if (!(value >= 0) || Double.isInfinite(value)) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must be a finite number of at least 0");
		}
		return value;
	}

	private static int minPerSecond(String name, int value) {
		if (value < 0) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must not be negative");
		}
		return value;
	}

	private static Set<Integer> statuses(String name, @Nullable Set<Integer> statuses) {
		for (Integer status : required(name, statuses)) {
			if (status == null || status < MIN_STATUS || status > MAX_STATUS) {
				throw new InvalidConfigurationPropertyValueException(name, status,
						"each status must be between " + MIN_STATUS + " and " + MAX_STATUS);
			}
		}
		return statuses;
	}

	private static Set<String> methods(String name, @Nullable Set<String> methods) {
		for (String method : required(name, methods)) {
			if (method == null || method.isEmpty() || !isToken(method)) {
				throw new InvalidConfigurationPropertyValueException(name, method,
						"each method must be a non-blank HTTP method name");
			}
		}
		return methods;
	}

	private static List<String> headerNames(String name, @Nullable List<String> headers) {
		for (String header : required(name, headers)) {
			if (header == null || !isToken(header)) {
				throw new InvalidConfigurationPropertyValueException(name, header,
						"each header must be a valid HTTP header name");
			}
		}
		return headers;
	}

	private static String headerName(String name, @Nullable String value) {
		if (!required(name, value).isEmpty() && !isToken(value)) {
			throw new InvalidConfigurationPropertyValueException(name, value,
					"must be empty or a valid HTTP header name");
		}
		return value;
	}

	private static <T> T required(String name, @Nullable T value) {
		if (value == null) {
			throw new InvalidConfigurationPropertyValueException(name, null, "must not be empty");
		}
		return value;
	}

	private static <T> T or(@Nullable T override, T inherited) {
		return (override != null) ? override : inherited;
	}

	private static InvalidConfigurationPropertyValueException invalid(String key, Object value, String reason) {
		return new InvalidConfigurationPropertyValueException(PREFIX + "." + key, value, reason);
	}

	private static boolean containsWhitespace(String value) {
		return value.chars().anyMatch(Character::isWhitespace);
	}

	/**
	 * Whether {@code value} is an RFC 9110 {@code token} (section 5.6.2), the grammar of both
	 * method and field names; anything else could never match a request.
	 */
	private static boolean isToken(String value) {
		if (value.isEmpty()) {
			return false;
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			boolean alphaNumeric = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
			if (!alphaNumeric && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
				return false;
			}
		}
		return true;
	}

}
