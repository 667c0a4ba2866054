package dev.retryafter.sample;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import dev.retryafter.sample.RecordingUpstream.Received;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The relay against a recording loopback upstream: what is forwarded, what is retried, and
 * that final statuses come back unchanged.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "retry-after.backoff.initial=10ms", "retry-after.jitter=0" })
class RelayTests {

	private static final RecordingUpstream upstream = RecordingUpstream.start();

	@LocalServerPort
	private int port;

	private LoopbackHttp http;

	@DynamicPropertySource
	static void upstreamUrl(DynamicPropertyRegistry registry) {
		registry.add("sample.upstream-url", upstream::url);
	}

	@AfterAll
	static void stopUpstream() {
		upstream.close();
	}

	@BeforeEach
	void setUp() {
		this.http = new LoopbackHttp(this.port);
		upstream.clear();
	}

	@Test
	void shouldForwardPathAndQueryUnchanged() throws Exception {
		HttpResponse<String> response = this.http.get("/relay/reports/2026%20Q3/summary?year=2026&filter=a%2Fb&x");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("answer from /reports/2026%20Q3/summary");
		assertThat(upstream.received()).containsExactly(new Received("GET", "/reports/2026%20Q3/summary",
				"year=2026&filter=a%2Fb&x", null, null, ""));
	}

	@Test
	void whenUpstreamStaysBusyThenFinal429IsMirroredWithRetryAfter() throws Exception {
		HttpResponse<String> response = this.http.get("/relay/busy");
		assertThat(response.statusCode()).isEqualTo(429);
		assertThat(response.body()).isEqualTo("answer from /busy");
		assertThat(response.headers().allValues("Retry-After")).containsExactly("0");
		assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain");
		assertThat(response.headers().firstValue("X-Upstream-Secret")).isEmpty();
		assertThat(upstream.received()).extracting(Received::method).containsExactly("GET", "GET", "GET");
	}

	@Test
	void whenRestTemplateUpstreamStaysBusyThenFinal429IsMirrored() throws Exception {
		HttpResponse<String> response = this.http.get("/relay-template/busy");
		assertThat(response.statusCode()).isEqualTo(429);
		assertThat(response.body()).isEqualTo("answer from /busy");
		assertThat(response.headers().allValues("Retry-After")).containsExactly("0");
		assertThat(upstream.received()).hasSize(3);
	}

	@Test
	void whenUpstreamFailsWith500ThenMirroredWithoutRetry() throws Exception {
		HttpResponse<String> response = this.http.get("/relay-template/fail");
		assertThat(response.statusCode()).isEqualTo(500);
		assertThat(response.body()).isEqualTo("answer from /fail");
		assertThat(upstream.received()).hasSize(1);
	}

	@Test
	void whenPostWithoutIdempotencyKeyThenNotRetried() throws Exception {
		HttpResponse<String> response = this.http.post("/relay/busy", "{\"order\":42}",
				Map.of("Content-Type", "application/json"));
		assertThat(response.statusCode()).isEqualTo(429);
		assertThat(response.body()).isEqualTo("answer from /busy");
		assertThat(upstream.received())
			.containsExactly(new Received("POST", "/busy", null, "application/json", null, "{\"order\":42}"));
	}

	@Test
	void whenPostWithIdempotencyKeyThenRetriedWithSameBodyAndHeaders() throws Exception {
		HttpResponse<String> response = this.http.post("/relay/busy?v=2", "{\"order\":42}",
				Map.of("Content-Type", "application/json", "Idempotency-Key", "order-42"));
		assertThat(response.statusCode()).isEqualTo(429);
		Received expected = new Received("POST", "/busy", "v=2", "application/json", "order-42", "{\"order\":42}");
		assertThat(upstream.received()).containsExactly(expected, expected, expected);
	}

	@Test
	void whenPostSucceedsThenAnswerMirrored() throws Exception {
		HttpResponse<String> response = this.http.post("/relay/orders", "plain text",
				Map.of("Content-Type", "text/plain"));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("answer from /orders");
		assertThat(upstream.received())
			.containsExactly(new Received("POST", "/orders", null, "text/plain", null, "plain text"));
	}

	@Test
	void shouldForwardAuthorizationUnchangedOnEveryAttemptOfEveryRelay() throws Exception {
		String token = "Bearer tenant-a.Zm9v+YmFy/==";
		assertThat(this.http.get("/relay/busy", Map.of("Authorization", token)).statusCode()).isEqualTo(429);
		assertThat(this.http.post("/relay/orders", "{}", Map.of("Authorization", token, "Content-Type",
				"application/json")).statusCode()).isEqualTo(200);
		assertThat(this.http.get("/relay-template/reports", Map.of("Authorization", token)).statusCode())
			.isEqualTo(200);
		assertThat(upstream.received()).extracting(Received::method, Received::rawPath)
			.containsExactly(tuple("GET", "/busy"), tuple("GET", "/busy"), tuple("GET", "/busy"),
					tuple("POST", "/orders"), tuple("GET", "/reports"));
		assertThat(upstream.authorizations()).containsExactly(List.of(token), List.of(token), List.of(token),
				List.of(token), List.of(token));
	}

	@Test
	void withoutAuthorizationShouldForwardNone() throws Exception {
		assertThat(this.http.get("/relay/reports").statusCode()).isEqualTo(200);
		assertThat(this.http.get("/relay-template/reports").statusCode()).isEqualTo(200);
		assertThat(upstream.authorizations()).containsExactly(List.of(), List.of());
	}

}
