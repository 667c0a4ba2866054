package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A herd as production has one, through the Boot-built {@code RestClient} with the default
 * settings: callers start together, their first requests reach the origin milliseconds apart
 * (nothing at the origin lines them up), each caller's first request is answered with a
 * {@code Retry-After: 1} and its second with {@code 200}. Every call must succeed, and no
 * retry may reach the origin before the instant its own answer named. Waits are real: the
 * behaviour under test is when requests reach a real server.
 */
class HerdEndToEndTests {

	private static final int CALLERS = 50;

	private static final String CALLER = "X-Caller";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class));

	static List<Arguments> herds() {
		List<Arguments> herds = new ArrayList<>();
		for (int status : new int[] { 503, 429 }) {
			for (String factory : new String[] { "http-components", "jdk" }) {
				herds.add(Arguments.of(status, factory));
			}
		}
		return herds;
	}

	@ParameterizedTest(name = "{0} on {1}")
	@MethodSource("herds")
	void whenAnUnsynchronisedHerdIsAskedToComeBackInASecondThenEveryCallSucceedsAndNoneIsEarly(int status,
			String factory) throws Exception {
		try (HerdOrigin origin = new HerdOrigin(status)) {
			this.contextRunner.withPropertyValues("spring.http.clients.imperative.factory=" + factory)
				.run((context) -> {
					RestClient client = context.getBean(RestClient.Builder.class).build();
					List<Integer> statuses = herd(client, origin);

					assertThat(statuses).hasSize(CALLERS).containsOnly(200);
					assertThat(origin.requestsPerCaller()).hasSize(CALLERS).allSatisfy((caller, requests) -> {
						assertThat(requests).as("requests of caller %s", caller).isEqualTo(2);
					});
					assertThat(origin.retriesSentEarly()).isEmpty();
				});
		}
	}

	private static List<Integer> herd(RestClient client, HerdOrigin origin) throws Exception {
		ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<Integer>> calls = new ArrayList<>();
			for (int i = 0; i < CALLERS; i++) {
				String caller = Integer.toString(i);
				calls.add(callers.submit(() -> {
					start.await();
					ResponseEntity<Void> response = client.get()
						.uri(origin.url())
						.header(CALLER, caller)
						.retrieve()
						.onStatus((code) -> true, (request, ignored) -> {
						})
						.toBodilessEntity();
					return response.getStatusCode().value();
				}));
			}
			start.countDown();
			List<Integer> statuses = new ArrayList<>();
			for (Future<Integer> call : calls) {
				statuses.add(call.get(30, TimeUnit.SECONDS));
			}
			return statuses;
		}
		finally {
			callers.shutdownNow();
		}
	}

	/**
	 * Answers each caller's first request, as it arrives, with the status and
	 * {@code Retry-After: 1}, and every later one with {@code 200}; notes for each caller when
	 * its first answer was sent and when its next request arrived, on the monotonic clock.
	 */
	private static final class HerdOrigin implements AutoCloseable {

		private final int status;

		private final HttpServer server;

		private final ExecutorService handlers = Executors.newCachedThreadPool();

		private final Map<String, Integer> requests = new ConcurrentHashMap<>();

		private final Map<String, Long> firstAnswerSent = new ConcurrentHashMap<>();

		private final Map<String, Long> retryArrived = new ConcurrentHashMap<>();

		HerdOrigin(int status) throws IOException {
			this.status = status;
			this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
			this.server.createContext("/", this::handle);
			this.server.setExecutor(this.handlers);
			this.server.start();
		}

		private void handle(HttpExchange exchange) throws IOException {
			long arrival = System.nanoTime();
			try (exchange; InputStream body = exchange.getRequestBody()) {
				body.readAllBytes();
				String caller = exchange.getRequestHeaders().getFirst(CALLER);
				int count = this.requests.merge(caller, 1, Integer::sum);
				if (count == 1) {
					exchange.getResponseHeaders().add("Retry-After", "1");
					// Stamped before sending: no client can receive the answer earlier, while a
					// stamp taken after sending would be late whenever this thread is descheduled
					// in between, and would make an honest retry look early.
					this.firstAnswerSent.put(caller, System.nanoTime());
					exchange.sendResponseHeaders(this.status, -1);
				}
				else {
					this.retryArrived.putIfAbsent(caller, arrival);
					exchange.sendResponseHeaders(200, -1);
				}
			}
		}

		String url() {
			return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/item";
		}

		Map<String, Integer> requestsPerCaller() {
			return Map.copyOf(this.requests);
		}

		/** The callers whose retry arrived less than a second after their first answer left. */
		List<String> retriesSentEarly() {
			List<String> early = new ArrayList<>();
			this.retryArrived.forEach((caller, arrived) -> {
				if (Duration.ofNanos(arrived - this.firstAnswerSent.get(caller)).compareTo(Duration.ofSeconds(1)) < 0) {
					early.add(caller);
				}
			});
			return early;
		}

		@Override
		public void close() {
			this.server.stop(0);
			this.handlers.shutdownNow();
		}

	}

}
