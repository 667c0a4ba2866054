package dev.retryafter.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.JsonPath;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app on a random loopback port, relaying to its own flaky {@code /demo/report}.
 * Two real one-second waits are the point of the first tests: the server asked for them.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "server.address=127.0.0.1", "retry-after.backoff.initial=10ms", "retry-after.jitter=0" })
class SampleApplicationTests {

	@LocalServerPort
	private int port;

	@Autowired
	private MeterRegistry meterRegistry;

	private LoopbackHttp http;

	@BeforeEach
	void resetDemo() throws Exception {
		this.http = new LoopbackHttp(this.port);
		assertThat(this.http.post("/demo/reset", "", Map.of()).statusCode()).isEqualTo(204);
	}

	@Test
	void whenDemoCalledDirectlyThenTwoBusyAnswersThenReady() throws Exception {
		HttpResponse<String> first = this.http.get("/demo/report");
		assertThat(first.statusCode()).isEqualTo(429);
		assertThat(first.headers().allValues("Retry-After")).containsExactly("1");
		assertThat(first.body()).isEqualTo("{\"status\":\"busy\",\"attempt\":1}");
		assertThat(this.http.get("/demo/report").statusCode()).isEqualTo(429);
		assertThat(this.http.get("/demo/report").body()).isEqualTo("{\"status\":\"ready\",\"attempt\":3}");
		assertThat(this.http.get("/demo/report").body()).isEqualTo("{\"status\":\"ready\",\"attempt\":4}");
	}

	@Test
	void whenRelayingDemoReportThenOkAfterTwoHonouredWaits() throws Exception {
		double retried = attempts("429", "retried");
		double succeeded = attempts("200", "success");
		long planned = plannedCount();
		double plannedMillis = plannedMillis();
		long started = System.nanoTime();
		HttpResponse<String> response = this.http.get("/relay/demo/report");
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("{\"status\":\"ready\",\"attempt\":3}");
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
		assertThat(attempts("429", "retried") - retried).isEqualTo(2.0);
		assertThat(attempts("200", "success") - succeeded).isEqualTo(1.0);
		assertThat(plannedCount() - planned).isEqualTo(2);
		assertThat(plannedMillis() - plannedMillis).isEqualTo(2000.0);
		assertThatActuatorShowsAttempts();
	}

	@Test
	void whenRelayingThroughRestTemplateThenOkAfterTwoHonouredWaits() throws Exception {
		double retried = attempts("429", "retried");
		long started = System.nanoTime();
		HttpResponse<String> response = this.http.get("/relay-template/demo/report");
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo("{\"status\":\"ready\",\"attempt\":3}");
		assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
		assertThat(attempts("429", "retried") - retried).isEqualTo(2.0);
	}

	@Test
	void shouldExposeTheRetryAfterEndpoint() throws Exception {
		HttpResponse<String> response = this.http.get("/actuator/retryafter");
		assertThat(response.statusCode()).isEqualTo(200);
		String json = response.body();
		assertThat(JsonPath.<Integer>read(json, "$.clients.default.settings.maxAttempts")).isEqualTo(3);
		assertThat(JsonPath.<String>read(json, "$.clients.default.settings.totalBudget")).isEqualTo("10s");
		assertThat(JsonPath.<String>read(json, "$.clients.default.settings.attemptReserve")).isEqualTo("500ms");
		assertThat(JsonPath.<String>read(json, "$.clients.default.settings.backoff.initial")).isEqualTo("10ms");
		assertThat(JsonPath.<Double>read(json, "$.clients.default.settings.jitter")).isEqualTo(0.0);
		assertThat(JsonPath.<String>read(json, "$.clients.default.settings.header.onInvalid")).isEqualTo("backoff");
		assertThat(JsonPath.<List<Object>>read(json, "$.cooldowns")).isEmpty();
		// One retry budget (default): 10 per second over 10 s, plus 0.2 per request made in the window.
		assertThat(JsonPath.<Map<String, Object>>read(json, "$.budgets")).containsOnlyKeys("default");
		int requests = JsonPath.read(json, "$.budgets.default.requests");
		int retries = JsonPath.read(json, "$.budgets.default.retries");
		assertThat(JsonPath.<Integer>read(json, "$.budgets.default.available"))
			.isEqualTo(100 + requests / 5 - retries);
	}

	@Test
	void shouldExposeHealthAndMetricsEndpoints() throws Exception {
		HttpResponse<String> health = this.http.get("/actuator/health");
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<String>read(health.body(), "$.status")).isEqualTo("UP");
		HttpResponse<String> metrics = this.http.get("/actuator/metrics");
		assertThat(metrics.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<List<String>>read(metrics.body(), "$.names")).contains("jvm.memory.used");
	}

	private void assertThatActuatorShowsAttempts() throws Exception {
		HttpResponse<String> response = this.http
			.get("/actuator/metrics/http.client.retry.attempts?tag=status:429&tag=outcome:retried");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<String>read(response.body(), "$.measurements[0].statistic")).isEqualTo("COUNT");
		assertThat(JsonPath.<Double>read(response.body(), "$.measurements[0].value"))
			.isEqualTo(attempts("429", "retried"));
	}

	private double attempts(String status, String outcome) {
		Counter counter = this.meterRegistry.find("http.client.retry.attempts")
			.tags("client", "default", "method", "GET", "status", status, "outcome", outcome)
			.counter();
		return (counter != null) ? counter.count() : 0.0;
	}

	private long plannedCount() {
		Timer timer = plannedWaits();
		return (timer != null) ? timer.count() : 0;
	}

	private double plannedMillis() {
		Timer timer = plannedWaits();
		return (timer != null) ? timer.totalTime(TimeUnit.MILLISECONDS) : 0.0;
	}

	private @Nullable Timer plannedWaits() {
		return this.meterRegistry.find("http.client.retry.delay.planned")
			.tags("client", "default", "source", "retry-after-seconds")
			.timer();
	}

}
