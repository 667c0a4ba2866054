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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Millisecond hints, server verdicts and rate-limited 403s, end to end: a Boot-built
 * {@code RestClient} and {@code WebClient} against a real loopback origin. Jitter is off;
 * waits are asserted from below only.
 */
class RetryHintsEndToEndTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterWebClientAutoConfiguration.class, RetryAfterMetricsAutoConfiguration.class,
				HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				ReactiveHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
				WebClientAutoConfiguration.class, MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
		.withPropertyValues("retry-after.jitter=0");

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start();
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	/** Sends one call with the named client and returns the final status it saw. */
	private int call(AssertableApplicationContext context, String client, HttpMethod method) {
		if (client.equals("restclient")) {
			return context.getBean(RestClient.Builder.class)
				.build()
				.method(method)
				.uri(this.origin.uri("/hint"))
				.exchange((request, response) -> response.getStatusCode().value());
		}
		Integer status = context.getBean(WebClient.Builder.class)
			.build()
			.method(method)
			.uri(this.origin.uri("/hint"))
			.exchangeToMono((response) -> response.releaseBody().then(Mono.just(response.statusCode().value())))
			.block(Duration.ofSeconds(15));
		return (status != null) ? status : -1;
	}

	private static double attempts(AssertableApplicationContext context, String status, String outcome) {
		return context.getBean(MeterRegistry.class)
			.get("http.client.retry.attempts")
			.tags("status", status, "outcome", outcome)
			.counter()
			.count();
	}

	@ParameterizedTest
	@ValueSource(strings = { "restclient", "webclient" })
	void whenA429SendsRetryAfterMs1500ThenTheRetryIsNoEarlierThan1500Ms(String client) {
		this.origin.on("/hint", Reply.status(429).header("retry-after-ms", "1500"), Reply.status(200));
		this.contextRunner.run((context) -> {
			assertThat(call(context, client, HttpMethod.GET)).isEqualTo(200);
			long gap = this.origin.receivedNanos().get(1) - this.origin.answeredNanos().get(0);
			assertThat(Duration.ofNanos(gap)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
			assertThat(context.getBean(MeterRegistry.class)
				.get("http.client.retry.delay.planned")
				.tags("source", "retry-after-ms")
				.timer()
				.count()).isEqualTo(1);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "restclient", "webclient" })
	void whenA503SendsXMsRetryAfterMs1500ThenTheRetryIsNoEarlierThan1500Ms(String client) {
		this.origin.on("/hint", Reply.status(503).header("x-ms-retry-after-ms", "1500"), Reply.status(200));
		this.contextRunner.run((context) -> {
			assertThat(call(context, client, HttpMethod.GET)).isEqualTo(200);
			long gap = this.origin.receivedNanos().get(1) - this.origin.answeredNanos().get(0);
			assertThat(Duration.ofNanos(gap)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "restclient", "webclient" })
	void whenA503SaysXShouldRetryFalseThenItIsNotRetried(String client) {
		this.origin.on("/hint", Reply.status(503).header("Retry-After", "1").header("X-Should-Retry", "false"),
				Reply.status(200));
		this.contextRunner.run((context) -> {
			assertThat(call(context, client, HttpMethod.GET)).isEqualTo(503);
			assertThat(this.origin.requestLines()).containsExactly("GET /hint");
			assertThat(context.getBean(MeterRegistry.class)
				.get("http.client.retry.abandoned")
				.tags("reason", "server-said-no-retry")
				.counter()
				.count()).isEqualTo(1.0);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "restclient", "webclient" })
	void whenA409OnAGetSaysStripeShouldRetryTrueThenItIsRetried(String client) {
		this.origin.on("/hint", Reply.status(409).header("Stripe-Should-Retry", "true"), Reply.status(200));
		this.contextRunner.run((context) -> {
			assertThat(call(context, client, HttpMethod.GET)).isEqualTo(200);
			assertThat(this.origin.requestLines()).containsExactly("GET /hint", "GET /hint");
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "restclient", "webclient" })
	void whenAPostWithoutIdempotencyKeyHearsXShouldRetryTrueThenItIsNotRetried(String client) {
		this.origin.on("/hint", Reply.status(503).header("X-Should-Retry", "true"), Reply.status(200));
		this.contextRunner.run((context) -> {
			assertThat(call(context, client, HttpMethod.POST)).isEqualTo(503);
			assertThat(this.origin.requestLines()).containsExactly("POST /hint");
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "restclient", "webclient" })
	void whenA403SendsRetryAfterOneThenItIsRetriedCountedAs403AndSucceeds(String client) {
		this.origin.on("/hint", Reply.status(403).header("Retry-After", "1"), Reply.status(200));
		this.contextRunner.run((context) -> {
			assertThat(call(context, client, HttpMethod.GET)).isEqualTo(200);
			assertThat(this.origin.requestLines()).containsExactly("GET /hint", "GET /hint");
			long gap = this.origin.receivedNanos().get(1) - this.origin.answeredNanos().get(0);
			assertThat(Duration.ofNanos(gap)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
			assertThat(attempts(context, "403", "retried")).isEqualTo(1.0);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "restclient", "webclient" })
	void whenA403SaysTheQuotaIsSpentThenTheRetryWaitsForTheReset(String client) {
		// GitHub's spent primary quota: no Retry-After, only the fields; the reset is two to
		// three seconds away, far beyond the first back-off, so a retry before it would be early.
		long reset = System.currentTimeMillis() / 1000 + 3;
		this.origin.on("/hint",
				Reply.status(403)
					.header("x-ratelimit-limit", "60")
					.header("x-ratelimit-remaining", "0")
					.header("x-ratelimit-used", "60")
					.header("x-ratelimit-reset", Long.toString(reset))
					.header("x-ratelimit-resource", "core"),
				Reply.status(200));
		this.contextRunner.withPropertyValues("retry-after.total-budget=30s").run((context) -> {
			assertThat(call(context, client, HttpMethod.GET)).isEqualTo(200);
			assertThat(this.origin.requestLines()).containsExactly("GET /hint", "GET /hint");
			long gap = this.origin.receivedNanos().get(1) - this.origin.answeredNanos().get(0);
			assertThat(Duration.ofNanos(gap)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "restclient", "webclient" })
	void whenAnOverloaded529AsksForASecondThenAGetIsRetriedNoEarlier(String client) {
		// Anthropic's overloaded answer, as its error body and its lower-case header come.
		this.origin.on("/hint",
				Reply.status(529)
					.header("retry-after", "1")
					.body("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"),
				Reply.status(200));
		this.contextRunner.run((context) -> {
			assertThat(call(context, client, HttpMethod.GET)).isEqualTo(200);
			assertThat(this.origin.requestLines()).containsExactly("GET /hint", "GET /hint");
			long gap = this.origin.receivedNanos().get(1) - this.origin.answeredNanos().get(0);
			assertThat(Duration.ofNanos(gap)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
			assertThat(attempts(context, "529", "retried")).isEqualTo(1.0);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "restclient", "webclient" })
	void whenAnOverloaded529AnswersAPostWithoutIdempotencyKeyThenItIsNotRetried(String client) {
		this.origin.on("/hint", Reply.status(529).header("retry-after", "1"), Reply.status(200));
		this.contextRunner.run((context) -> {
			assertThat(call(context, client, HttpMethod.POST)).isEqualTo(529);
			assertThat(this.origin.requestLines()).containsExactly("POST /hint");
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "restclient", "webclient" })
	void whenAPlain403ThenItIsNeverRetried(String client) {
		this.origin.on("/hint", Reply.status(403), Reply.status(200));
		this.contextRunner.run((context) -> {
			assertThat(call(context, client, HttpMethod.GET)).isEqualTo(403);
			assertThat(this.origin.requestLines()).containsExactly("GET /hint");
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "restclient", "webclient" })
	void whenTheRateLimitedForbiddenRuleIsOffThenA403WithRetryAfterIsNotRetried(String client) {
		this.origin.on("/hint", Reply.status(403).header("Retry-After", "1"), Reply.status(200));
		this.contextRunner.withPropertyValues("retry-after.header.rate-limited-forbidden=false").run((context) -> {
			assertThat(call(context, client, HttpMethod.GET)).isEqualTo(403);
			assertThat(this.origin.requestLines()).containsExactly("GET /hint");
		});
	}

}
