package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.protection.OriginProtection;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The configuration metadata an IDE shows: every key the property table (docs/CONFIGURATION.md)
 * documents is published
 * with a description and the default the table writes, and every published default means what
 * leaving the key unset means, so it is the core's. Reads the file the configuration processor
 * generated at compile time, which also merges {@code additional-spring-configuration-metadata.json}.
 * <p>
 * The expectations are derived, not listed: a new setting needs its row in the property table
 * and, unless its default is a literal initializer, its default in the additional metadata; no
 * row here. The README's shorter table of the key properties must agree with it, row for row.
 */
class RetryAfterPropertiesMetadataTests {

	private static final Path TABLE = Path.of("..", "docs", "CONFIGURATION.md");

	private static final Path README = Path.of("..", "README.md");

	/** A row of a property table: the key and its default cell. */
	private static final Pattern README_ROW = Pattern.compile("^\\| `(retry-after\\.[a-z0-9.-]+)` \\| ([^|]*) \\|",
			Pattern.MULTILINE);

	/** The keys the core does not read: the processor publishes their initializers. */
	private static final Set<String> INITIALIZED = Set.of("retry-after.enabled", "retry-after.store",
			"retry-after.observations.enabled");

	/**
	 * Derived from spring.application.name at start-up: published as the property table writes
	 * it, which no binding reproduces.
	 */
	private static final String DERIVED = "retry-after.redis.key-prefix";

	private static Map<String, Map<String, Object>> generated;

	private static Map<String, Map<String, Object>> additional;

	private static Map<String, String> readme;

	@BeforeAll
	static void readMetadata() throws IOException {
		generated = properties("META-INF/spring-configuration-metadata.json");
		additional = properties("META-INF/additional-spring-configuration-metadata.json");
		readme = table(TABLE);
	}

