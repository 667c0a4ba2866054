package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.header.RateLimitFields;
import dev.retryafter.core.header.RetryAfter;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The checks of bound property values. Each takes the full property name, so that start-up
 * fails with a message that says what to fix, and a {@code null} value is "must not be empty".
 */
final class PropertyChecks {

	private static final int MIN_STATUS = 100;

	private static final int MAX_STATUS = 599;

	/**
	 * The most attempts one request may make: beyond it retries stop protecting the caller and
	 * start loading the origin (a connection refused at once with a zero backoff would otherwise
	 * be tried a million times within one budget).
	 */
	static final int MAX_ATTEMPTS = 10;

	private PropertyChecks() {
	}

	static int atLeastOne(String name, @Nullable Integer value) {
		return check(name, value, (v) -> v >= 1, "must be at least 1");
	}

	static int maxAttempts(String name, @Nullable Integer value) {
		return check(name, value, (v) -> v >= 1 && v <= MAX_ATTEMPTS, "must be between 1 and " + MAX_ATTEMPTS);
	}

	static int nonNegative(String name, @Nullable Integer value) {
		return check(name, value, (v) -> v >= 0, "must not be negative");
	}

	static Duration nonNegative(String name, @Nullable Duration value) {
		return atMostMaxDelay(name, check(name, value, (v) -> !v.isNegative(), "must not be negative"));
	}

	static Duration positive(String name, @Nullable Duration value) {
		return atMostMaxDelay(name, check(name, value, (v) -> !v.isNegative() && !v.isZero(), "must be positive"));
	}

	/**
	 * The bound of every delay the core handles: a planned wait (base plus jitter) always fits
	 * in a long of nanoseconds for the sleeper, the timers, the budget and the cooldowns.
	 */
	private static Duration atMostMaxDelay(String name, Duration value) {
		return check(name, value, (v) -> v.compareTo(RetryAfter.MAX_DELAY) <= 0,
				"must be at most " + RetryAfter.MAX_DELAY.toDays() + " days");
	}

	static Duration maxWait(String name, @Nullable Duration value) {
		// Strictly below the saturation ceiling, so a saturated Retry-After always abandons.
		return nonNegative(name, check(name, value, (v) -> v.compareTo(RetryAfter.MAX_DELAY) < 0,
				"must be less than " + RetryAfter.MAX_DELAY.toDays() + " days"));
	}

	/**
	 * Fails unless {@code reserve} leaves part of {@code budget} for a wait: the planner keeps
	 * the reserve back from the budget, so at or above it every retry would stop at once
	 * ({@code retry-after-exceeds-budget}) and every cooldown would refuse rather than hold.
	 * @param budgetName the full name of the total budget when it is set at the level being
	 * checked, else {@code null}
	 * @param reserveName the same for the attempt reserve
	 * @param fallbackBudgetName the budget's full name at the level being checked
	 * @param budget the total budget the level runs on
	 * @param reserve the attempt reserve the level runs on
	 */
	static void reserveBelowBudget(@Nullable String budgetName, @Nullable String reserveName,
			String fallbackBudgetName, Duration budget, Duration reserve) {
		if (reserve.compareTo(budget) < 0) {
			return;
		}
		if (budgetName == null && reserveName != null) {
			throw new InvalidConfigurationPropertyValueException(reserveName, reserve,
					"must be less than total-budget (" + format(budget) + "), which it is kept back from");
		}
		throw new InvalidConfigurationPropertyValueException((budgetName != null) ? budgetName : fallbackBudgetName,
				budget, "must be greater than attempt-reserve (" + format(reserve)
						+ ") to leave time for a retry");
	}

	/**
	 * A duration as the README's table writes one: whole seconds in {@code s}, else
	 * milliseconds.
	 */
	static String format(Duration value) {
		if (value.getNano() == 0) {
			return value.getSeconds() + "s";
		}
		return (value.getNano() % 1_000_000 == 0) ? value.toMillis() + "ms" : value.toString();
	}

	static double jitter(String name, @Nullable Double value) {
		return check(name, value, (v) -> v >= 0 && v <= 1, "must be between 0 and 1");
	}

	static double multiplier(String name, @Nullable Double value) {
		return check(name, value, (v) -> v >= 1 && !v.isInfinite(), "must be a finite number of at least 1");
	}

	static double ratio(String name, @Nullable Double value) {
		return check(name, value, (v) -> v >= 0 && !v.isInfinite(), "must be a finite number of at least 0");
	}

	static Set<Integer> statuses(String name, @Nullable Set<Integer> statuses) {
		return each(name, statuses, (s) -> s >= MIN_STATUS && s <= MAX_STATUS,
				"each status must be between " + MIN_STATUS + " and " + MAX_STATUS);
	}

	static Set<String> methods(String name, @Nullable Set<String> methods) {
		return each(name, methods, PropertyChecks::isToken, "each method must be a non-blank HTTP method name");
	}

	static List<String> headerNames(String name, @Nullable List<String> headers) {
		return each(name, headers, PropertyChecks::isToken, "each header must be a valid HTTP header name");
	}

	static List<String> scopes(String name, @Nullable List<String> scopes) {
		return each(name, scopes, CooldownScope::isPathPrefix,
				"each scope must be a path prefix such as /api/search: '/' then segments of letters, digits and"
						+ " -._~%, no empty segment or trailing '/', at most " + CooldownScope.MAX_NAME_LENGTH
						+ " characters");
	}

	static String headerName(String name, @Nullable String value) {
		return check(name, value, (v) -> v.isEmpty() || isToken(v), "must be empty or a valid HTTP header name");
	}

	/** The values {@code rate-limit.fields} takes, for the messages that name them. */
	static final String RATE_LIMIT_FIELDS = Arrays.stream(RateLimitFields.values())
		.map(RateLimitFields::wireName)
		.collect(Collectors.joining(", "));

	static Set<RateLimitFields> rateLimitFields(String name, @Nullable Set<RateLimitFields> fields) {
		// An empty list would read nothing while saying pacing is on: enabled=false says that.
		return check(name, fields, (v) -> !v.isEmpty() && v.stream().allMatch(Objects::nonNull),
				"must name one or more of " + RATE_LIMIT_FIELDS + " (set rate-limit.enabled to false to read none)");
	}

	static <T> T required(String name, @Nullable T value) {
		if (value == null) {
			throw new InvalidConfigurationPropertyValueException(name, null, "must not be empty");
		}
		return value;
	}

	private static <T> T check(String name, @Nullable T value, Predicate<T> valid, String reason) {
		if (!valid.test(required(name, value))) {
			throw new InvalidConfigurationPropertyValueException(name, value, reason);
		}
		return value;
	}

	/**
	 * Checks each element, and names the first bad one (a {@code null} element is bad).
	 */
	private static <C extends Collection<E>, E> C each(String name, @Nullable C values, Predicate<E> valid,
			String reason) {
		for (E value : required(name, values)) {
			if (value == null || !valid.test(value)) {
				throw new InvalidConfigurationPropertyValueException(name, value, reason);
			}
		}
		return values;
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

	/**
	 * Validates a bound value and returns it as the core takes it.
	 */
	@FunctionalInterface
	interface Check<T, R> {

		R apply(String name, @Nullable T value);

	}

}
