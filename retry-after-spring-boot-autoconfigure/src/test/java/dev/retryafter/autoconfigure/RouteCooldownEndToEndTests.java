package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.util.List;

import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration;
import dev.retryafter.core.StopReason;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.RecordedRequest;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * One route's {@code 429} does not refuse every route of its origin: through the Boot-built
 * {@code RestClient} and {@code WebClient}, against a real origin on 127.0.0.1. Every
 * {@code Retry-After} here (30 s) is longer than the 10 s budget, so a request a cooldown
 * holds is refused without being sent: a request that reaches the origin was not held.
 */
class RouteCooldownEndToEndTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterWebClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, ReactiveHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class, WebClientAutoConfiguration.class))
		.withPropertyValues("retry-after.max-attempts=1");

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start();
		this.origin.on("/search/issues", Reply.status(429).header("Retry-After", "30"));
		this.origin.on("/items/1", Reply.status(200));
		this.origin.on("/users/1", Reply.status(200));
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	@Test
	void whenSearchIsRateLimitedThenItemsIsSentAndASecondSearchIsHeldThroughRestClient() {
		this.contextRunner.run((context) -> {
			Caller client = restClient(context);
			assertThat(client.status("/search/issues")).isEqualTo(429);

			assertThat(client.status("/items/1")).isEqualTo(200);
			assertThat(client.status("/users/1")).isEqualTo(200);
			assertRefused(client, "/search/issues");
			assertThat(paths()).containsExactly("/search/issues", "/items/1", "/users/1");
		});
	}

	@Test
	void whenSearchIsRateLimitedThenItemsIsSentAndASecondSearchIsHeldThroughWebClient() {
		this.contextRunner.run((context) -> {
			Caller client = webClient(context);
			assertThat(client.status("/search/issues")).isEqualTo(429);

			assertThat(client.status("/items/1")).isEqualTo(200);
			assertThat(client.status("/users/1")).isEqualTo(200);
			assertRefused(client, "/search/issues");
			assertThat(paths()).containsExactly("/search/issues", "/items/1", "/users/1");
		});
	}

	@Test
	void whenASecondRouteIsRateLimitedTooThenTheWholeOriginIsHeld() {
		this.origin.on("/items/1", Reply.status(429).header("Retry-After", "30"));
		this.contextRunner.run((context) -> {
			Caller client = restClient(context);
			assertThat(client.status("/search/issues")).isEqualTo(429);
			assertThat(client.status("/items/1")).isEqualTo(429);

			for (Caller caller : List.of(client, webClient(context))) {
				assertRefused(caller, "/users/1");
				assertRefused(caller, "/search/issues");
			}
			assertThat(paths()).containsExactly("/search/issues", "/items/1");
		});
	}

	@Test
	void whenTheServerNamesTheBucketThenRoutesOfTheSameBucketShareItsCooldownAndNeverWiden() {
		// GitHub's resources: /users and /repos draw on "core", /search on "search".
		Reply core = Reply.status(429).header("Retry-After", "30").header("X-RateLimit-Resource", "core");
		this.origin.on("/users/1", core);
		this.origin.on("/repos/a", core);
		this.origin.on("/search/issues", Reply.status(200).header("X-RateLimit-Resource", "search"));
		this.contextRunner.run((context) -> {
			Caller client = restClient(context);
			assertThat(client.status("/users/1")).isEqualTo(429);
			assertRefused(webClient(context), "/users/2");
			// Not yet known to be in "core": sent, and learned from its answer.
			assertThat(client.status("/repos/a")).isEqualTo(429);

			assertRefused(client, "/repos/b");
			assertRefused(webClient(context), "/repos/c");
			// Two routes refused, but the server said which limit: the origin is not held.
			assertThat(client.status("/search/issues")).isEqualTo(200);
			assertThat(paths()).containsExactly("/users/1", "/repos/a", "/search/issues");
		});
	}

	@Test
	void whenAScopeIsConfiguredThenItsPathsShareOneCooldown() {
		this.origin.on("/search/code", Reply.status(200));
		this.contextRunner.withPropertyValues("retry-after.cooldown.scopes=/").run((context) -> {
			Caller client = restClient(context);
			assertThat(client.status("/search/issues")).isEqualTo(429);

			assertRefused(client, "/items/1");
			assertRefused(client, "/search/code");
			assertThat(paths()).containsExactly("/search/issues");
		});
	}

	private void assertRefused(Caller client, String path) {
		assertThatExceptionOfType(Exception.class).isThrownBy(() -> client.status(path))
			.satisfies((ex) -> assertThat(refusal(ex)).isNotNull()
				.satisfies((refused) -> assertThat(refused.getReason()).isEqualTo(StopReason.COOLDOWN)));
	}

	private static RetryRefusedException refusal(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof RetryRefusedException refused) {
				return refused;
			}
		}
		return null;
	}

	private List<String> paths() {
		return this.origin.requests().stream().map(RecordedRequest::path).toList();
	}

	private Caller restClient(ApplicationContext context) {
		RestClient client = context.getBean(RestClient.Builder.class).build();
		return (path) -> client.get()
			.uri(this.origin.uri(path))
			.retrieve()
			.onStatus((code) -> true, (request, ignored) -> {
			})
			.toBodilessEntity()
			.getStatusCode()
			.value();
	}

	private Caller webClient(ApplicationContext context) {
		WebClient client = context.getBean(WebClient.Builder.class).build();
		return (path) -> client.get()
			.uri(this.origin.uri(path))
			.exchangeToMono((response) -> response.releaseBody().thenReturn(response.statusCode().value()))
			.block();
	}

	@FunctionalInterface
	private interface Caller {

		int status(String path);

	}

}
