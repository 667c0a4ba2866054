package dev.retryafter.sample;

import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One relayed call to the flaky demo upstream ({@code 429}, {@code 429}, {@code 200}) shows
 * as one trace on {@code GET /demo/traces}: the incoming request, the client call, and under
 * it three attempts and two waits, each attempt with its status and decision.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "retry-after.jitter=0" })
class TraceLogTests {

	@LocalServerPort
	private int port;

	@Test
	void whenARelayedCallIsRetriedThenItsTraceShowsEveryAttemptAndWait() throws Exception {
		LoopbackHttp http = new LoopbackHttp(this.port);
		assertThat(http.post("/demo/reset", "", java.util.Map.of()).statusCode()).isEqualTo(204);
		HttpResponse<String> relayed = http.get("/relay/demo/report");
		assertThat(relayed.body()).isEqualTo("{\"status\":\"ready\",\"attempt\":3}");
		String trace = http.get("/demo/traces").body().split("\n(?=http get /relay)")[0];
		List<String> lines = trace.lines().toList();
		assertThat(lines.get(0)).startsWith("http get /relay/{*path}").contains("status=200");
		assertThat(lines.get(1)).startsWith("└─ http get ").contains("status=200");
		List<String> attempts = lines.stream().filter((line) -> line.contains("http get attempt")).toList();
		assertThat(attempts).hasSize(3);
		// Durations as the log lines and the endpoint write them, not ISO-8601.
		assertThat(attempts.get(0)).contains("status=429", "decision=retry", "retry.after=1000ms")
			.containsPattern("retry\\.delay\\.planned=[0-9]+ms")
			.doesNotContain("resend_count", "PT");
		assertThat(lines.get(0)).containsPattern("\\+0ms, [0-9]+ms");
		assertThat(lines).filteredOn((line) -> line.contains("http get retry wait"))
			.allSatisfy((line) -> assertThat(line).containsPattern("retry\\.delay\\.actual=[0-9]+ms"));
		assertThat(attempts.get(1)).contains("status=429", "decision=retry", "http.request.resend_count=1");
		assertThat(attempts.get(2)).contains("status=200", "decision=success", "http.request.resend_count=2");
		assertThat(lines).filteredOn((line) -> line.contains("http get retry wait")).hasSize(2);
		// The demo upstream's own server spans sit under the client span, one per attempt.
		assertThat(lines).filteredOn((line) -> line.contains("http get /demo/report")).hasSize(3);
	}

}
