package dev.retryafter.autoconfigure;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * Where each value of one properties group comes from: the group under {@code prefix} when the
 * value is set there, else the top level's, else the core's default. A configured value is
 * checked under the name it came from, so a message names {@code retry-after.clients.<name>.<key>}
 * or {@code retry-after.<key>}.
 *
 * @param <P> the properties group
 * @param prefix the full name of the group under which {@code own} is bound
 * @param own the group under {@code prefix}
 * @param topLevelPrefix the full name of the same group at the top level
 * @param topLevel the same group at the top level
 */
record PropertyMerge<P>(String prefix, P own, String topLevelPrefix, P topLevel) {

	/**
	 * The value of one setting of the group, checked.
	 * @param <T> the bound type
	 * @param <R> the type the core takes
	 * @param key the setting's key within the group
	 * @param property reads the setting from a group
	 * @param check validates a configured value under its full name
	 * @param fallback the core's default, used when neither level sets the value
	 * @return the value the core runs on
	 */
	<T, R> R get(String key, Function<P, @Nullable T> property, PropertyChecks.Check<T, R> check, R fallback) {
		T value = property.apply(this.own);
		if (value != null) {
			return check.apply(this.prefix + "." + key, value);
		}
		T inherited = property.apply(this.topLevel);
		return (inherited != null) ? check.apply(this.topLevelPrefix + "." + key, inherited) : fallback;
	}

	/**
	 * The full name of a setting when it is set at this level itself, not inherited.
	 * @param <T> the bound type
	 * @param key the setting's key within the group
	 * @param property reads the setting from a group
	 * @return {@code prefix.key}, or {@code null} when this level leaves it unset
	 */
	<T> @Nullable String ownName(String key, Function<P, @Nullable T> property) {
		return (property.apply(this.own) != null) ? this.prefix + "." + key : null;
	}

	/**
	 * The same merge one level down, for a nested group.
	 * @param <G> the nested group
	 * @param key the nested group's key
	 * @param group reads the nested group from this one
	 * @return the merge of the nested group
	 */
	<G> PropertyMerge<G> group(String key, Function<P, G> group) {
		return new PropertyMerge<>(this.prefix + "." + key, group.apply(this.own), this.topLevelPrefix + "." + key,
				group.apply(this.topLevel));
	}

}
