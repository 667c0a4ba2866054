package dev.retryafter.benchmarks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --name=value} command-line options of the harnesses, with defaults.
 */
final class Options {

	private final Map<String, String> values = new HashMap<>();

	private Options() {
	}

	static Options parse(String[] args) {
		Options options = new Options();
		for (String arg : args) {
			if (!arg.startsWith("--") || !arg.contains("=")) {
				throw new IllegalArgumentException("Expected --name=value, got '" + arg + "'");
			}
			int equals = arg.indexOf('=');
			options.values.put(arg.substring(2, equals), arg.substring(equals + 1));
		}
		return options;
	}

	String string(String name, String defaultValue) {
		return this.values.getOrDefault(name, defaultValue);
	}

	int integer(String name, int defaultValue) {
		String value = this.values.get(name);
		return (value != null) ? Integer.parseInt(value) : defaultValue;
	}

	List<String> list(String name, String defaultValue) {
		List<String> list = new ArrayList<>();
		for (String item : string(name, defaultValue).split(",")) {
			if (!item.isBlank()) {
				list.add(item.trim());
			}
		}
		return list;
	}

	List<Integer> integers(String name, String defaultValue) {
		return list(name, defaultValue).stream().map(Integer::valueOf).toList();
	}

}
