package dev.retryafter.autoconfigure;

import java.beans.PropertyDescriptor;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;

/**
 * Every key under {@code retry-after} that binds to something, read from the properties
 * types themselves so that a property added there is known here without a second list. A map
 * of groups ({@code clients}) contributes its keys with {@value #MAP_KEY} where the user's
 * name goes, e.g. {@code retry-after.clients.<name>.max-attempts}.
 */
final class RetryAfterPropertyNames {

	/** Stands for the key a user chooses in a map, such as a client's name. */
	static final String MAP_KEY = "<name>";

	/** Stands for any suffix, under a map of plain values. */
	static final String ANY = "*";

	private static final List<String> KEYS = Collections
		.unmodifiableList(keys(RetryAfterSettingsMapper.PREFIX, RetryAfterProperties.class));

	private RetryAfterPropertyNames() {
	}

	/**
	 * The known keys in kebab case, in the order the properties types declare them.
	 * @return for example {@code retry-after.max-attempts} and
	 * {@code retry-after.clients.<name>.hosts}
	 */
	static List<String> keys() {
		return KEYS;
	}

	private static List<String> keys(String prefix, Class<?> type) {
		List<String> keys = new ArrayList<>();
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
			Method getter = property.getReadMethod();
			if (getter == null || getter.getDeclaringClass() == Object.class) {
				continue;
			}
			String key = prefix + "." + kebab(property.getName());
			Class<?> valueType = property.getPropertyType();
			if (Map.class.isAssignableFrom(valueType)) {
				Class<?> groupType = mapValueType(getter.getGenericReturnType());
				if (groupType != null && isGroup(groupType)) {
					keys.addAll(keys(key + "." + MAP_KEY, groupType));
				}
				else {
					keys.add(key + "." + ANY);
				}
			}
			else if (isGroup(valueType)) {
				keys.addAll(keys(key, valueType));
			}
			else {
				keys.add(key);
			}
		}
		return keys;
	}

	/**
	 * Whether values of {@code type} are bound field by field: our own nested classes. Enums
	 * and everything else (numbers, durations, strings, collections) are single values.
	 */
	private static boolean isGroup(Class<?> type) {
		return !type.isEnum() && type.getName().startsWith("dev.retryafter.");
	}

	private static @Nullable Class<?> mapValueType(Type mapType) {
		if (mapType instanceof ParameterizedType parameterized
				&& parameterized.getActualTypeArguments()[1] instanceof Class<?> valueType) {
			return valueType;
		}
		return null;
	}

	private static String kebab(String camel) {
		StringBuilder kebab = new StringBuilder(camel.length() + 4);
		for (int i = 0; i < camel.length(); i++) {
			char c = camel.charAt(i);
			if (Character.isUpperCase(c)) {
				kebab.append('-').append(Character.toLowerCase(c));
			}
			else {
				kebab.append(c);
			}
		}
		return kebab.toString();
	}

}
