package dev.retryafter.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.store.CooldownStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who may end cooldowns over HTTP, in an application that exposes every endpoint and sets
 * nothing else: not the sample's configuration (which opens the endpoint), only the
 * library's defaults, on a real server on loopback.
 */
class RetryAfterEndpointAccessTests {

	private static final Origin ORIGIN = Origin.of("https", "api.example.com", 443);

	@Test
	void whenOnlyExposedThenGetAnswersAndDeleteEndsNothing() throws Exception {
		try (ConfigurableApplicationContext context = start()) {
			CooldownStore store = context.getBean(CooldownStore.class);
			store.record(CooldownKey.of(ORIGIN), Duration.ofMinutes(10), System.nanoTime());
			LoopbackHttp http = new LoopbackHttp(port(context));
			HttpResponse<String> get = http.get("/actuator/retryafter");
			assertThat(get.statusCode()).isEqualTo(200);
			assertThat(JsonPath.<List<String>>read(get.body(), "$.cooldowns[*].origin"))
				.containsExactly("https://api.example.com:443");
			HttpResponse<String> delete = http.delete("/actuator/retryafter");
			HttpResponse<String> deleteOne = http.delete("/actuator/retryafter?origin=https://api.example.com:443");
			// No write operation is mapped: the path only answers GET.
			assertThat(delete.statusCode()).isEqualTo(405);
			assertThat(deleteOne.statusCode()).isEqualTo(405);
			assertThat(store.snapshot(System.nanoTime())).containsOnlyKeys(CooldownKey.of(ORIGIN));
			assertThat(JsonPath.<List<String>>read(http.get("/actuator/retryafter").body(), "$.cooldowns[*].origin"))
				.containsExactly("https://api.example.com:443");
		}
	}

	@Test
	void whenAccessIsUnrestrictedThenDeleteEndsCooldowns() throws Exception {
		try (ConfigurableApplicationContext context = start("management.endpoint.retryafter.access=unrestricted")) {
			CooldownStore store = context.getBean(CooldownStore.class);
			store.record(CooldownKey.of(ORIGIN), Duration.ofMinutes(10), System.nanoTime());
			HttpResponse<String> delete = new LoopbackHttp(port(context)).delete("/actuator/retryafter");
			assertThat(delete.statusCode()).isEqualTo(200);
			assertThat(JsonPath.<List<String>>read(delete.body(), "$.ended"))
				.containsExactly("https://api.example.com:443");
			assertThat(store.snapshot(System.nanoTime())).isEmpty();
		}
	}

	private static ConfigurableApplicationContext start(String... properties) {
		// spring.config.name names no file, so the sample's application.yml is not read.
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.SERVLET)
			.properties("spring.config.name=endpoint-access-tests-none", "server.address=127.0.0.1", "server.port=0",
					"management.endpoints.web.exposure.include=*")
			.properties(properties)
			.run();
	}

	private static int port(ConfigurableApplicationContext context) {
		return context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
