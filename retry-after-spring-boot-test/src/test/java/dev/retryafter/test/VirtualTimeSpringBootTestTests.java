package dev.retryafter.test;

import java.time.Duration;

import dev.retryafter.core.StopReason;
import dev.retryafter.test.LoopbackOrigin.Reply;
import dev.retryafter.test.RetryRecorder.Attempt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @SpringBootTest} on virtual time against a real origin on 127.0.0.1: a
 * {@code RestClient} and a {@code WebClient} built by Boot honour a {@code Retry-After: 30}
 * at once, the first through the sleeper, the second through the timers of the filter's
 * scheduler. Each test calls a path of its own: the cooldowns of the shared context are kept
 * per origin, and the origin is the same.
 */
@SpringBootTest(properties = { "retry-after.jitter=0", "retry-after.total-budget=60s" })
@AutoConfigureRetryAfterVirtualTime
class VirtualTimeSpringBootTestTests {

	private static LoopbackOrigin origin;

	@Autowired
	private RestClient.Builder restClientBuilder;

	@Autowired
	private WebClient.Builder webClientBuilder;

	@Autowired
	private RetryRecorder recorder;

	@Autowired
	private VirtualRetryTime time;

	@BeforeAll
	static void startOrigin() throws Exception {
		origin = LoopbackOrigin.start();
	}

	@AfterAll
	static void stopOrigin() {
		origin.close();
	}

	@Test
	void aRestClientWaitsOutRetryAfter30InNoTime() {
		origin.on("/blocking", Reply.tooManyRequests("30"), Reply.ok("ready"));
		Duration before = this.time.elapsed();

		String body = this.restClientBuilder.build().get().uri(origin.uri("/blocking")).retrieve().body(String.class);

		assertThat(body).isEqualTo("ready");
		assertThat(origin.requestLines()).containsSubsequence("GET /blocking", "GET /blocking");
		assertThat(this.recorder.attempts()).extracting(Attempt::status).containsExactly(429, 200);
		assertThat(this.recorder.waits()).containsExactly(Duration.ofSeconds(30));
		assertThat(this.recorder.stopReasons()).containsExactly(StopReason.SUCCESS);
		assertThat(this.time.elapsed().minus(before)).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void aWebClientWaitsOutRetryAfter30InNoTime() {
		origin.on("/reactive", Reply.tooManyRequests("30"), Reply.ok("ready"));
		Duration before = this.time.elapsed();

		String body = this.webClientBuilder.build()
			.get()
			.uri(origin.uri("/reactive"))
			.retrieve()
			.bodyToMono(String.class)
			.block(Duration.ofSeconds(10));

		assertThat(body).isEqualTo("ready");
		assertThat(this.recorder.attempts()).extracting(Attempt::status).containsExactly(429, 200);
		assertThat(this.recorder.waits()).containsExactly(Duration.ofSeconds(30));
		assertThat(this.recorder.stopReasons()).containsExactly(StopReason.SUCCESS);
		assertThat(this.time.elapsed().minus(before)).isEqualTo(Duration.ofSeconds(30));
	}

	/** The application under test: here nothing but Boot's auto-configuration. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

	}

}
