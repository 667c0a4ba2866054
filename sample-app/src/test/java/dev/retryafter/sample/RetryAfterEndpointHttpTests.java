package dev.retryafter.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.store.CooldownStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code retryafter} endpoint over HTTP: running cooldowns with their partition digest
 * prefix, and {@code DELETE} ending all of them or one origin's.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "retry-after.clients.x.hosts=api.example.com:443",
				"retry-after.cooldown.partition-headers=Authorization", "retry-after.cooldown.statuses=429,503" })
class RetryAfterEndpointHttpTests {

	private static final String DIGEST = "89abcdef0123456789abcdef01234567";

	private static final Origin LOCAL = Origin.of("http", "127.0.0.1", 8080);

	private static final Origin API = Origin.of("https", "api.example.com", -1);

	@LocalServerPort
	private int port;

	@Autowired
	private CooldownStore store;

	private LoopbackHttp http;

	@BeforeEach
	void setUp() {
		this.http = new LoopbackHttp(this.port);
		record(CooldownKey.of(LOCAL), Duration.ofMinutes(10));
		record(new CooldownKey(LOCAL, DIGEST), Duration.ofMinutes(20));
		record(CooldownKey.of(API), Duration.ofMinutes(30));
	}

	@AfterEach
	void endAll() {
		this.store.end(null);
	}

	@Test
	void shouldListCooldownsWithClientAndPartitionPrefixOnly() throws Exception {
		HttpResponse<String> response = this.http.get("/actuator/retryafter");
		assertThat(response.statusCode()).isEqualTo(200);
		String json = response.body();
		assertThat(JsonPath.<List<String>>read(json, "$.cooldowns[*].origin"))
			.containsExactly("http://127.0.0.1:8080", "http://127.0.0.1:8080", "https://api.example.com:443");
		assertThat(JsonPath.<List<String>>read(json, "$.cooldowns[*].client")).containsExactly("default", "default",
				"x");
		// An unpartitioned cooldown has no partition field: the actuator leaves nulls out.
		assertThat(JsonPath.<Map<String, Object>>read(json, "$.cooldowns[0]")).containsOnlyKeys("client", "origin",
				"remaining");
		assertThat(JsonPath.<String>read(json, "$.cooldowns[1].partition")).isEqualTo("89abcdef");
		assertThat(JsonPath.<Map<String, Object>>read(json, "$.cooldowns[2]")).doesNotContainKey("partition");
		assertThat(json).doesNotContain(DIGEST);
		assertThat(JsonPath.<List<Integer>>read(json, "$.clients.x.settings.cooldown.statuses"))
			.containsExactly(429, 503);
		assertThat(JsonPath.<List<String>>read(json, "$.clients.x.settings.cooldown.partitionHeaders"))
			.containsExactly("Authorization");
	}

	@Test
	void deleteWithOriginShouldEndEveryPartitionOfThatOriginOnly() throws Exception {
		HttpResponse<String> response = this.http.delete("/actuator/retryafter?origin=http://127.0.0.1:8080");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<List<String>>read(response.body(), "$.ended"))
			.containsExactly("http://127.0.0.1:8080", "http://127.0.0.1:8080#89abcdef");
		assertThat(response.body()).doesNotContain(DIGEST);
		assertThat(JsonPath.<List<String>>read(this.http.get("/actuator/retryafter").body(), "$.cooldowns[*].origin"))
			.containsExactly("https://api.example.com:443");
	}

	@Test
	void deleteWithoutOriginShouldEndEveryCooldown() throws Exception {
		HttpResponse<String> response = this.http.delete("/actuator/retryafter");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<List<String>>read(response.body(), "$.ended")).containsExactly("http://127.0.0.1:8080",
				"http://127.0.0.1:8080#89abcdef", "https://api.example.com:443");
		assertThat(JsonPath.<List<Object>>read(this.http.get("/actuator/retryafter").body(), "$.cooldowns")).isEmpty();
	}

	@Test
	void deleteWithAnUnparsableOriginShouldAnswer400AndEndNothing() throws Exception {
		HttpResponse<String> response = this.http.delete("/actuator/retryafter?origin=api.example.com");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(JsonPath.<List<Object>>read(this.http.get("/actuator/retryafter").body(), "$.cooldowns"))
			.hasSize(3);
	}

	@Test
	void deleteWithAnOriginWithoutPortShouldUseTheSchemesDefault() throws Exception {
		HttpResponse<String> response = this.http.delete("/actuator/retryafter?origin=https://api.example.com");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<List<String>>read(response.body(), "$.ended"))
			.containsExactly("https://api.example.com:443");
		assertThat(JsonPath.<List<String>>read(this.http.get("/actuator/retryafter").body(), "$.cooldowns[*].origin"))
			.containsExactly("http://127.0.0.1:8080", "http://127.0.0.1:8080");
	}

	private void record(CooldownKey key, Duration delay) {
		this.store.record(key, delay, System.nanoTime());
	}

}
