package dev.retryafter.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import dev.retryafter.core.StopReason;
import dev.retryafter.test.AutoConfigureRetryAfterVirtualTime;
import dev.retryafter.test.RetryRecorder;
import dev.retryafter.test.VirtualRetryTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Example: a {@code @SpringBootTest} on a real server on 127.0.0.1, on virtual time. The relay
 * calls the app's own flaky {@code /demo/report}, which answers {@code 429 Retry-After: 1}
 * twice: through the {@code RestClient} and the {@code WebClient} alike, the two waits pass
 * at once, and the recorder keeps them: the server's second second is outgrown by the local
 * backoff (1 s, then 2 s), as in production.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "retry-after.jitter=0" })
@AutoConfigureRetryAfterVirtualTime
class RelayVirtualTimeTests {

	@LocalServerPort
	private int port;

	@Autowired
	private RetryRecorder retries;

	@Autowired
	private VirtualRetryTime time;

	@ParameterizedTest
	@ValueSource(strings = { "/relay", "/relay-webclient" })
	void theReportArrivesAfterTwoHonouredWaitsThatTakeNoTime(String relay) throws Exception {
		LoopbackHttp http = new LoopbackHttp(this.port);
		assertThat(http.post("/demo/reset", "", Map.of()).statusCode()).isEqualTo(204);
		Duration before = this.time.elapsed();

		HttpResponse<String> response = http.get(relay + "/demo/report");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("{\"status\":\"ready\",\"attempt\":3}");
		assertThat(this.retries.waits()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
		assertThat(this.retries.stopReasons()).containsExactly(StopReason.SUCCESS);
		assertThat(this.time.elapsed().minus(before)).isEqualTo(Duration.ofSeconds(3));
	}

}
