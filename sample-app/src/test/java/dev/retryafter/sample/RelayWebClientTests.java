package dev.retryafter.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.jayway.jsonpath.JsonPath;
import com.sun.net.httpserver.HttpServer;
import dev.retryafter.sample.RecordingUpstream.Received;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /relay-webclient/**}: the same relay as {@code GET /relay/**}, through a Boot-built
 * {@code WebClient}, in the same servlet (Tomcat) app.
 */
class RelayWebClientTests {

	/**
	 * The app relaying to its own flaky {@code /demo/report}: two real one-second waits, as the
	 * server asked.
	 */
	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "server.address=127.0.0.1", "retry-after.backoff.initial=10ms", "retry-after.jitter=0" })
	class DemoReport {

		@LocalServerPort
		private int port;

		@Autowired
		private MeterRegistry meterRegistry;

		@Autowired
		private WebServerApplicationContext context;

		@Test
		void whenRelayingDemoReportThenOkAfterTwoHonouredWaitsOnTomcat() throws Exception {
			LoopbackHttp http = new LoopbackHttp(this.port);
			assertThat(http.post("/demo/reset", "", Map.of()).statusCode()).isEqualTo(204);
			long started = System.nanoTime();
			HttpResponse<String> response = http.get("/relay-webclient/demo/report");
			Duration took = Duration.ofNanos(System.nanoTime() - started);
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("{\"status\":\"ready\",\"attempt\":3}");
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
			assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
			assertThat(this.meterRegistry.get("http.client.retry.attempts")
				.tags("client", "default", "method", "GET", "status", "429", "outcome", "retried")
				.counter()
				.count()).isEqualTo(2.0);
			assertThat(this.meterRegistry.get("http.client.retry.delay.planned")
				.tags("client", "default", "source", "retry-after-seconds")
				.timer()
				.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(2000.0);
			assertThat(this.context.getWebServer().getClass().getSimpleName()).isEqualTo("TomcatWebServer");
		}

	}

	/**
	 * The relay against a recording loopback upstream.
	 */
	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "server.address=127.0.0.1", "retry-after.backoff.initial=10ms", "retry-after.jitter=0" })
	class Recorded {

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
			HttpResponse<String> response = this.http
				.get("/relay-webclient/reports/2026%20Q3/summary?year=2026&filter=a%2Fb&x");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("answer from /reports/2026%20Q3/summary");
			assertThat(upstream.received()).containsExactly(new Received("GET", "/reports/2026%20Q3/summary",
					"year=2026&filter=a%2Fb&x", null, null, ""));
		}

		@Test
		void whenUpstreamStaysBusyThenFinal429IsMirroredWithRetryAfter() throws Exception {
			HttpResponse<String> response = this.http.get("/relay-webclient/busy");
			assertThat(response.statusCode()).isEqualTo(429);
			assertThat(response.body()).isEqualTo("answer from /busy");
			assertThat(response.headers().allValues("Retry-After")).containsExactly("0");
			assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain");
			assertThat(response.headers().firstValue("X-Upstream-Secret")).isEmpty();
			assertThat(upstream.received()).extracting(Received::method).containsExactly("GET", "GET", "GET");
		}

		@Test
		void whenUpstreamFailsWith500ThenMirroredWithoutRetry() throws Exception {
			HttpResponse<String> response = this.http.get("/relay-webclient/fail");
			assertThat(response.statusCode()).isEqualTo(500);
			assertThat(response.body()).isEqualTo("answer from /fail");
			assertThat(upstream.received()).hasSize(1);
		}

	}

	/**
	 * The relay when its upstream refuses connections: a 502 with a JSON reason.
	 */
	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "server.address=127.0.0.1", "retry-after.backoff.initial=10ms", "retry-after.jitter=0" })
	class Refused {

		@LocalServerPort
		private int port;

		@DynamicPropertySource
		static void closedUpstream(DynamicPropertyRegistry registry) throws IOException {
			int closedPort;
			try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
				closedPort = socket.getLocalPort();
			}
			registry.add("sample.upstream-url", () -> "http://127.0.0.1:" + closedPort);
		}

		@Test
		void whenUpstreamRefusesConnectionsThenBadGatewayWithReason() throws Exception {
			HttpResponse<String> response = new LoopbackHttp(this.port)
				.get("/relay-webclient/demo/report?token=secret");
			assertThat(response.statusCode()).isEqualTo(502);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
			assertThat(JsonPath.<String>read(response.body(), "$.reason")).isEqualTo("connect-refused");
			assertThat(response.body()).doesNotContain("secret");
		}

	}

	/**
	 * The relay while its upstream's origin cools down: the second request is refused before it
	 * is sent, and the relay answers 502 with the refusal's reason.
	 */
	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "server.address=127.0.0.1", "retry-after.backoff.initial=10ms", "retry-after.jitter=0" })
	class CoolingDown {

		private static final AtomicInteger requests = new AtomicInteger();

		private static final HttpServer upstream = startUpstream();

		@LocalServerPort
		private int port;

		@DynamicPropertySource
		static void upstreamUrl(DynamicPropertyRegistry registry) {
			registry.add("sample.upstream-url", () -> "http://127.0.0.1:" + upstream.getAddress().getPort());
		}

		@AfterAll
		static void stopUpstream() {
			upstream.stop(0);
		}

		/** Always 429 with {@code Retry-After: 30}: longer than the 10 s budget lets anyone wait. */
		private static HttpServer startUpstream() {
			try {
				HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
				server.createContext("/", (exchange) -> {
					requests.incrementAndGet();
					exchange.getResponseHeaders().add("Retry-After", "30");
					exchange.sendResponseHeaders(429, -1);
					exchange.close();
				});
				server.start();
				return server;
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		@Test
		void whenACooldownRefusesTheRequestThenBadGatewayWithReasonCooldown() throws Exception {
			LoopbackHttp http = new LoopbackHttp(this.port);

			HttpResponse<String> first = http.get("/relay-webclient/report");
			HttpResponse<String> second = http.get("/relay-webclient/report");

			assertThat(first.statusCode()).isEqualTo(429);
			assertThat(second.statusCode()).isEqualTo(502);
			assertThat(second.headers().firstValue("Content-Type")).hasValue("application/json");
			assertThat(JsonPath.<String>read(second.body(), "$.reason")).isEqualTo("cooldown");
			assertThat(requests).as("requests that reached the upstream").hasValue(1);
		}

	}

}
