package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.time.Duration;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.metrics.RetryAfterMetricsAutoConfiguration;
import dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientPropertiesAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.service.HttpServiceClientAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.boot.webclient.autoconfigure.service.ReactiveHttpServiceClientAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.registry.HttpServiceGroup.ClientType;
import org.springframework.web.service.registry.ImportHttpServices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code retry-after.clients.<group>} with no hosts applies to the HTTP service group of that
 * name: its client, and no other, runs on the named client's settings, budget and meter tag,
 * for {@code RestClient} and {@code WebClient} groups alike. The origin answers
 * {@code 503 Retry-After: 1}, so a group's call waits one real second; exactly two requests
 * also show that the group's builder holds the retry interceptor (or filter) once, since two
 * would send four.
 */
class HttpServiceGroupsEndToEndTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterWebClientAutoConfiguration.class, RetryAfterMetricsAutoConfiguration.class,
				HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				ReactiveHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
				WebClientAutoConfiguration.class, HttpServiceClientPropertiesAutoConfiguration.class,
				HttpServiceClientAutoConfiguration.class, ReactiveHttpServiceClientAutoConfiguration.class,
				MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class))
		.withUserConfiguration(GroupsConfiguration.class)
		.withPropertyValues("retry-after.jitter=0");

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start()
			.on("/flaky", Reply.status(503).header("Retry-After", "1"))
			.on("/quick", Reply.status(503).header("Retry-After", "0"));
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	private ApplicationContextRunner withGroups(String... properties) {
		return this.contextRunner
			.withPropertyValues("spring.http.serviceclient.reports.base-url=" + this.origin.uri(""),
					"spring.http.serviceclient.feeds.base-url=" + this.origin.uri(""))
			.withPropertyValues(properties);
	}

	@Test
	void restClientGroupMakesTheAttemptsOfTheClientNamedAfterIt() {
		withGroups("retry-after.clients.reports.max-attempts=2").run((context) -> {
			assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
				.isThrownBy(() -> context.getBean(ReportService.class).flaky());
			assertThat(this.origin.requestLines()).containsExactly("GET /flaky", "GET /flaky");
			assertCountedUnder(context, "reports");
		});
	}

	@Test
	void webClientGroupMakesTheAttemptsOfTheClientNamedAfterIt() {
		withGroups("retry-after.clients.feeds.max-attempts=2").run((context) -> {
			assertThatExceptionOfType(WebClientResponseException.ServiceUnavailable.class)
				.isThrownBy(() -> context.getBean(FeedService.class).flaky().block(Duration.ofSeconds(30)));
			assertThat(this.origin.requestLines()).containsExactly("GET /flaky", "GET /flaky");
			assertCountedUnder(context, "feeds");
		});
	}

	@Test
	void groupNamedClientAppliesToItsGroupOnlyWhileItsHostsStillApplyToAnyClient() {
		withGroups("retry-after.clients.reports.max-attempts=2", "retry-after.clients.reports.hosts=other.example",
				"retry-after.max-attempts=4", "retry-after.backoff.initial=0s", "retry-after.backoff.max=0s")
			.run((context) -> {
				assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
					.isThrownBy(() -> context.getBean(ReportService.class).quick());
				assertThat(this.origin.requests()).hasSize(2);
				// The same origin through the shared builder: the host is not the client's.
				RestClient shared = context.getBean(RestClient.Builder.class).build();
				assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
					.isThrownBy(() -> shared.get().uri(this.origin.uri("/quick")).retrieve().toBodilessEntity());
				assertThat(this.origin.requests()).hasSize(2 + 4);
				// The group the client is not named after keeps the defaults.
				assertThatExceptionOfType(WebClientResponseException.ServiceUnavailable.class)
					.isThrownBy(() -> context.getBean(FeedService.class).quick().block(Duration.ofSeconds(30)));
				assertThat(this.origin.requests()).hasSize(2 + 4 + 4);
			});
	}

	@Test
	void clientWithoutHostsNamedAfterNoGroupFailsStartUp() {
		withGroups("retry-after.clients.report.max-attempts=2").run((context) -> assertThat(context).hasFailed()
			.getFailure()
			.isInstanceOf(InvalidConfigurationPropertyValueException.class)
			.hasMessage("Property retry-after.clients.report.hosts with value '[]' is invalid: a named client must "
					+ "list at least one host, or be named after an HTTP service group (there are feeds, reports)"));
	}

	private static void assertCountedUnder(AssertableApplicationContext context, String client) {
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		assertThat(registry.get("http.client.retry.attempts")
			.tags("client", client, "method", "GET", "status", "503", "outcome", "retried")
			.counter()
			.count()).isEqualTo(1.0);
		assertThat(registry.get("http.client.retry.abandoned")
			.tags("client", client, "reason", "max-attempts")
			.counter()
			.count()).isEqualTo(1.0);
		assertThat(registry.find("http.client.retry.attempts").tag("client", "default").counters()).isEmpty();
	}

	interface ReportService {

		@GetExchange("/flaky")
		String flaky();

		@GetExchange("/quick")
		String quick();

	}

	interface FeedService {

		@GetExchange("/flaky")
		Mono<String> flaky();

		@GetExchange("/quick")
		Mono<String> quick();

	}

	@Configuration(proxyBeanMethods = false)
	@ImportHttpServices(group = "reports", types = ReportService.class)
	@ImportHttpServices(group = "feeds", types = FeedService.class, clientType = ClientType.WEB_CLIENT)
	static class GroupsConfiguration {

	}

}
