package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.time.Duration;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A retried exchange gives its connection back: the response that is retried is read (or
 * abandoned) and closed before the wait, so the retry goes out on the same kept-alive
 * connection. The origin counts the connections it accepts; three attempts over one
 * connection show that none was leaked or left half-read: on the three transports Boot builds
 * for a {@code RestClient}, and on Reactor Netty for a {@code WebClient}. (The JDK connector's
 * pool cannot be bounded, so there a retry may open a second connection while the first is
 * on its way back, and the count proves nothing.) A success that announces its origin's quota
 * takes the whole call path, and gives its connection back as a pass-through would.
 */
class ConnectionReuseEndToEndTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterWebClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, ReactiveHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class, WebClientAutoConfiguration.class))
		// 503 without Retry-After starts no cooldown; the backoff is short so the test is quick.
		.withPropertyValues("retry-after.jitter=0", "retry-after.backoff.initial=20ms");

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start();
		this.origin.on("/report", Reply.status(503).body("busy, try later"), Reply.status(503).body("still busy"),
				Reply.status(200).body("ready"));
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "http-components", "jdk", "simple" })
	void aRestClientRetriesOnTheConnectionItAlreadyHas(String factory) {
		this.contextRunner.withPropertyValues("spring.http.clients.imperative.factory=" + factory).run((context) -> {
			RestClient client = context.getBean(RestClient.Builder.class).build();

			String body = client.get().uri(this.origin.uri("/report")).retrieve().body(String.class);

			assertThat(body).isEqualTo("ready");
			assertThat(this.origin.requestLines()).hasSize(3);
			assertThat(this.origin.acceptedConnections()).as("connections accepted for 3 attempts").isOne();
		});
	}

	/**
	 * Once a quota is kept, every call takes the whole call path (admission, the quota's
	 * slot, the reading of every response): its responses reach the caller as received, so
	 * the caller's read of the body returns the connection, and sequential calls share one.
	 */
	@ParameterizedTest
	@CsvSource({ "http-components,ietf", "http-components,x-ratelimit", "simple,ietf", "simple,x-ratelimit" })
	void sequentialSuccessesThatAnnounceAQuotaShareOneConnection(String factory, String fields) {
		Reply success = Reply.status(200).body("{\"status\":\"ok\"}");
		if ("ietf".equals(fields)) {
			success.header("RateLimit-Policy", "\"default\";q=1000000000;w=60")
				.header("RateLimit", "\"default\";r=1000000000;t=60");
		}
		else {
			long reset = System.currentTimeMillis() / 1000 + 60;
			success.header("X-RateLimit-Limit", "1000000000")
				.header("X-RateLimit-Remaining", "1000000000")
				.header("X-RateLimit-Reset", Long.toString(reset));
		}
		this.origin.on("/items/42", success);
		this.contextRunner.withPropertyValues("spring.http.clients.imperative.factory=" + factory).run((context) -> {
			RestClient client = context.getBean(RestClient.Builder.class).build();

			for (int i = 0; i < 20; i++) {
				assertThat(client.get().uri(this.origin.uri("/items/42")).retrieve().body(String.class))
					.isEqualTo("{\"status\":\"ok\"}");
			}

			assertThat(context.getBean(CooldownStore.class).protection().quotas().isEmpty()).as("quota kept").isFalse();
			assertThat(this.origin.requestLines()).hasSize(20);
			assertThat(this.origin.acceptedConnections()).as("connections accepted for 20 calls").isOne();
		});
	}

	/**
	 * Reactor Netty gives a connection back to its pool asynchronously, so a retry may find it
	 * not yet back and open another: with a pool of one connection, the retry can only go out
	 * once the retried response has really released its connection (a leak would leave the
	 * retry waiting for the pool until it times out).
	 */
	@Test
	void aWebClientRetriesOnTheOneConnectionItsPoolAllows() {
		this.contextRunner.withPropertyValues("spring.http.clients.reactive.connector=reactor")
			.withBean(ClientHttpConnector.class, () -> new ReactorClientHttpConnector(HttpClient.create(ConnectionProvider
				.builder("one-connection")
				.maxConnections(1)
				.pendingAcquireTimeout(Duration.ofSeconds(20))
				.build())))
			.run((context) -> {
				WebClient client = context.getBean(WebClient.Builder.class).build();

				String body = client.get()
					.uri(this.origin.uri("/report"))
					.retrieve()
					.bodyToMono(String.class)
					.block(Duration.ofSeconds(30));

				assertThat(body).isEqualTo("ready");
				assertThat(this.origin.requestLines()).hasSize(3);
				assertThat(this.origin.acceptedConnections()).as("connections accepted for 3 attempts").isOne();
			});
	}

}
