package dev.retryafter.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.jayway.jsonpath.JsonPath;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relays against an upstream that rate-limits one route: {@code /search} answers
 * {@code 429} with {@code Retry-After: 30} (longer than the 10 s budget lets anyone wait),
 * every other route {@code 200}. A call to another route is relayed, not refused for
 * {@code /search}'s cooldown; a second {@code /search} is refused without reaching the upstream.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "retry-after.max-attempts=1" })
class RelayRouteCooldownTests {

	private static final List<String> received = new CopyOnWriteArrayList<>();

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

	@BeforeEach
	void clear() {
		received.clear();
	}

	@Test
	void whenSearchIsRateLimitedThenItemsIsRelayedThroughEveryRelayAndASecondSearchIsRefused() throws Exception {
		LoopbackHttp http = new LoopbackHttp(this.port);
		assertThat(http.get("/relay/search/issues").statusCode()).isEqualTo(429);

		assertThat(http.get("/relay/items/1").statusCode()).isEqualTo(200);
		assertThat(http.get("/relay-template/items/2").statusCode()).isEqualTo(200);
		assertThat(http.get("/relay-webclient/items/3").statusCode()).isEqualTo(200);
		HttpResponse<String> second = http.get("/relay-webclient/search/code");
		assertThat(second.statusCode()).isEqualTo(502);
		assertThat(JsonPath.<String>read(second.body(), "$.reason")).isEqualTo("cooldown");
		assertThat(received).containsExactly("/search/issues", "/items/1", "/items/2", "/items/3");
	}

	private static HttpServer startUpstream() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
			server.createContext("/", (exchange) -> {
				String path = exchange.getRequestURI().getRawPath();
				received.add(path);
				if (path.startsWith("/search/")) {
					exchange.getResponseHeaders().add("Retry-After", "30");
					exchange.sendResponseHeaders(429, -1);
				}
				else {
					exchange.sendResponseHeaders(200, -1);
				}
				exchange.close();
			});
			server.start();
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
