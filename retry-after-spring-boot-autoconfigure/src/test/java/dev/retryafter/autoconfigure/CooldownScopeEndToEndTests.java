package dev.retryafter.autoconfigure;

import java.time.Duration;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a cooldown covers and how long, as a user configures it: tenants of one origin kept
 * apart by {@code cooldown.partition-headers}, routes by their own scopes, and a day-long {@code Retry-After} cut to
 * {@code cooldown.max-duration}. Through the Boot-built {@code RestClient}, against a real
 * origin on 127.0.0.1, on real clocks: when a request is sent is the behaviour under test.
 */
class CooldownScopeEndToEndTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class))
		.withPropertyValues("retry-after.max-attempts=1");

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws Exception {
		this.origin = LoopbackHttpServer.start();
		// Tenant A is rate-limited for 3 s; tenant B is well within its own limit.
		this.origin.on("/a", Reply.status(429).header("Retry-After", "3"), Reply.status(200));
		this.origin.on("/b", Reply.status(200));
	}

	@AfterEach
	void stopOrigin() throws Exception {
		this.origin.close();
	}

	@Test
	void whenPartitionHeadersNameAuthorizationThenOneTenantsCooldownDoesNotHoldAnother() {
		this.contextRunner.withPropertyValues("retry-after.cooldown.partition-headers=Authorization")
			.run((context) -> {
				RestClient client = restClient(context);
				assertThat(status(client, "/a", "Bearer tenant-a")).isEqualTo(429);

				// The same route: only the partition keeps tenant B out of tenant A's cooldown.
				long start = System.nanoTime();
				assertThat(status(client, "/a", "Bearer tenant-b")).isEqualTo(200);
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));

				start = System.nanoTime();
				assertThat(status(client, "/a", "Bearer tenant-a")).isEqualTo(200);
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(2500));
			});
	}

	@Test
	void whenNoPartitionHeadersAreSetThenTheRefusedRouteCoolsDownForEveryTenantAndAnotherRouteDoesNot() {
		this.contextRunner.run((context) -> {
			RestClient client = restClient(context);
			assertThat(status(client, "/a", "Bearer tenant-a")).isEqualTo(429);

			// Another route of the origin is sent: one route's 429 says nothing of the others.
			assertThat(status(client, "/b", "Bearer tenant-b")).isEqualTo(200);
			assertThat(this.origin.requests()).hasSize(2);

			long start = System.nanoTime();
			assertThat(status(client, "/a", "Bearer tenant-b")).isEqualTo(200);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(2500));
		});
	}

	@Test
	void whenTheServerAsksForADayThenTheOriginCoolsDownForMaxDurationOnly() {
		this.origin.on("/report", Reply.status(429).header("Retry-After", "86400"), Reply.status(200));
		this.contextRunner.withPropertyValues("retry-after.cooldown.max-duration=2s").run((context) -> {
			RestClient client = restClient(context);
			assertThat(status(client, "/report", null)).isEqualTo(429);

			long start = System.nanoTime();
			assertThat(status(client, "/report", null)).isEqualTo(200);
			Duration held = Duration.ofNanos(System.nanoTime() - start);
			// Held until the capped instant plus jitter (at most 20 % of the 2 s), then sent.
			assertThat(held).isBetween(Duration.ofMillis(1900), Duration.ofMillis(3500));
			assertThat(this.origin.requests()).hasSize(2);
		});
	}

	private static RestClient restClient(ApplicationContext context) {
		return context.getBean(RestClient.Builder.class).build();
	}

	private int status(RestClient client, String path, String authorization) {
		return client.get()
			.uri(this.origin.uri(path))
			.headers((headers) -> {
				if (authorization != null) {
					headers.set("Authorization", authorization);
				}
			})
			.retrieve()
			.onStatus((code) -> true, (request, ignored) -> {
			})
			.toBodilessEntity()
			.getStatusCode()
			.value();
	}

}
