package dev.retryafter.sample;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relay when its upstream refuses connections: a 502 with a JSON reason, after the
 * connection retries the policy allows.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "retry-after.backoff.initial=10ms", "retry-after.jitter=0" })
class RelayIoFailureTests {

	@LocalServerPort
	private int port;

	@Autowired
	private MeterRegistry meterRegistry;

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
		LoopbackHttp http = new LoopbackHttp(this.port);
		for (String path : List.of("/relay/demo/report?token=secret", "/relay-template/demo/report?token=secret")) {
			HttpResponse<String> response = http.get(path);
			assertThat(response.statusCode()).as(path).isEqualTo(502);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
			assertThat(JsonPath.<String>read(response.body(), "$.reason")).isEqualTo("connect-refused");
			assertThat(JsonPath.<String>read(response.body(), "$.error")).isEqualTo("ConnectException");
			assertThat(response.body()).doesNotContain("secret");
		}
		assertThat(this.meterRegistry.get("http.client.retry.attempts")
			.tags("client", "default", "method", "GET", "status", "IO_ERROR", "outcome", "retried")
			.counter()
			.count()).isEqualTo(4.0);
		assertThat(this.meterRegistry.get("http.client.retry.abandoned")
			.tags("client", "default", "reason", "max-attempts")
			.counter()
			.count()).isEqualTo(2.0);
	}

}
