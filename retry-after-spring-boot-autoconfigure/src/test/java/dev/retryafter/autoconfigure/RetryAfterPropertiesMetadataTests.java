package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.DateReference;
import dev.retryafter.core.OnInvalidRetryAfter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The configuration metadata an IDE shows: every documented key is published with a
 * description and its default. Reads the file the configuration processor generated at
 * compile time, which also merges {@code additional-spring-configuration-metadata.json}.
 */
class RetryAfterPropertiesMetadataTests {

	private static Map<String, Map<String, Object>> generated;

	private static Map<String, Map<String, Object>> additional;

	@BeforeAll
	static void readMetadata() throws IOException {
		generated = properties("META-INF/spring-configuration-metadata.json");
		additional = properties("META-INF/additional-spring-configuration-metadata.json");
	}

	/**
	 * The documented keys, one row each, with the default written as the README's table writes it.
	 */
	static Stream<Arguments> specKeys() {
		return Stream.of(arguments("retry-after.enabled", "true"), arguments("retry-after.max-attempts", "3"),
				arguments("retry-after.total-budget", "10s"), arguments("retry-after.attempt-reserve", "500ms"),
				arguments("retry-after.retryable-statuses", "429,503"),
				arguments("retry-after.retryable-methods", "GET,HEAD,OPTIONS,TRACE,PUT,DELETE"),
				arguments("retry-after.idempotency-key-header", "Idempotency-Key"),
				arguments("retry-after.backoff.initial", "1s"), arguments("retry-after.backoff.multiplier", "2.0"),
				arguments("retry-after.backoff.max", "8s"), arguments("retry-after.jitter", "0.2"),
				arguments("retry-after.header.max-wait", "60s"), arguments("retry-after.header.on-invalid", "backoff"),
				arguments("retry-after.header.date-reference", "server-date"),
				arguments("retry-after.io-errors.connect", "true"), arguments("retry-after.io-errors.read", "true"),
				arguments("retry-after.cooldown.enabled", "true"), arguments("retry-after.cooldown.mode", "wait"),
				arguments("retry-after.cooldown.statuses", "429"),
				arguments("retry-after.cooldown.max-duration", "60s"),
				arguments("retry-after.cooldown.partition-headers", ""),
				arguments("retry-after.cooldown.max-hosts", "10000"),
				// A secret has no default: one shared by every installation would key nothing.
				arguments("retry-after.cooldown.partition-secret", null),
				arguments("retry-after.budget.enabled", "true"),
				arguments("retry-after.budget.ratio", "0.2"), arguments("retry-after.budget.min-per-second", "10"),
				arguments("retry-after.budget.window", "10s"), arguments("retry-after.rate-limit.enabled", "true"),
				arguments("retry-after.rate-limit.fields", "ietf,x-ratelimit"), arguments("retry-after.store", "local"),
				// Derived from spring.application.name: published as the README's table writes it.
				arguments("retry-after.redis.key-prefix", "retry-after:<spring.application.name>:"),
				arguments("retry-after.observations.enabled", "true"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("specKeys")
	void specKeyShouldBePublishedWithDescriptionAndDefault(String name, String specDefault) {
		Map<String, Object> property = generated.get(name);
		assertThat(property).as(name).isNotNull();
		assertThat((String) property.get("description")).as(name).isNotBlank().endsWith(".").doesNotStartWith("The ");
		assertThat(normalized(property.get("defaultValue"))).as(name).isEqualTo(normalized(specDefault));
	}

	@Test
	void clientsMapShouldBePublishedWithDescription() {
		assertThat(generated.get("retry-after.clients")).containsEntry("type",
				"java.util.Map<java.lang.String,dev.retryafter.autoconfigure.RetryAfterProperties$Client>")
			.containsEntry("description", "Named clients, each applying its overrides to the hosts it lists: under "
					+ "retry-after.clients.<name>, \"hosts\" and any per-request key of retry-after.");
	}

	@Test
	void shouldPublishNoKeyOutsideSpec() {
		assertThat(generated.keySet()).filteredOn((key) -> key.startsWith("retry-after."))
			.containsExactlyInAnyOrderElementsOf(Stream
				.concat(specKeys().map((arguments) -> (String) arguments.get()[0]), Stream.of("retry-after.clients"))
				.toList());
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
			.hasSize(7)
			.allMatch((description) -> description.startsWith("Whether "));
	}

	@Test
	void additionalMetadataShouldCarryCollectionDefaults() {
		assertThat(normalized(additional.get("retry-after.retryable-statuses").get("defaultValue"))).isEqualTo("429,503");
		assertThat(normalized(additional.get("retry-after.retryable-methods").get("defaultValue")))
			.isEqualTo("GET,HEAD,OPTIONS,TRACE,PUT,DELETE");
		assertThat(normalized(additional.get("retry-after.cooldown.statuses").get("defaultValue"))).isEqualTo("429");
		assertThat(normalized(additional.get("retry-after.cooldown.partition-headers").get("defaultValue")))
			.isEqualTo("");
		assertThat(normalized(additional.get("retry-after.rate-limit.fields").get("defaultValue")))
			.isEqualTo("ietf,x-ratelimit");
	}

	static Stream<Arguments> enumKeys() {
		return Stream.of(arguments("retry-after.store", RetryAfterProperties.Store.class),
				arguments("retry-after.header.on-invalid", OnInvalidRetryAfter.class),
				arguments("retry-after.header.date-reference", DateReference.class),
				arguments("retry-after.cooldown.mode", CooldownMode.class));
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
