package dev.retryafter.slice;

import java.io.IOException;
import java.time.Duration;

import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.webclient.test.autoconfigure.WebClientTest;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @WebClientTest} sees the retries production does: this jar's
 * {@code AutoConfigureWebClient.imports} adds the auto-configuration and the reactive adapter
 * to the slice, whose {@code WebClient.Builder} then carries the retry filter. Against a
 * loopback origin whose {@code Retry-After: 0} and a zero backoff make the wait nothing.
 */
@ExtendWith(WithoutBootLogging.class)
@WebClientTest(properties = "retry-after.backoff.initial=0ms")
class WebClientTestSliceTests {

	private static LoopbackHttpServer origin;

	@Autowired
	private WebClient.Builder webClientBuilder;

	@Autowired
	private MeterRegistry meterRegistry;

	@BeforeAll
	static void startOrigin() throws IOException {
		origin = LoopbackHttpServer.start();
	}

	@AfterAll
	static void stopOrigin() throws IOException {
		origin.close();
	}

	@Test
	void aWebClientFromTheSlicesBuilderRetriesA429() {
		origin.on("/report", Reply.status(429).header("Retry-After", "0"), Reply.status(200).body("ready"));

		String body = this.webClientBuilder.build()
			.get()
			.uri(origin.uri("/report"))
			.retrieve()
			.bodyToMono(String.class)
			.block(Duration.ofSeconds(10));

		assertThat(body).isEqualTo("ready");
		assertThat(origin.requestLines()).containsExactly("GET /report", "GET /report");
		assertThat(this.meterRegistry.get("http.client.retry.attempts")
			.tags("client", "default", "method", "GET", "status", "429", "outcome", "retried")
			.counter()
			.count()).isEqualTo(1.0);
	}

	/** What a user's slice test brings: here only a registry for the meters. */
	@SpringBootConfiguration
	static class Config {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
