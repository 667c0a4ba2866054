package dev.retryafter.sample;

import java.time.Duration;

import dev.retryafter.core.StopReason;
import dev.retryafter.test.AutoConfigureRetryAfterVirtualTime;
import dev.retryafter.test.RetryRecorder;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.restclient.test.autoconfigure.RestClientTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.client.MockRestServiceServer;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.client.match.MockRestRequestMatchers.requestTo;
import static org.springframework.test.web.client.response.MockRestResponseCreators.withStatus;
import static org.springframework.test.web.client.response.MockRestResponseCreators.withSuccess;

/**
 * Example: a {@code @RestClientTest} of a client of your own. The slice brings the starter's
 * retries with it, as production has them, and {@code @AutoConfigureRetryAfterVirtualTime}
 * makes the 30 seconds the server asks for pass at once while the recorder keeps them.
 */
@RestClientTest(properties = { "retry-after.jitter=0", "retry-after.total-budget=60s" })
@AutoConfigureRetryAfterVirtualTime
@Import(ForecastClientSliceTests.ForecastClient.class)
class ForecastClientSliceTests {

	@Autowired
	private ForecastClient client;

	@Autowired
	private MockRestServiceServer server;

	@Autowired
	private RetryRecorder retries;

	@Test
	void theForecastArrivesAfterTheServersRetryAfter() {
		this.server.expect(requestTo("https://forecast.example.com/today"))
			.andRespond(withStatus(HttpStatus.TOO_MANY_REQUESTS).header("Retry-After", "30"));
		this.server.expect(requestTo("https://forecast.example.com/today"))
			.andRespond(withSuccess("sunny", MediaType.TEXT_PLAIN));

		assertThat(this.client.today()).isEqualTo("sunny");

		this.server.verify();
		assertThat(this.retries.waits()).containsExactly(Duration.ofSeconds(30));
		assertThat(this.retries.stopReasons()).containsExactly(StopReason.SUCCESS);
	}

	/** A client such as an application writes, on the builder Boot gives it. */
	static class ForecastClient {

		private final RestClient restClient;

		ForecastClient(RestClient.Builder restClientBuilder) {
			this.restClient = restClientBuilder.baseUrl("https://forecast.example.com").build();
		}

		String today() {
			return this.restClient.get().uri("/today").retrieve().body(String.class);
		}

	}

}
