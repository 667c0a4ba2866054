package dev.retryafter.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Finds the {@code retry-after.*} keys of an environment's property sources that bind to
 * nothing, and names the closest known key for each. Boot ignores such a key without a word,
 * so a typo ({@code max-atempts}) silently leaves the default in place.
 * <p>
 * Keys are compared as Spring Boot's relaxed binding compares them: case, dashes and
 * underscores do not count, so {@code max-attempts}, {@code maxAttempts} and
 * {@code max_attempts} are the same key; an environment variable is compared with its dots,
 * dashes and underscores all left out ({@code RETRY_AFTER_MAX_ATTEMPTS},
 * {@code RETRYAFTER_MAXATTEMPTS}).
 */
final class UnknownPropertyCheck {

	private static final String PREFIX = "retryafter";

	private static final Pattern LIST_INDEX = Pattern.compile("[0-9]+");

	private static final Pattern ENV_LIST_INDEX = Pattern.compile("(_[0-9]+_?)+$");

	private final List<Known> known = new ArrayList<>();

	UnknownPropertyCheck(List<String> keys) {
		for (String key : keys) {
			this.known.add(new Known(key));
		}
	}

	/**
	 * One line per unknown key, the first source that holds it named (the sources are in
	 * precedence order), each key once however many sources hold it.
	 * @param environment the application's environment
	 * @return the warnings, empty when every {@code retry-after.*} key binds
	 */
	List<String> warnings(ConfigurableEnvironment environment) {
		Map<String, String> warnings = new LinkedHashMap<>();
		for (PropertySource<?> source : environment.getPropertySources()) {
			if (ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)
					|| !(source instanceof EnumerablePropertySource<?> enumerable)) {
				continue;
			}
			boolean environmentVariables = source instanceof SystemEnvironmentPropertySource;
			for (String name : enumerable.getPropertyNames()) {
				Candidate candidate = environmentVariables ? Candidate.ofEnvironmentVariable(name)
						: Candidate.ofKey(name);
				if (candidate != null && !warnings.containsKey(candidate.id()) && !isKnown(candidate)) {
					warnings.put(candidate.id(), warning(name, from(source, name), candidate));
				}
			}
		}
		return new ArrayList<>(warnings.values());
	}

	private boolean isKnown(Candidate candidate) {
		for (Known key : this.known) {
			if (candidate.environmentVariable() ? key.matchesSquashed(candidate.squashed())
					: key.matchesOrContains(candidate.elements())) {
				return true;
			}
		}
		return false;
	}

	private String warning(String name, String from, Candidate candidate) {
		String suggestion = closest(candidate);
		String text = "Property '" + name + "' (" + from + ") binds to nothing and is ignored";
		return (suggestion != null) ? text + "; did you mean '" + suggestion + "'?"
				: text + "; no retry-after.* property is close to it";
	}

	/**
	 * The one known key whose last part is the candidate's (a key at the wrong level, such as
	 * {@code retry-after.max-wait}), else the nearest by edit distance when it is near enough
	 * to be a typo: at most a third of the candidate's last part, and at least 2.
	 */
	private @Nullable String closest(Candidate candidate) {
		List<String> elements = candidate.elements();
		String last = elements.get(elements.size() - 1);
		boolean underClient = elements.size() > 2 && elements.get(1).equals("clients");
		if (!candidate.environmentVariable()) {
			List<Known> sameLast = new ArrayList<>();
			for (Known key : this.known) {
				if (key.last().equals(last) && key.isClientKey() == underClient) {
					sameLast.add(key);
				}
			}
			if (sameLast.size() == 1) {
				return sameLast.get(0).written(candidate);
			}
		}
		Known best = null;
		int bestDistance = Integer.MAX_VALUE;
		for (Known key : this.known) {
			int distance = distance(candidate.squashed(), key.squashed(candidate));
			if (distance < bestDistance) {
				best = key;
				bestDistance = distance;
			}
		}
		int allowed = Math.max(2, last.length() / 3);
		return (best != null && bestDistance <= allowed) ? best.written(candidate) : null;
	}

	private static String from(PropertySource<?> source, String name) {
		Origin origin = OriginLookup.getOrigin(source, name);
		return (origin != null) ? "from " + origin : "from property source '" + source.getName() + "'";
	}

	/** Levenshtein distance: the fewest one-character edits from one text to the other. */
	static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

	/** One element of a key as binding compares it: lower case, letters and digits only. */
	static String uniform(String element) {
		StringBuilder uniform = new StringBuilder(element.length());
		for (int i = 0; i < element.length(); i++) {
			char c = Character.toLowerCase(element.charAt(i));
			if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
				uniform.append(c);
			}
		}
		return uniform.toString();
	}

	/**
	 * A key found in a property source.
	 *
	 * @param id the key in uniform form, so each key is reported once
	 * @param elements its parts in uniform form, list indexes left out (for an environment
	 * variable, the words between underscores)
	 * @param written its parts as the user wrote them
	 * @param squashed its uniform parts run together
	 * @param environmentVariable whether it is an environment variable
	 */
	private record Candidate(String id, List<String> elements, List<String> written, String squashed,
			boolean environmentVariable) {

		static @Nullable Candidate ofKey(String name) {
			// retry-after.clients[payments].hosts[0] -> retry-after.clients.payments.hosts.0
			String dotted = name.replace("[", ".").replace("]", "");
			List<String> written = new ArrayList<>(List.of(dotted.split("\\.")));
			while (written.size() > 2 && LIST_INDEX.matcher(written.get(written.size() - 1)).matches()) {
				written.remove(written.size() - 1);
			}
			List<String> elements = new ArrayList<>(written.size());
			for (String element : written) {
				elements.add(uniform(element));
			}
			if (elements.size() < 2 || !elements.get(0).equals(PREFIX)) {
				return null;
			}
			return new Candidate(String.join(".", elements), elements, written, String.join("", elements), false);
		}

		static @Nullable Candidate ofEnvironmentVariable(String name) {
			String upper = name.toUpperCase(Locale.ROOT);
			if (!upper.startsWith("RETRY_AFTER_") && !upper.startsWith("RETRYAFTER_")) {
				return null;
			}
			String trimmed = ENV_LIST_INDEX.matcher(upper).replaceAll("");
			List<String> words = new ArrayList<>();
			for (String word : trimmed.split("_")) {
				if (!word.isEmpty()) {
					words.add(uniform(word));
				}
			}
			String squashed = String.join("", words);
			// RETRY_AFTER_X and RETRYAFTER_X: the prefix counts as one part either way.
			List<String> elements = new ArrayList<>();
			elements.add(PREFIX);
			elements.addAll(words.subList(words.get(0).equals(PREFIX) ? 1 : 2, words.size()));
			if (elements.size() < 2) {
				return null;
			}
			return new Candidate("env:" + squashed, elements, elements, squashed, true);
		}

	}

	/**
	 * A known key, as written ({@code retry-after.clients.<name>.max-attempts}) and in uniform
	 * parts.
	 */
	private static final class Known {

		private final String key;

		private final String[] written;

		private final String[] elements;

		private final Pattern squashedPattern;

		Known(String key) {
			this.key = key;
			this.written = key.split("\\.");
			this.elements = new String[this.written.length];
			StringBuilder pattern = new StringBuilder();
			for (int i = 0; i < this.written.length; i++) {
				String part = this.written[i];
				boolean wildcard = part.equals(RetryAfterPropertyNames.MAP_KEY)
						|| part.equals(RetryAfterPropertyNames.ANY);
				this.elements[i] = wildcard ? part : uniform(part);
				pattern.append(wildcard ? ".+" : Pattern.quote(this.elements[i]));
			}
			this.squashedPattern = Pattern.compile(pattern.toString());
		}

		String last() {
			return this.elements[this.elements.length - 1];
		}

		boolean isClientKey() {
			return this.key.contains(RetryAfterPropertyNames.MAP_KEY);
		}

		boolean matchesSquashed(String squashed) {
			return this.squashedPattern.matcher(squashed).matches();
		}

		/**
		 * Whether the candidate is this key, or a group that contains it (such a value fails
		 * to bind, and Boot reports that itself).
		 */
		boolean matchesOrContains(List<String> candidate) {
			if (candidate.size() > this.elements.length && !last().equals(RetryAfterPropertyNames.ANY)) {
				return false;
			}
			for (int i = 0; i < candidate.size() && i < this.elements.length; i++) {
				String element = this.elements[i];
				if (element.equals(RetryAfterPropertyNames.ANY)) {
					return true;
				}
				if (!element.equals(RetryAfterPropertyNames.MAP_KEY) && !element.equals(candidate.get(i))) {
					return false;
				}
			}
			return true;
		}

		/** This key with the candidate's own map key in place of {@code <name>}, run together. */
		String squashed(Candidate candidate) {
			StringBuilder squashed = new StringBuilder();
			for (int i = 0; i < this.elements.length; i++) {
				squashed.append(isMapKey(i) ? mapKey(candidate.elements(), i) : this.elements[i]);
			}
			return squashed.toString();
		}

		/**
		 * This key as the user would write it: kebab case with their map key, or Boot's form of
		 * an environment variable ({@code RETRYAFTER_CLIENTS_PAYMENTS_MAXATTEMPTS}).
		 */
		String written(Candidate candidate) {
			List<String> parts = new ArrayList<>(this.written.length);
			for (int i = 0; i < this.written.length; i++) {
				String part = isMapKey(i) ? mapKey(candidate.written(), i) : this.written[i];
				parts.add(candidate.environmentVariable() ? uniform(part).toUpperCase(Locale.ROOT) : part);
			}
			return String.join(candidate.environmentVariable() ? "_" : ".", parts);
		}

		private boolean isMapKey(int index) {
			return this.written[index].equals(RetryAfterPropertyNames.MAP_KEY);
		}

		private static String mapKey(List<String> parts, int index) {
			return (index < parts.size()) ? parts.get(index) : RetryAfterPropertyNames.MAP_KEY;
		}

	}

}
