package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.retryafter.core.RetryAfter;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The checks of bound property values. Each takes the full property name, so that start-up
 * fails with a message that says what to fix, and a {@code null} value is "must not be empty".
 */
final class PropertyChecks {

	private static final int MIN_STATUS = 100;

	private static final int MAX_STATUS = 599;

	private PropertyChecks() {
	}

	static int maxAttempts(String name, @Nullable Integer value) {
		if (required(name, value) < 1) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must be at least 1");
		}
		return value;
	}

	static Duration nonNegative(String name, @Nullable Duration value) {
		if (required(name, value).isNegative()) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must not be negative");
		}
		return atMostMaxDelay(name, value);
	}

	static Duration positive(String name, @Nullable Duration value) {
		if (required(name, value).isNegative() || value.isZero()) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must be positive");
		}
		return atMostMaxDelay(name, value);
	}

	/**
	 * The bound of every delay the core handles: a planned wait (base plus jitter) always fits
	 * in a long of nanoseconds for the sleeper, the timers, the budget and the cooldowns.
	 */
	private static Duration atMostMaxDelay(String name, Duration value) {
		if (value.compareTo(RetryAfter.MAX_DELAY) > 0) {
			throw new InvalidConfigurationPropertyValueException(name, value,
					"must be at most " + RetryAfter.MAX_DELAY.toDays() + " days");
		}
		return value;
	}

	static Duration maxWait(String name, @Nullable Duration value) {
		// Strictly below the saturation ceiling, so a saturated Retry-After always abandons.
		if (required(name, value).compareTo(RetryAfter.MAX_DELAY) >= 0) {
			throw new InvalidConfigurationPropertyValueException(name, value,
					"must be less than " + RetryAfter.MAX_DELAY.toDays() + " days");
		}
		return nonNegative(name, value);
	}

	static double jitter(String name, @Nullable Double value) {
		if (!(required(name, value) >= 0 && value <= 1)) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must be between 0 and 1");
		}
		return value;
	}

	static double multiplier(String name, @Nullable Double value) {
		if (!(required(name, value) >= 1) || Double.isInfinite(value)) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must be a finite number of at least 1");
		}
		return value;
	}

	static double ratio(String name, @Nullable Double value) {
		if (!(required(name, value) >= 0) || Double.isInfinite(value)) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must be a finite number of at least 0");
		}
		return value;
	}

	static int minPerSecond(String name, @Nullable Integer value) {
		if (required(name, value) < 0) {
			throw new InvalidConfigurationPropertyValueException(name, value, "must not be negative");
		}
		return value;
	}

	static Set<Integer> statuses(String name, @Nullable Set<Integer> statuses) {
		for (Integer status : required(name, statuses)) {
			if (status == null || status < MIN_STATUS || status > MAX_STATUS) {
				throw new InvalidConfigurationPropertyValueException(name, status,
						"each status must be between " + MIN_STATUS + " and " + MAX_STATUS);
			}
		}
		return statuses;
	}

	static Set<String> methods(String name, @Nullable Set<String> methods) {
		for (String method : required(name, methods)) {
			if (method == null || method.isEmpty() || !isToken(method)) {
				throw new InvalidConfigurationPropertyValueException(name, method,
						"each method must be a non-blank HTTP method name");
			}
		}
		return methods;
	}

	static List<String> headerNames(String name, @Nullable List<String> headers) {
		for (String header : required(name, headers)) {
			if (header == null || !isToken(header)) {
				throw new InvalidConfigurationPropertyValueException(name, header,
						"each header must be a valid HTTP header name");
			}
		}
		return headers;
	}

	static String headerName(String name, @Nullable String value) {
		if (!required(name, value).isEmpty() && !isToken(value)) {
			throw new InvalidConfigurationPropertyValueException(name, value,
					"must be empty or a valid HTTP header name");
		}
		return value;
	}

	static <T> T required(String name, @Nullable T value) {
		if (value == null) {
			throw new InvalidConfigurationPropertyValueException(name, null, "must not be empty");
		}
		return value;
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
