package dev.retryafter.test;

import java.time.Duration;

import dev.retryafter.core.HoldReason;
import dev.retryafter.core.StopReason;
import dev.retryafter.test.RetryRecorder.Attempt;
import dev.retryafter.test.RetryRecorder.Hold;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.restclient.test.MockServerRestClientCustomizer;
import org.springframework.boot.restclient.test.autoconfigure.RestClientTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.client.MockRestServiceServer;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;
import static org.springframework.test.web.client.match.MockRestRequestMatchers.requestTo;
import static org.springframework.test.web.client.response.MockRestResponseCreators.withStatus;
import static org.springframework.test.web.client.response.MockRestResponseCreators.withSuccess;

/**
 * A {@code @RestClientTest} on virtual time: a {@code Retry-After: 30} is honoured without
 * waiting, and the recorder says what was waited. The time budget and the cooldowns still
 * count the 30 seconds. Each test calls an origin of its own, as the context (and its
 * cooldowns) is shared; the recorder is cleared before each test.
 */
@RestClientTest(properties = { "retry-after.jitter=0", "retry-after.total-budget=60s" })
@AutoConfigureRetryAfterVirtualTime
class VirtualTimeRestClientTestTests {

	@Autowired
	private MockServerRestClientCustomizer servers;

	@Autowired
	private RestClient.Builder restClientBuilder;

	@Autowired
	private RetryRecorder recorder;

	@Autowired
	private VirtualRetryTime time;

	@Test
	void a429WithRetryAfter30IsRetriedAfter30VirtualSeconds() {
		RestClient client = this.restClientBuilder.baseUrl("https://forecast.example.com").build();
		MockRestServiceServer server = this.servers.getServer(this.restClientBuilder);
		server.expect(requestTo("https://forecast.example.com/today"))
			.andRespond(withStatus(HttpStatus.TOO_MANY_REQUESTS).header("Retry-After", "30"));
		server.expect(requestTo("https://forecast.example.com/today"))
			.andRespond(withSuccess("sunny", MediaType.TEXT_PLAIN));
		Duration before = this.time.elapsed();

		String forecast = client.get().uri("/today").retrieve().body(String.class);

		assertThat(forecast).isEqualTo("sunny");
		server.verify();
		assertThat(this.recorder.attempts()).extracting(Attempt::status).containsExactly(429, 200);
		assertThat(this.recorder.waits()).containsExactly(Duration.ofSeconds(30));
		assertThat(this.recorder.holds()).isEmpty();
		assertThat(this.recorder.stopReasons()).containsExactly(StopReason.SUCCESS);
		assertThat(this.time.elapsed().minus(before)).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void aWaitThatDoesNotFitTheTimeBudgetIsNotTakenAndTheCallerGetsThe429() {
		RestClient client = this.restClientBuilder.baseUrl("https://budget.example.com").build();
		MockRestServiceServer server = this.servers.getServer(this.restClientBuilder);
		server.expect(requestTo("https://budget.example.com/today"))
			.andRespond(withStatus(HttpStatus.TOO_MANY_REQUESTS).header("Retry-After", "60"));

		assertThatExceptionOfType(HttpClientErrorException.TooManyRequests.class)
			.isThrownBy(() -> client.get().uri("/today").retrieve().body(String.class));

		assertThat(this.recorder.waits()).isEmpty();
		assertThat(this.recorder.stopReasons()).containsExactly(StopReason.RETRY_AFTER_EXCEEDS_BUDGET);
	}

	@Test
	void theNextCallToAnOriginCoolingDownIsHeldForWhatIsLeftOfItsRetryAfter() {
		RestClient client = this.restClientBuilder.baseUrl("https://cooldown.example.com").build();
		MockRestServiceServer server = this.servers.getServer(this.restClientBuilder);
		server.expect(requestTo("https://cooldown.example.com/orders"))
			.andRespond(withStatus(HttpStatus.TOO_MANY_REQUESTS).header("Retry-After", "20"));
		server.expect(requestTo("https://cooldown.example.com/orders/7"))
			.andRespond(withSuccess("shipped", MediaType.TEXT_PLAIN));

		// A POST without an Idempotency-Key is not retried, but its 429 still starts the cooldown.
		assertThatExceptionOfType(HttpClientErrorException.TooManyRequests.class)
			.isThrownBy(() -> client.post().uri("/orders").retrieve().body(String.class));
		this.time.advance(Duration.ofSeconds(5));
		assertThat(client.get().uri("/orders/7").retrieve().body(String.class)).isEqualTo("shipped");

		server.verify();
		assertThat(this.recorder.waits()).isEmpty();
		assertThat(this.recorder.holds()).extracting(Hold::heldFor, Hold::reason)
			.containsExactly(tuple(Duration.ofSeconds(15), HoldReason.COOLDOWN));
		assertThat(this.recorder.stopReasons()).containsExactly(StopReason.NON_IDEMPOTENT, StopReason.SUCCESS);
	}

	/** The slice's configuration: a user's would bring its own client beans. */
	@SpringBootConfiguration
	static class Config {

	}

}
