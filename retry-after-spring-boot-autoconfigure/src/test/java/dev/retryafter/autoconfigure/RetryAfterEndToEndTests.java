package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientPropertiesAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.service.HttpServiceClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.web.client.RestClient;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.registry.ImportHttpServices;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The clients a user gets from Spring Boot's own auto-configuration retry against a real
 * loopback origin. Local backoff is set to zero so that a {@code Retry-After: 0} costs no
 * real waiting: these tests count requests, the unit tests measure waits.
 */
class RetryAfterEndToEndTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
				RestTemplateAutoConfiguration.class, HttpServiceClientPropertiesAutoConfiguration.class,
				HttpServiceClientAutoConfiguration.class))
		.withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s");

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start()
			.on("/report", Reply.status(429).header("Retry-After", "0"), Reply.status(200).body("ready"))
			.on("/flaky", Reply.status(503).header("Retry-After", "0"));
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	@Test
	void bootBuiltRestClientShouldRetryA429Once() {
		this.contextRunner.run((context) -> {
			String body = context.getBean(RestClient.Builder.class)
				.build()
				.get()
				.uri(this.origin.uri("/report"))
				.retrieve()
				.body(String.class);
			assertThat(body).isEqualTo("ready");
			assertThat(this.origin.requestLines()).containsExactly("GET /report", "GET /report");
		});
	}

	@Test
	void bootBuiltRestTemplateShouldRetryA429Once() {
		this.contextRunner.run((context) -> {
			String body = context.getBean(RestTemplateBuilder.class)
				.build()
				.getForObject(this.origin.uri("/report"), String.class);
			assertThat(body).isEqualTo("ready");
			assertThat(this.origin.requestLines()).containsExactly("GET /report", "GET /report");
		});
	}

	@Test
	void httpServiceClientShouldRetryA429Once() {
		this.contextRunner.withUserConfiguration(ReportServiceConfiguration.class)
			.withPropertyValues("spring.http.serviceclient.reports.base-url=" + this.origin.uri(""))
			.run((context) -> {
				assertThat(context.getBean(ReportService.class).report()).isEqualTo("ready");
				assertThat(this.origin.requestLines()).containsExactly("GET /report", "GET /report");
			});
	}

	@Test
	void onHttpClient5OriginShouldSeeExactlyMaxAttemptsRequests() {
		this.contextRunner.withPropertyValues("retry-after.max-attempts=3")
			.run((context) -> assertSeesMaxAttempts(context.getBean(RestClient.Builder.class).build()));
	}

	@Test
	void onJdkHttpClientOriginShouldSeeExactlyMaxAttemptsRequests() {
		this.contextRunner.withPropertyValues("retry-after.max-attempts=3", "spring.http.clients.imperative.factory=jdk")
			.run((context) -> assertSeesMaxAttempts(context.getBean(RestClient.Builder.class).build()));
	}

	@Test
	void everyRetryListenerBeanShouldHearEachAttemptInOrder() {
		this.contextRunner.withUserConfiguration(ListenersConfiguration.class).run((context) -> {
			context.getBean(RestClient.Builder.class)
				.build()
				.get()
				.uri(this.origin.uri("/report"))
				.retrieve()
				.body(String.class);
			assertThat(context.getBean(ListenersConfiguration.class).heard).containsExactly("first:1:429",
					"second:1:429", "first:2:200", "second:2:200");
		});
	}

	private void assertSeesMaxAttempts(RestClient client) {
		int status = client.get()
			.uri(this.origin.uri("/flaky"))
			.exchange((request, response) -> response.getStatusCode().value());
		assertThat(status).isEqualTo(503);
		assertThat(this.origin.requests().size()).isEqualTo(3);
	}

	interface ReportService {

		@GetExchange("/report")
		String report();

	}

	@Configuration(proxyBeanMethods = false)
	@ImportHttpServices(group = "reports", types = ReportService.class)
	static class ReportServiceConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	static class ListenersConfiguration {

		final List<String> heard = new ArrayList<>();

		@Bean
		@Order(2)
		RetryListener secondListener() {
			return recording("second");
		}

		@Bean
		@Order(1)
		RetryListener firstListener() {
			return recording("first");
		}

		private RetryListener recording(String name) {
			return new RetryListener() {

				@Override
				public void attemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
						RetryDecision decision) {
					int status = (outcome instanceof AttemptOutcome.Response response) ? response.status() : -1;
					ListenersConfiguration.this.heard.add(name + ":" + attempt + ":" + status);
				}

			};
		}

	}

}
