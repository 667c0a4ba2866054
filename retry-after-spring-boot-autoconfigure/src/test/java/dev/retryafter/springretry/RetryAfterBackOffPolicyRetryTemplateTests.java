package dev.retryafter.springretry;

import java.io.IOException;

import dev.retryafter.core.RetrySettings;
import dev.retryafter.springretry.RetryAfterBackOffPolicyTests.RecordingSleeper;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.retry.policy.SimpleRetryPolicy;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RetryAfterBackOffPolicy} inside a spring-retry {@link RetryTemplate} calling a real
 * loopback origin.
 */
class RetryAfterBackOffPolicyRetryTemplateTests {

	private LoopbackHttpServer origin;

	private final FakeClock clock = new FakeClock();

	private final RecordingSleeper sleeper = new RecordingSleeper(this.clock);

	/**
	 * The JDK client does not retry by itself, so every attempt the template makes reaches the
	 * origin exactly once.
	 */
	private final RestClient client = RestClient.builder().requestFactory(new JdkClientHttpRequestFactory()).build();

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start()
			.on("/report", Reply.status(429).header("Retry-After", "2"), Reply.status(200).body("ready"));
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	@Test
	void templateShouldWaitForRetryAfterPlusJitterThenSucceed() {
		RetryTemplate template = new RetryTemplate();
		template.setRetryPolicy(new SimpleRetryPolicy(3));
		template.setBackOffPolicy(new RetryAfterBackOffPolicy(RetrySettings.defaults(), this.sleeper, this.clock,
				this.clock, RetryAfterBackOffPolicyTests.HALF));
		String body = template
			.execute((context) -> this.client.get().uri(this.origin.uri("/report")).retrieve().body(String.class));
		assertThat(body).isEqualTo("ready");
		assertThat(this.origin.requestLines()).containsExactly("GET /report", "GET /report");
		assertThat(this.sleeper.sleeps()).containsExactly(2200L);
	}

}
