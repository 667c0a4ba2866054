package dev.retryafter.sample;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.store.CooldownStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The example of {@code GET /actuator/retryafter} in docs/ENDPOINT.md (linked from the README)
 * against the real answer of an application with the default settings, so the example cannot
 * drift from the endpoint: the settings are equal value for value, every object has the same
 * fields in the same order, and each duration is written in the same style.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "spring.application.name=readme-endpoint-example" })
class ReadmeEndpointExampleTests {

	private static final Path README = Path.of("..", "docs", "ENDPOINT.md");

	private static final Pattern JSON_BLOCK = Pattern.compile("```json\\n(.*?)```", Pattern.DOTALL);

	private static final Pattern SETTING_DURATION = Pattern.compile("[1-9][0-9]*(ms|s)|0s");

	private final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	private int port;

	@Autowired
	private CooldownStore store;

	@Autowired
	private RetryBudgets budgets;

	@AfterEach
	void endAll() {
		this.store.end(null);
	}

	@Test
	void endpointShouldAnswerWhatTheReadmeShows() throws Exception {
		JsonNode example = readmeExample();
		Origin api = Origin.of("https", "api.example.com", -1);
		record(CooldownKey.of(api), Duration.ofMillis(3712));
		record(new CooldownKey(api, "1a2b3c4d" + "0".repeat(24)), Duration.ofSeconds(9));
		for (int i = 0; i < 42; i++) {
			this.budgets.recordRequest("default");
		}
		for (int i = 0; i < 3; i++) {
			assertThat(this.budgets.permits("default").tryAcquire()).isTrue();
		}
		HttpResponse<String> response = new LoopbackHttp(this.port).get("/actuator/retryafter");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode actual = this.json.readTree(response.body());

		assertSameFields("", example, actual);
		assertThat(actual.get("clients")).isEqualTo(example.get("clients"));
		for (JsonNode setting : durations(actual.get("clients").get("default").get("settings"))) {
			assertThat(setting.asString()).matches(SETTING_DURATION);
		}
		assertThat(actual.get("budgets")).isEqualTo(example.get("budgets"));
		for (int i = 0; i < 2; i++) {
			JsonNode shown = example.get("cooldowns").get(i);
			JsonNode cooldown = actual.get("cooldowns").get(i);
			assertThat(cooldown.get("client")).isEqualTo(shown.get("client"));
			assertThat(cooldown.get("origin")).isEqualTo(shown.get("origin"));
			assertThat(cooldown.get("remaining").asString()).matches("[1-9][0-9]*(ms|s)");
			Duration remaining = DurationStyle.SIMPLE.parse(cooldown.get("remaining").asString());
			assertThat(remaining).isPositive()
				.isLessThanOrEqualTo(DurationStyle.SIMPLE.parse(shown.get("remaining").asString()));
		}
		assertThat(actual.get("cooldowns").get(1).get("partition")).isEqualTo(shown(example, 1, "partition"));
		assertThat(actual.get("store").get("type")).isEqualTo(example.get("store").get("type"));
		assertThat(actual.get("store").get("connected")).isEqualTo(example.get("store").get("connected"));
		assertThat(actual.get("store").get("errors")).isEqualTo(example.get("store").get("errors"));
		Instant.parse(actual.get("store").get("since").asString());
		Instant.parse(example.get("store").get("since").asString());
	}

	@Test
	void readmeShouldWriteEveryExampleDurationAsTheEndpointDoes() throws Exception {
		JsonNode example = readmeExample();
		for (JsonNode setting : durations(example.get("clients").get("default").get("settings"))) {
			assertThat(setting.asString()).matches(SETTING_DURATION);
		}
		assertThat(example.get("cooldowns").get(0).get("remaining").asString()).isEqualTo("3712ms");
	}

	private JsonNode readmeExample() throws IOException {
		String readme = Files.readString(README, StandardCharsets.UTF_8);
		int section = readme.indexOf("## The answer");
		assertThat(section).as("the endpoint example's section").isNotNegative();
		Matcher block = JSON_BLOCK.matcher(readme);
		assertThat(block.find(section)).as("a json example in the endpoint section").isTrue();
		return this.json.readTree(block.group(1));
	}

	private static JsonNode shown(JsonNode example, int cooldown, String field) {
		return example.get("cooldowns").get(cooldown).get(field);
	}

	/**
	 * The duration-valued settings of a client: the string fields other than names and enum
	 * values.
	 */
	private static List<JsonNode> durations(JsonNode settings) {
		List<JsonNode> durations = new ArrayList<>();
		durations.add(settings.get("totalBudget"));
		durations.add(settings.get("attemptReserve"));
		durations.add(settings.get("backoff").get("initial"));
		durations.add(settings.get("backoff").get("max"));
		durations.add(settings.get("header").get("maxWait"));
		durations.add(settings.get("budget").get("window"));
		return durations;
	}

	/**
	 * Every object in the example has the fields of its counterpart in the answer, and the
	 * other way round; arrays are compared element by element up to the example's length.
	 */
	private static void assertSameFields(String path, JsonNode example, JsonNode actual) {
		if (example.isObject()) {
			assertThat(actual.isObject()).as(path).isTrue();
			// In the same order too: a reader compares the example with what curl prints.
			assertThat(actual.propertyNames()).as(path).containsExactlyElementsOf(example.propertyNames());
			for (String name : example.propertyNames()) {
				assertSameFields(path + "." + name, example.get(name), actual.get(name));
			}
		}
		else if (example.isArray()) {
			assertThat(actual.isArray()).as(path).isTrue();
			assertThat(actual.size()).as(path).isEqualTo(example.size());
			for (int i = 0; i < example.size(); i++) {
				assertSameFields(path + "[" + i + "]", example.get(i), actual.get(i));
			}
		}
		else {
			assertThat(actual.getNodeType()).as(path).isEqualTo(example.getNodeType());
		}
	}

	private void record(CooldownKey key, Duration delay) {
		this.store.record(key, delay, System.nanoTime());
	}

}
