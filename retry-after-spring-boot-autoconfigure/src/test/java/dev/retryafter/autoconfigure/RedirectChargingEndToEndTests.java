package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.time.Duration;

import dev.retryafter.call.RetryRefusedException;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
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

/**
 * A response the transport received after following a redirect to another origin is charged
 * to the origin that sent it: 127.0.0.1:A redirects {@code /api} to 127.0.0.1:B (a CDN, say),
 * whose {@code 429} must cool B down, never A. Through the Boot-built clients, which follow
 * redirects by default, on the transports that report their hops.
 */
class RedirectChargingEndToEndTests {

	private static final int REFUSED = -1;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
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
		this.first.on("/api", Reply.status(302).header("Location", this.cdn.uri("/cdn").toString()));
		this.first.on("/health", Reply.status(200));
		this.cdn.on("/cdn", Reply.status(429).header("Retry-After", "30"));
	}

	@AfterEach
	void stopOrigins() throws IOException {
		this.first.close();
		this.cdn.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "rest-client", "rest-template", "web-client" })
	void whenARedirectLedToAnotherOriginThenItsTooManyRequestsCoolsThatOriginDown(String client) {
		this.contextRunner.run((context) -> {
			Caller caller = caller(client, context);
			assertThat(caller.status(this.first.uri("/api").toString())).isEqualTo(429);
			assertThat(this.cdn.requests()).hasSize(1);
			// The first origin never asked for a pause: it is not held back.
			assertThat(caller.status(this.first.uri("/health").toString())).isEqualTo(200);
			// The origin that answered 429 with Retry-After: 30 is.
			assertThat(caller.status(this.cdn.uri("/cdn").toString())).isEqualTo(REFUSED);
			assertThat(this.cdn.requests()).hasSize(1);
		});
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
