package dev.retryafter.metrics;

import java.io.IOException;

import dev.retryafter.actuate.RetryAfterEndpoint;
import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.actuate.RetryAfterEndpointAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.logging.RetryAfterLoggingAutoConfiguration;
import dev.retryafter.autoconfigure.metrics.RetryAfterMetricsAutoConfiguration;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * All of the starter's auto-configurations together: a Boot-built {@code RestClient}
 * retrying against a loopback origin records its meters, and the endpoint shows the
 * configured clients.
 */
class RetryAfterObservabilityWiringTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterMetricsAutoConfiguration.class, RetryAfterLoggingAutoConfiguration.class,
				RetryAfterEndpointAutoConfiguration.class, MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
				HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class))
		.withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s",
				"management.endpoints.web.exposure.include=retryafter");

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start()
			.on("/report", Reply.status(429).header("Retry-After", "0"), Reply.status(503).header("Retry-After", "0"),
					Reply.status(200).body("ready"));
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	@Test
	void whenBootBuiltClientRetriesThenMetersRecordEveryAttempt() {
		this.contextRunner.run((context) -> {
			String body = context.getBean(RestClient.Builder.class)
				.build()
				.get()
				.uri(this.origin.uri("/report"))
				.retrieve()
				.body(String.class);
			assertThat(body).isEqualTo("ready");
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(attempts(registry, "429", "retried")).isEqualTo(1.0);
			assertThat(attempts(registry, "503", "retried")).isEqualTo(1.0);
			assertThat(attempts(registry, "200", "success")).isEqualTo(1.0);
			assertThat(registry.get("http.client.retry.delay.planned")
				.tags("client", "default", "source", "retry-after-seconds")
				.timer()
				.count()).isEqualTo(2);
			assertThat(registry.get("http.client.retry.delay.actual").tags("client", "default").timer().count())
				.isEqualTo(2);
			assertThat(registry.find("http.client.retry.abandoned").meters()).isEmpty();
		});
	}

	@Test
	void whenRetriesRunOutThenAbandonmentCounted() {
		this.contextRunner.withPropertyValues("retry-after.max-attempts=2").run((context) -> {
			int status = context.getBean(RestClient.Builder.class)
				.build()
				.get()
				.uri(this.origin.uri("/report"))
				.exchange((request, response) -> response.getStatusCode().value());
			assertThat(status).isEqualTo(503);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(attempts(registry, "503", "abandoned")).isEqualTo(1.0);
			assertThat(registry.get("http.client.retry.abandoned")
				.tags("client", "default", "reason", "max-attempts")
				.counter()
				.count()).isEqualTo(1.0);
		});
	}

	@Test
	void shouldShowNamedClientsInTheEndpoint() {
		this.contextRunner
			.withPropertyValues("retry-after.clients.reports.hosts=reports.example.com",
					"retry-after.clients.reports.max-attempts=5")
			.run((context) -> {
				RetryAfterEndpoint.RetryAfterDescriptor descriptor = context.getBean(RetryAfterEndpoint.class)
					.retryAfter();
				assertThat(descriptor.clients()).containsOnlyKeys("default", "reports");
				assertThat(descriptor.clients().get("reports").hosts()).containsExactly("reports.example.com");
				assertThat(descriptor.clients().get("reports").settings().maxAttempts()).isEqualTo(5);
				assertThat(descriptor.clients().get("default").settings().maxAttempts()).isEqualTo(3);
			});
	}

	private static double attempts(MeterRegistry registry, String status, String outcome) {
		return registry.get("http.client.retry.attempts")
			.tags("client", "default", "method", "GET", "status", status, "outcome", outcome)
			.counter()
			.count();
	}

}
