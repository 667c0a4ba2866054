package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.metrics.RetryAfterMetricsAutoConfiguration;
import dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration;
import dev.retryafter.core.StopReason;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.RecordedRequest;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

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
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.support.WebClientAdapter;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.invoker.HttpServiceProxyFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A Boot-built {@code WebClient} against a real loopback origin, on the Reactor Netty and the
 * JDK connectors: the same retries, cooldowns and meters as the blocking clients. Jitter is
 * off so that planned waits are exact; only the tests about waiting wait for real.
 */
class WebClientEndToEndTests {

	private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter
		.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
		.withZone(ZoneOffset.UTC);

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

	private ApplicationContextRunner on(String connector) {
		return this.contextRunner.withPropertyValues("spring.http.clients.reactive.connector=" + connector);
	}

	private static WebClient webClient(AssertableApplicationContext context) {
		return context.getBean(WebClient.Builder.class).build();
	}

	@ParameterizedTest
	@ValueSource(strings = { "reactor", "jdk" })
	void whenA429AsksForOneSecondThenTheRetryHonoursItAndTheMetersCountEachAttempt(String connector) {
		this.origin.on("/report", Reply.status(429).header("Retry-After", "1"), Reply.status(200).body("ready"));
		on(connector).run((context) -> {
			assertThat(context.getBean(ClientHttpConnector.class))
				.isInstanceOf(
						connector.equals("jdk") ? JdkClientHttpConnector.class : ReactorClientHttpConnector.class);
			long start = System.nanoTime();
			String body = webClient(context).get()
				.uri(this.origin.uri("/report"))
				.retrieve()
				.bodyToMono(String.class)
				.block(Duration.ofSeconds(10));
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			assertThat(body).isEqualTo("ready");
			assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
			assertThat(this.origin.requestLines()).containsExactly("GET /report", "GET /report");
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get("http.client.retry.attempts")
				.tags("client", "default", "method", "GET", "status", "429", "outcome", "retried")
				.counter()
				.count()).isEqualTo(1.0);
			assertThat(registry.get("http.client.retry.attempts")
				.tags("client", "default", "method", "GET", "status", "200", "outcome", "success")
				.counter()
				.count()).isEqualTo(1.0);
			assertThat(registry.find("http.client.retry.attempts").counters()).hasSize(2);
			assertThat(registry.get("http.client.retry.delay.planned")
				.tags("client", "default", "source", "retry-after-seconds")
				.timer()
				.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(1000.0);
			assertThat(registry.get("http.client.retry.delay.actual").tags("client", "default").timer().count())
				.isEqualTo(1);
			assertThat(registry.find("http.client.retry.abandoned").counters()).isEmpty();
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "reactor", "jdk" })
	void whenA429AsksForADateThenTheRetryWaitsUntilItByTheServersClock(String connector) {
		Instant serverNow = Instant.parse("2026-03-01T09:00:00Z");
		this.origin.on("/report",
				Reply.status(429)
					.header("Date", HTTP_DATE.format(serverNow))
					.header("Retry-After", HTTP_DATE.format(serverNow.plusSeconds(1))),
				Reply.status(200).body("ready"));
		on(connector).run((context) -> {
			String body = webClient(context).get()
				.uri(this.origin.uri("/report"))
				.retrieve()
				.bodyToMono(String.class)
				.block(Duration.ofSeconds(10));
			assertThat(body).isEqualTo("ready");
			assertThat(this.origin.requestLines()).containsExactly("GET /report", "GET /report");
			assertThat(context.getBean(MeterRegistry.class)
				.get("http.client.retry.delay.planned")
				.tags("client", "default", "source", "retry-after-date")
				.timer()
				.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(1000.0);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "reactor", "jdk" })
	void whenAPostWithoutAKeyMeetsA503ThenItIsSentOnceAndTheCallerGetsThe503(String connector) {
		this.origin.on("/orders", Reply.status(503).header("Retry-After", "0").body("busy"));
		on(connector).run((context) -> {
			String answer = webClient(context).post()
				.uri(this.origin.uri("/orders"))
				.bodyValue("order")
				.exchangeToMono((response) -> response.bodyToMono(String.class)
					.map((text) -> response.statusCode().value() + " " + text))
				.block(Duration.ofSeconds(10));
			assertThat(answer).isEqualTo("503 busy");
			assertThat(this.origin.requestLines()).containsExactly("POST /orders");
			assertThat(context.getBean(MeterRegistry.class)
				.get("http.client.retry.abandoned")
				.tags("client", "default", "reason", "non-idempotent")
				.counter()
				.count()).isEqualTo(1.0);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "reactor", "jdk" })
	void whenAPostWithAKeyMeetsA503ThenItIsRetriedWithTheSameBodyAndKey(String connector) {
		this.origin.on("/orders", Reply.status(503).header("Retry-After", "0"), Reply.status(201).body("created"));
		on(connector).withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s")
			.run((context) -> {
				String body = webClient(context).post()
					.uri(this.origin.uri("/orders"))
					.header("Idempotency-Key", "order-42")
					.header("Content-Type", "application/json")
					.bodyValue("{\"item\":\"book\",\"quantity\":2}")
					.retrieve()
					.bodyToMono(String.class)
					.block(Duration.ofSeconds(10));
				assertThat(body).isEqualTo("created");
				assertThat(this.origin.requests()).hasSize(2);
				for (RecordedRequest request : this.origin.requests()) {
					assertThat(request.method()).isEqualTo("POST");
					assertThat(request.bodyText()).isEqualTo("{\"item\":\"book\",\"quantity\":2}");
					assertThat(request.header("Idempotency-Key")).isEqualTo("order-42");
					assertThat(request.header("Content-Type")).isEqualTo("application/json");
				}
			});
	}

	@ParameterizedTest
	@ValueSource(strings = { "reactor", "jdk" })
	void whenTheSubscriberCancelsDuringTheWaitThenNothingMoreIsSentAndTheMeterSaysCancelled(String connector) {
		this.origin.on("/report", Reply.status(429).header("Retry-After", "1"), Reply.status(200).body("ready"));
		on(connector).run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			Disposable call = webClient(context).get()
				.uri(this.origin.uri("/report"))
				.retrieve()
				.bodyToMono(String.class)
				.subscribe();
			await().atMost(Duration.ofSeconds(5))
				.until(() -> registry.find("http.client.retry.attempts").tag("outcome", "retried").counter() != null);
			call.dispose();
			// The attempt counter is written while the decision is made; the wait begins a few
			// statements later on the connector's thread, which reports the cancellation when it
			// finds the subscriber gone.
			await().atMost(Duration.ofSeconds(5))
				.until(() -> registry.find("http.client.retry.abandoned")
					.tags("client", "default", "reason", "cancelled")
					.counter() != null);
			assertThat(registry.get("http.client.retry.abandoned")
				.tags("client", "default", "reason", "cancelled")
				.counter()
				.count()).isEqualTo(1.0);
			// The retry was planned for one second after the 429: nothing may come then.
			await().during(Duration.ofMillis(1500))
				.atMost(Duration.ofSeconds(3))
				.until(() -> this.origin.requests().size() == 1);
			assertThat(registry.find("http.client.retry.delay.actual").timers()).isEmpty();
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "reactor", "jdk" })
	void whenAWebClientMeetsA429ThenARestClientToTheSameOriginHonoursTheCooldown(String connector) {
		// Another path of the same route: a route's cooldown holds it, whichever client asks.
		this.origin.on("/limited", Reply.status(429).header("Retry-After", "30"))
			.on("/limited/report", Reply.status(200).body("ready"));
		on(connector).withPropertyValues("retry-after.max-attempts=1", "retry-after.cooldown.mode=fail-fast")
			.run((context) -> {
				int status = webClient(context).get()
					.uri(this.origin.uri("/limited"))
					.exchangeToMono((response) -> Mono.just(response.statusCode().value()))
					.block(Duration.ofSeconds(10));
				assertThat(status).isEqualTo(429);
				RestClient restClient = context.getBean(RestClient.Builder.class).build();
				assertThatExceptionOfType(ResourceAccessException.class)
					.isThrownBy(() -> restClient.get()
						.uri(this.origin.uri("/limited/report"))
						.retrieve()
						.body(String.class))
					.havingCause()
					.isInstanceOfSatisfying(RetryRefusedException.class, (refused) -> {
						assertThat(refused.getReason()).isEqualTo(StopReason.COOLDOWN);
						assertThat(refused.getOrigin()).isEqualTo("http://127.0.0.1:" + this.origin.port());
					});
				assertThat(this.origin.requestLines()).containsExactly("GET /limited");
			});
	}

	@ParameterizedTest
	@ValueSource(strings = { "reactor", "jdk" })
	void whenARestClientMeetsA429ThenAWebClientToTheSameOriginHonoursTheCooldown(String connector) {
		// Another path of the same route: a route's cooldown holds it, whichever client asks.
		this.origin.on("/limited", Reply.status(429).header("Retry-After", "30"))
			.on("/limited/report", Reply.status(200).body("ready"));
		on(connector).withPropertyValues("retry-after.max-attempts=1", "retry-after.cooldown.mode=fail-fast")
			.run((context) -> {
				int status = context.getBean(RestClient.Builder.class)
					.build()
					.get()
					.uri(this.origin.uri("/limited"))
					.exchange((request, response) -> response.getStatusCode().value());
				assertThat(status).isEqualTo(429);
				Mono<String> call = webClient(context).get()
					.uri(this.origin.uri("/limited/report"))
					.retrieve()
					.bodyToMono(String.class);
				StepVerifier.create(call)
					.expectErrorSatisfies((error) -> assertThat(error).isInstanceOfSatisfying(
							RetryRefusedException.class,
							(refused) -> assertThat(refused.getReason()).isEqualTo(StopReason.COOLDOWN)))
					.verify(Duration.ofSeconds(10));
				assertThat(this.origin.requestLines()).containsExactly("GET /limited");
				assertThat(context.getBean(MeterRegistry.class)
					.get("http.client.retry.abandoned")
					.tags("client", "default", "reason", "cooldown")
					.counter()
					.count()).isEqualTo(1.0);
			});
	}

	@ParameterizedTest
	@ValueSource(strings = { "reactor", "jdk" })
	void whenAnHttpInterfaceClientIsBackedByABootBuiltWebClientThenItRetries(String connector) {
		this.origin.on("/report", Reply.status(429).header("Retry-After", "0"), Reply.status(200).body("ready"));
		on(connector).withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s")
			.run((context) -> {
				WebClient webClient = context.getBean(WebClient.Builder.class)
					.baseUrl(this.origin.uri("").toString())
					.build();
				ReportApi api = HttpServiceProxyFactory.builderFor(WebClientAdapter.create(webClient))
					.build()
					.createClient(ReportApi.class);
				assertThat(api.report().block(Duration.ofSeconds(10))).isEqualTo("ready");
				assertThat(this.origin.requestLines()).containsExactly("GET /report", "GET /report");
			});
	}

	interface ReportApi {

		@GetExchange("/report")
		Mono<String> report();

	}

}
