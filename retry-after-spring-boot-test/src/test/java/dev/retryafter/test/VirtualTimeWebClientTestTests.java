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
import org.springframework.boot.webclient.test.autoconfigure.WebClientTest;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @WebClientTest} on virtual time, against a real origin on 127.0.0.1: the filter's
 * timer for a {@code Retry-After: 30} fires at once, and the recorder has the 30 seconds.
 */
@WebClientTest(properties = { "retry-after.jitter=0", "retry-after.total-budget=60s" })
@AutoConfigureRetryAfterVirtualTime
class VirtualTimeWebClientTestTests {

	private static LoopbackOrigin origin;

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
	void a429WithRetryAfter30IsRetriedAfter30VirtualSeconds() {
		origin.on("/report", Reply.tooManyRequests("30"), Reply.ok("ready"));
		Duration before = this.time.elapsed();

		String body = this.webClientBuilder.build()
			.get()
			.uri(origin.uri("/report"))
			.retrieve()
			.bodyToMono(String.class)
			.block(Duration.ofSeconds(10));

		assertThat(body).isEqualTo("ready");
		assertThat(origin.requestLines()).containsExactly("GET /report", "GET /report");
		assertThat(this.recorder.attempts()).extracting(Attempt::status).containsExactly(429, 200);
		assertThat(this.recorder.waits()).containsExactly(Duration.ofSeconds(30));
		assertThat(this.recorder.stopReasons()).containsExactly(StopReason.SUCCESS);
		assertThat(this.time.elapsed().minus(before)).isEqualTo(Duration.ofSeconds(30));
	}

	/** The slice's configuration: a user's would bring its own client beans. */
	@SpringBootConfiguration
	static class Config {

	}

}
