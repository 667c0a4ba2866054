package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.core.ResolvableType;
import org.springframework.util.unit.DataSize;

/**
 * What a {@code retry-after.*} property accepts, in the words a user writes in
 * {@code application.yml}: the range of a number, the values of an enum in lower case
 * ({@code local, redis}), the form of a duration or a size. The ranges are those
 * {@link PropertyChecks} enforces after binding.
 */
final class AllowedValues {

	static final String STATUSES = "HTTP status codes from 100 to 599, separated by commas (e.g. 429,503)";

	static final String DURATION = "a duration such as 500ms, 10s or 2m (a number alone is in seconds)";

	static final String DATA_SIZE = "a size such as 512KB or 32MB (a number alone is in bytes)";

	/** The numbers whose range is narrower than their type's, by key below the client level. */
	private static final Map<String, String> NUMBERS = Map.of("max-attempts", "a whole number from 1 to 10",
			"budget.min-per-second", "a whole number of at least 0", "cooldown.max-hosts",
			"a whole number of at least 1", "jitter", "a number between 0 and 1", "backoff.multiplier",
			"a number of at least 1", "budget.ratio", "a number of at least 0", "retryable-statuses", STATUSES,
			"cooldown.statuses", STATUSES);

	private AllowedValues() {
	}

	/**
	 * Describes what {@code name} accepts.
	 * @param name the full property name, e.g. {@code retry-after.clients.payments.jitter}
	 * or {@code retry-after.cooldown.statuses[0]}
	 * @param type the type the value was bound to
	 * @return a phrase that completes "must be ...", or {@code null} for a type with nothing
	 * to say beyond the conversion failure (a string)
	 */
	static @Nullable String of(String name, ResolvableType type) {
		String known = NUMBERS.get(settingKey(name));
		if (known != null) {
			return known;
		}
		Class<?> valueType = elementType(type);
		if (valueType == null) {
			return null;
		}
		if (valueType.isEnum()) {
			return "one of " + String.join(", ", enumValues(valueType));
		}
		if (valueType == Duration.class) {
			return DURATION;
		}
		if (valueType == DataSize.class) {
			return DATA_SIZE;
		}
		if (valueType == Boolean.class || valueType == boolean.class) {
			return "true or false";
		}
		if (valueType == Integer.class || valueType == int.class || valueType == Long.class
				|| valueType == long.class) {
			return "a whole number";
		}
		if (valueType == Double.class || valueType == double.class) {
			return "a number";
		}
		return null;
	}

	/**
	 * The enum's constants as a property value is written: lower case, dashes for
	 * underscores. Binding accepts any case, so this is the spelling the docs use.
	 */
	static List<String> enumValues(Class<?> enumType) {
		List<String> values = new ArrayList<>();
		for (Object constant : enumType.getEnumConstants()) {
			values.add(((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'));
		}
		return values;
	}

	/**
	 * The key below {@code retry-after} and below a named client, list indexes left out:
	 * {@code retry-after.clients.payments.cooldown.statuses[0]} is {@code cooldown.statuses}.
	 */
	static String settingKey(String name) {
		String key = name.replaceAll("\\[[^]]*]", "");
		String prefix = RetryAfterSettingsMapper.PREFIX + ".";
		if (key.startsWith(prefix)) {
			key = key.substring(prefix.length());
		}
		if (key.startsWith("clients.")) {
			int nameEnd = key.indexOf('.', "clients.".length());
			key = (nameEnd >= 0) ? key.substring(nameEnd + 1) : key;
		}
		return key;
	}

	private static @Nullable Class<?> elementType(ResolvableType type) {
		Class<?> resolved = type.resolve();
		if (resolved != null && Collection.class.isAssignableFrom(resolved)) {
			return type.asCollection().resolveGeneric(0);
		}
		return resolved;
	}

}
