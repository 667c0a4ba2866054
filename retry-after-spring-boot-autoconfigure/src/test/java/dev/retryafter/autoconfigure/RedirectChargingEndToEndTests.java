package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.stream.Stream;

import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.NoOpResponseErrorHandler;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A response the transport received after following a redirect to another origin is charged
 * to the origin that sent it: 127.0.0.1:A redirects {@code /api} to 127.0.0.1:B (a CDN, say),
 * whose {@code 429} must cool B down, never A; a redirect that stays on A leaves the charge
 * on A. Through the Boot-built clients, which follow redirects by default, on every
 * transport Spring Boot builds for them here.
 */
class RedirectChargingEndToEndTests {

	private static final int REFUSED = -1;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterWebClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, ReactiveHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class, RestTemplateAutoConfiguration.class,
				WebClientAutoConfiguration.class))
		.withPropertyValues("retry-after.max-attempts=1");

	private LoopbackHttpServer first;

	private LoopbackHttpServer cdn;

	@BeforeEach
	void startOrigins() throws IOException {
		this.first = LoopbackHttpServer.start();
		this.cdn = LoopbackHttpServer.start();
		// A redirect once, then the answer itself: a second call shows whether /api was charged.
		this.first.on("/api", Reply.status(302).header("Location", this.cdn.uri("/cdn").toString()), Reply.status(200));
		this.first.on("/other", Reply.status(200));
		this.first.on("/moved", Reply.status(302).header("Location", this.first.uri("/limited").toString()));
		this.first.on("/limited", Reply.status(429).header("Retry-After", "30"));
		this.cdn.on("/cdn", Reply.status(429).header("Retry-After", "30"));
	}

	@AfterEach
	void stopOrigins() throws IOException {
		this.first.close();
		this.cdn.close();
	}

	/**
	 * Each client over each transport Spring Boot can build for it here: Apache HttpClient 5
	 * and Reactor Netty report every hop, the JDK client, {@code HttpURLConnection} and
	 * Jetty the last one.
	 */
	static Stream<Arguments> clientsAndTransports() {
		return Stream.of(Arguments.of("rest-client", "http-components"), Arguments.of("rest-client", "jdk"),
				Arguments.of("rest-client", "simple"), Arguments.of("rest-client", "jetty"),
				Arguments.of("rest-template", "http-components"), Arguments.of("rest-template", "jdk"),
				Arguments.of("rest-template", "simple"), Arguments.of("rest-template", "jetty"),
				Arguments.of("web-client", "reactor"), Arguments.of("web-client", "jdk"),
				Arguments.of("web-client", "jetty"));
	}

	@ParameterizedTest(name = "{0} over {1}")
	@MethodSource("clientsAndTransports")
	void whenARedirectLedToAnotherOriginThenItsTooManyRequestsCoolsThatOriginDown(String client, String transport) {
		transport(client, transport).run((context) -> {
			Caller caller = caller(client, context);
			assertThat(caller.status(this.first.uri("/api").toString())).isEqualTo(429);
			assertThat(this.cdn.requests()).hasSize(1);
			// The first origin never asked for a pause: neither the route that redirected nor
			// another one is held back.
			assertThat(caller.status(this.first.uri("/api").toString())).isEqualTo(200);
			assertThat(caller.status(this.first.uri("/other").toString())).isEqualTo(200);
			// The origin that answered 429 with Retry-After: 30 is.
			assertThat(caller.status(this.cdn.uri("/cdn").toString())).isEqualTo(REFUSED);
			assertThat(this.cdn.requests()).hasSize(1);
		});
	}

	@ParameterizedTest(name = "{0} over {1}")
	@MethodSource("clientsAndTransports")
	void whenARedirectStayedOnTheOriginThenItsTooManyRequestsCoolsThatOriginDown(String client, String transport) {
		transport(client, transport).run((context) -> {
			Caller caller = caller(client, context);
			assertThat(caller.status(this.first.uri("/moved").toString())).isEqualTo(429);
			assertThat(this.first.requests()).hasSize(2);
			assertThat(caller.status(this.first.uri("/moved").toString())).isEqualTo(REFUSED);
			assertThat(this.first.requests()).hasSize(2);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "rest-client", "web-client" })
	void whenTheJdkTransportIsRebuiltToTellItsHopsThenItKeepsTheReadTimeoutSpringBootGaveIt(String client) {
		this.first.on("/hang", Reply.neverAnswer());
		transport(client, "jdk").withPropertyValues("spring.http.clients.read-timeout=500ms").run((context) -> {
			Caller caller = caller(client, context);
			// Without its read timeout the call would never end: fail instead of hanging.
			assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThatException()
				.isThrownBy(() -> caller.status(this.first.uri("/hang").toString()))
				.satisfies((failure) -> assertThat(failure).hasStackTraceContaining("imeout")));
		});
	}

	private ApplicationContextRunner transport(String client, String transport) {
		String property = client.equals("web-client") ? "spring.http.clients.reactive.connector="
				: "spring.http.clients.imperative.factory=";
		return this.contextRunner.withPropertyValues(property + transport);
	}

	private static Caller caller(String client, ApplicationContext context) {
		return switch (client) {
			case "rest-client" -> {
				RestClient restClient = context.getBean(RestClient.Builder.class).build();
				yield (uri) -> refusedOr(() -> restClient.get().uri(uri).retrieve().onStatus((status) -> true, (req, res) -> {
				}).toBodilessEntity().getStatusCode().value());
			}
			case "rest-template" -> {
				RestTemplate restTemplate = context.getBean(RestTemplateBuilder.class)
					.errorHandler(new NoOpResponseErrorHandler())
					.build();
				yield (uri) -> refusedOr(() -> restTemplate.getForEntity(uri, Void.class).getStatusCode().value());
			}
			default -> {
				WebClient webClient = context.getBean(WebClient.Builder.class).build();
				yield (uri) -> webClient.get()
					.uri(uri)
					.exchangeToMono((response) -> response.releaseBody().thenReturn(response.statusCode().value()))
					.onErrorResume(RetryRefusedException.class, (refused) -> Mono.just(REFUSED))
					.block(Duration.ofSeconds(30));
			}
		};
	}

	private static int refusedOr(java.util.function.IntSupplier call) {
		try {
			return call.getAsInt();
		}
		catch (ResourceAccessException ex) {
			if (ex.getCause() instanceof RetryRefusedException) {
				return REFUSED;
			}
			throw ex;
		}
	}

	@FunctionalInterface
	private interface Caller {

		int status(String uri);

	}

}