	/**
	 * The published keys, each as the IDE offers it.
	 */
	static Stream<String> publishedKeys() throws IOException {
		return properties("META-INF/spring-configuration-metadata.json").keySet()
			.stream()
			.filter((key) -> key.startsWith("retry-after.") && !key.equals("retry-after.clients"))
			.sorted();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("publishedKeys")
	void publishedKeyShouldHaveDescriptionAndTheReadmesDefault(String name) {
		Map<String, Object> property = generated.get(name);
		assertThat((String) property.get("description")).as(name).isNotBlank().endsWith(".").doesNotStartWith("The ");
		assertThat(readme).as("the property table").containsKey(name);
		String written = readme.get(name);
		if (written.startsWith("none")) {
			// No default: none published (a secret), or an empty list.
			assertThat(normalized(property.get("defaultValue"))).as(name).isIn("null", "");
		}
		else {
			assertThat(normalized(property.get("defaultValue"))).as(name).isEqualTo(normalized(written));
		}
	}

	@Test
	void shouldPublishExactlyTheKeysOfTheReadmesTable() {
		assertThat(generated.keySet()).filteredOn((key) -> key.startsWith("retry-after."))
			.containsExactlyInAnyOrderElementsOf(
					Stream.concat(readme.keySet().stream(), Stream.of("retry-after.clients")).toList());
	}

	/**
	 * The published keys with a published default that a binding can reproduce.
	 */
	static Stream<String> publishedDefaults() throws IOException {
		Map<String, Map<String, Object>> metadata = properties("META-INF/spring-configuration-metadata.json");
		return publishedKeys().filter((key) -> metadata.get(key).get("defaultValue") != null && !key.equals(DERIVED));
	}

	/**
	 * Binding a published default gives what binding nothing gives: the published default is
	 * the core's ({@code RetrySettings.defaults()}, {@code OriginProtection}'), or the
	 * initializer's for the keys the core does not read.
	 */
	@ParameterizedTest(name = "{0}")
	@MethodSource("publishedDefaults")
	void publishedDefaultShouldMeanWhatUnsetMeans(String name) {
		Object published = generated.get(name).get("defaultValue");
		assertThat(effective(Map.of(name, bindable(published)))).as(name + "=" + published)
			.isEqualTo(effective(Map.of()));
	}

	@Test
	void onlyKeysTheCoreDoesNotReadShouldPublishAnInitializer() throws IOException {
		// Every other default comes from the additional metadata: the properties carry none.
		assertThat(publishedKeys()).filteredOn((key) -> generated.get(key).get("defaultValue") != null)
			.filteredOn((key) -> !additional.containsKey(key))
			.containsExactlyInAnyOrderElementsOf(INITIALIZED);
	}

	@Test
	void clientsMapShouldBePublishedWithDescription() {
		assertThat(generated.get("retry-after.clients")).containsEntry("type",
				"java.util.Map<java.lang.String,dev.retryafter.autoconfigure.RetryAfterProperties$Client>")
			.containsEntry("description", "Named clients, each applying its overrides to the hosts it lists and to "
					+ "the HTTP service group of its name: under retry-after.clients.<name>, \"hosts\" and any "
					+ "per-request key of retry-after.");
	}

	@Test
	void shouldPublishOnlyBootsOwnKeysForTheEndpoint() {
		// The configuration processor writes these for every @Endpoint.
		assertThat(generated.keySet()).filteredOn((key) -> !key.startsWith("retry-after."))
			.containsExactlyInAnyOrder("management.endpoint.retryafter.access",
					"management.endpoint.retryafter.cache.time-to-live");
	}

	@Test
	void booleanDescriptionsShouldStartWithWhether() {
		assertThat(generated.values()).filteredOn((property) -> "java.lang.Boolean".equals(property.get("type")))
			.extracting((property) -> (String) property.get("description"))
			.isNotEmpty()
			.allMatch((description) -> description.startsWith("Whether "));
	}

	/**
	 * The published keys whose values are an enum's, or a collection of an enum's.
	 */
	static Stream<Arguments> enumKeys() throws IOException {
		Map<String, Map<String, Object>> metadata = properties("META-INF/spring-configuration-metadata.json");
		List<Arguments> keys = new ArrayList<>();
		for (String name : publishedKeys().toList()) {
			Class<?> type = valueType((String) metadata.get(name).get("type"));
			if (type != null && type.isEnum()) {
				keys.add(arguments(name, type));
			}
		}
		assertThat(keys).as("enum keys").isNotEmpty();
		return keys.stream();
	}

	private static @Nullable Class<?> valueType(String type) {
		Matcher collection = Pattern.compile("java\\.util\\.(?:Set|List)<(.+)>").matcher(type);
		try {
			return Class.forName(collection.matches() ? collection.group(1) : type);
		}
		catch (ClassNotFoundException ex) {
			return null;
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("enumKeys")
	void enumKeyShouldHintEveryValueAsItIsWritten(String name, Class<?> type) throws IOException {
		assertThat(hintValues(name)).containsExactlyElementsOf(AllowedValues.enumValues(type));
		assertThat(hintDescriptions(name)).allSatisfy((description) -> assertThat(description).endsWith("."));
	}

	@ParameterizedTest
	@ValueSource(strings = { "retry-after.retryable-statuses", "retry-after.cooldown.statuses" })
	void statusKeysShouldHintStatusesInRange(String name) throws IOException {
		assertThat(hintValues(name)).isNotEmpty()
			.allSatisfy((value) -> assertThat(Integer.parseInt(value)).isBetween(100, 599));
		// Every default status is among the hints.
		assertThat(hintValues(name))
			.containsAll(List.of(normalized(generated.get(name).get("defaultValue")).split(",")));
	}

	@Test
	void everyHintShouldBeForAPublishedKey() throws IOException {
		assertThat(hints().keySet()).allSatisfy((name) -> assertThat(generated).containsKey(name));
	}

	private static List<String> hintValues(String name) throws IOException {
		List<Map<String, Object>> values = hints().get(name);
		assertThat(values).as(name).isNotNull();
		return values.stream().map((value) -> String.valueOf(value.get("value"))).toList();
	}

	private static List<String> hintDescriptions(String name) throws IOException {
		return hints().get(name).stream().map((value) -> (String) value.get("description")).toList();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, List<Map<String, Object>>> hints() throws IOException {
		String resource = "META-INF/spring-configuration-metadata.json";
		try (InputStream in = RetryAfterPropertiesMetadataTests.class.getClassLoader().getResourceAsStream(resource)) {
			List<Map<String, Object>> hints = JsonPath.parse(in).read("$.hints");
			Map<String, List<Map<String, Object>>> byName = new HashMap<>();
			hints.forEach(
					(hint) -> byName.put((String) hint.get("name"), (List<Map<String, Object>>) hint.get("values")));
			return byName;
		}
	}

	private static Map<String, Map<String, Object>> properties(String resource) throws IOException {
		try (InputStream in = RetryAfterPropertiesMetadataTests.class.getClassLoader().getResourceAsStream(resource)) {
			assertThat(in).as(resource).isNotNull();
			List<Map<String, Object>> properties = JsonPath.parse(in).read("$.properties");
			Map<String, Map<String, Object>> byName = new HashMap<>();
			properties.forEach((property) -> byName.put((String) property.get("name"), property));
			return byName;
		}
	}

	/**
	 * What the instance runs on, as far as properties decide it.
	 */
	private static Effective effective(Map<String, String> values) {
		RetryAfterProperties properties = new Binder(new MapConfigurationPropertySource(values))
			.bindOrCreate(RetryAfterSettingsMapper.PREFIX, RetryAfterProperties.class);
		RetryAfterSettingsMapper mapper = new RetryAfterSettingsMapper(properties);
		OriginProtection cooldowns = mapper.hostCooldowns();
		return new Effective(mapper.map().defaults(), cooldowns.maxHosts(), cooldowns.maxDuration(),
				mapper.maxRecordedBytes(), properties.isEnabled(), properties.getStore(),
				properties.getObservations().isEnabled());
	}

	/**
	 * A published default as a property value is written: a list with commas.
	 */
	private static String bindable(Object value) {
		if (value instanceof List<?> list) {
			return list.stream().map(String::valueOf).collect(Collectors.joining(","));
		}
		return String.valueOf(value);
	}

	@Test
	void readmeKeyPropertiesShouldBeRowsOfThePropertyTable() throws IOException {
		Map<String, String> keyProperties = table(README);
		assertThat(readme).as("the property table").containsAllEntriesOf(keyProperties);
	}

	private static Map<String, String> table(Path file) throws IOException {
		Map<String, String> rows = new LinkedHashMap<>();
		Matcher row = README_ROW.matcher(Files.readString(file, StandardCharsets.UTF_8));
		while (row.find()) {
			assertThat(rows.put(row.group(1), row.group(2).trim().replace("`", ""))).as(row.group(1)).isNull();
		}
		assertThat(rows).as("rows of the property table in %s", file).isNotEmpty();
		return rows;
	}

	private record Effective(ClientSettings settings, int maxHosts, Duration maxDuration, long maxRecordedBytes,
			boolean enabled, RetryAfterProperties.Store store, boolean observations) {
	}

	/**
	 * One textual form for a default, however JSON typed it: lists joined with commas,
	 * numbers without trailing zeros ({@code 2}, {@code 2.0}).
	 */
	private static String normalized(Object value) {
		if (value instanceof List<?> list) {
			return list.stream().map(RetryAfterPropertiesMetadataTests::normalized).collect(Collectors.joining(","));
		}
		String text = String.valueOf(value);
		if (value instanceof Number || text.matches("-?[0-9]+(\\.[0-9]+)?")) {
			return new BigDecimal(text).stripTrailingZeros().toPlainString();
		}
		return text;
	}

}
