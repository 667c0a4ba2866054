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
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A herd on {@code 429}, through the Boot-built {@code RestClient} with the default settings:
 * a first wave of callers is sent at once, the rest once the client has seen the first
 * {@code 429}. That starts a cooldown that holds the callers arriving after it, which it
 * releases at its instant (plus jitter) into their own {@code 429}s. Those answers start a
 * follow-up that holds new first attempts only (rule 1 of the door): the first wave's retries
 * leave at their own {@code Retry-After}, not at the instant the released wave's answers
 * asked for. Waits are real: the behaviour under test is when requests reach a real server.
 */
class HerdWaveEndToEndTests {

	private static final int CALLERS = 50;

	// Callers sent at once; the others start once the client has seen the first 429.
	private static final int FIRST_WAVE = 5;

	private static final String CALLER = "X-Caller";

	// Two seconds, not one: a retry the held wave's answers pushed back would arrive a whole
	// delay after theirs, so the check below keeps more than a second of room for a busy
	// machine between "not pushed back" and "pushed back" (with one it kept 0.8 s, and a
	// loaded CI leg overran it).
	private static final Duration RETRY_AFTER = Duration.ofSeconds(2);

	// The default jitter (0.2) of the server's delay: the window the held requests leave in.
	private static final Duration JITTER_WINDOW = RETRY_AFTER.multipliedBy(2).dividedBy(10);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class));

	@Test
	void whenTheHeldWaveIsTurnedAwayThenNoRetryWaitsForItsAnswersAndNoneIsEarly() throws Exception {
		try (HerdOrigin origin = new HerdOrigin()) {
			CountDownLatch tooManyRequests = new CountDownLatch(1);
			this.contextRunner.withBean(RetryListener.class, () -> new RetryListener() {

				@Override
				public void attemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
						RetryDecision decision) {
					if (outcome instanceof AttemptOutcome.Response response && response.status() == 429) {
						tooManyRequests.countDown();
					}
				}

			}).run((context) -> {
				RestClient client = context.getBean(RestClient.Builder.class).build();
				List<Integer> statuses = herd(client, origin, tooManyRequests);

				// 0 failed, two requests each.
				assertThat(statuses).hasSize(CALLERS).containsOnly(200);
				assertThat(origin.requests).hasSize(CALLERS).allSatisfy((caller, requests) -> {
					assertThat(requests).as("requests of caller %s", caller).isEqualTo(2);
				});
				long firstAnswer = origin.firstAnswers.values().stream().mapToLong(Long::longValue).min().orElseThrow();
				long instant = firstAnswer + RETRY_AFTER.toNanos();
				// No request earlier than asked: a retry a second after its own answer, a held
				// first request at the first cooldown's instant.
				origin.retries.forEach((caller, arrived) -> assertThat(arrived - origin.firstAnswers.get(caller))
					.as("retry of caller %s after its answer", caller)
					.isGreaterThanOrEqualTo(RETRY_AFTER.toNanos()));
				List<String> held = new ArrayList<>();
				List<String> firstWave = new ArrayList<>();
				origin.firstArrivals.forEach((caller, arrived) -> {
					(arrived - firstAnswer >= RETRY_AFTER.toNanos() / 2 ? held : firstWave).add(caller);
				});
				assertThat(held).as("callers the first cooldown held").isNotEmpty();
				assertThat(firstWave).as("callers answered before the cooldown held anybody").isNotEmpty();
				// The held callers leave for the first cooldown's instant, within its jitter
				// window (plus a second of slack for the machine), not for a later instant.
				held.forEach((caller) -> assertThat(origin.firstArrivals.get(caller) - instant)
					.as("first request of held caller %s after the first instant", caller)
					.isBetween(0L, JITTER_WINDOW.plus(RETRY_AFTER).toNanos()));
				// The first wave's retries are not pushed back by the held wave's 429s: each
				// arrives before the instant the last of those asked for, which is where the
				// cooldown they renewed would have held it.
				long lastHeldAnswer = held.stream()
					.mapToLong((caller) -> origin.firstAnswers.get(caller))
					.max()
					.orElseThrow();
				firstWave.forEach((caller) -> assertThat(origin.retries.get(caller))
					.as("retry of first-wave caller %s before the held wave's last instant", caller)
					.isLessThan(lastHeldAnswer + RETRY_AFTER.toNanos()));
			});
		}
	}

	private static List<Integer> herd(RestClient client, HerdOrigin origin, CountDownLatch tooManyRequests)
			throws Exception {
		ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<Integer>> calls = new ArrayList<>();
			for (int i = 0; i < CALLERS; i++) {
				String caller = Integer.toString(i);
				CountDownLatch go = (i < FIRST_WAVE) ? start : tooManyRequests;
				calls.add(callers.submit(() -> {
					assertThat(go.await(30, TimeUnit.SECONDS)).isTrue();
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
	 * Answers each caller's first request, as it arrives, with {@code 429} and
	 * {@code Retry-After: 2}, and every later one with {@code 200}; notes for each caller when
	 * its first request arrived, when its answer was sent and when its retry arrived, on the
	 * monotonic clock.
	 */
	private static final class HerdOrigin implements AutoCloseable {

		private final HttpServer server;

		private final ExecutorService handlers = Executors.newCachedThreadPool();

		final Map<String, Integer> requests = new ConcurrentHashMap<>();

		final Map<String, Long> firstArrivals = new ConcurrentHashMap<>();

		final Map<String, Long> firstAnswers = new ConcurrentHashMap<>();

		final Map<String, Long> retries = new ConcurrentHashMap<>();

		HerdOrigin() throws IOException {
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
					this.firstArrivals.put(caller, arrival);
					exchange.getResponseHeaders().add("Retry-After", Long.toString(RETRY_AFTER.toSeconds()));
					// Stamped before sending: no client can receive the answer earlier.
					this.firstAnswers.put(caller, System.nanoTime());
					exchange.sendResponseHeaders(429, -1);
				}
				else {
					this.retries.putIfAbsent(caller, arrival);
					exchange.sendResponseHeaders(200, -1);
				}
			}
		}

		String url() {
			return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/item";
		}

		@Override
		public void close() {
			this.server.stop(0);
			this.handlers.shutdownNow();
		}

	}

}
