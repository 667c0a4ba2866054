package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.redis.RetryAfterRedisAutoConfiguration;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.RedisCooldownStore;
import dev.retryafter.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Origin protection as a user gets it: the Boot-built {@code RestClient} against real origins
 * on 127.0.0.1, on real clocks. A few tests wait for real, because holding a request until a
 * server-given instant is the behaviour under test.
 */
class OriginProtectionEndToEndTests {

	private static final AutoConfigurations CLIENT = AutoConfigurations.of(RetryAfterAutoConfiguration.class,
			RetryAfterRestClientAutoConfiguration.class,
			HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
			RestClientAutoConfiguration.class);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(CLIENT);

	private final List<TimedOrigin> origins = new ArrayList<>();

	@AfterEach
	void stopOrigins() {
		this.origins.forEach(TimedOrigin::close);
	}

	@Test
	void whenAnOriginAnswers429ThenAConcurrentRequestToItIsHeldUntilTheBoundary() throws Exception {
		TimedOrigin origin = origin(new Reply(429, "2"), new Reply(200, null));
		TimedOrigin other = origin(new Reply(200, null));
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
			RestClient client = restClient(context);
			// Two threads of its own: the common pool may have one only, and the second
			// request would then start after the first's retry wait instead of during it.
			ExecutorService callers = Executors.newFixedThreadPool(2);
			CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> status(client, origin.url()),
					callers);
			assertThat(tooManyRequests.await(10, TimeUnit.SECONDS)).isTrue();
			CompletableFuture<Integer> second = CompletableFuture.supplyAsync(() -> status(client, origin.url()),
					callers);
			long otherStart = System.nanoTime();
			assertThat(status(client, other.url())).isEqualTo(200);
			Duration otherTook = Duration.ofNanos(System.nanoTime() - otherStart);

			assertThat(first.get(20, TimeUnit.SECONDS)).isEqualTo(200);
			assertThat(second.get(20, TimeUnit.SECONDS)).isEqualTo(200);
			// The retry of the first request and the held second one both leave at the
			// boundary (2 s after the 429 left the origin), plus at most 20% jitter.
			List<Duration> later = origin.arrivalsAfterFirstReply();
			assertThat(later).hasSize(2)
				.allSatisfy((arrival) -> assertThat(arrival).isBetween(Duration.ofSeconds(2), Duration.ofMillis(3500)));
			assertThat(otherTook).isLessThan(Duration.ofSeconds(1));
			callers.shutdownNow();
		});
	}

	@Test
	void whenRetryAfterIsHugeThenLaterRequestsFailFastForAtMostTheMaxDuration() {
		TimedOrigin origin = origin(new Reply(429, "9".repeat(30)));
		this.contextRunner.run((context) -> {
			RestClient client = restClient(context);
			assertThat(status(client, origin.url())).isEqualTo(429);
			for (int i = 0; i < 3; i++) {
				assertThatExceptionOfType(ResourceAccessException.class).isThrownBy(() -> status(client, origin.url()))
					.havingRootCause()
					.isInstanceOfSatisfying(RetryRefusedException.class, (refused) -> {
						assertThat(refused.getReason()).isEqualTo(StopReason.COOLDOWN);
						assertThat(refused.getOrigin()).isEqualTo("http://127.0.0.1:" + origin.port());
						assertThat(refused.getTimeLeft()).isBetween(Duration.ofSeconds(50), Duration.ofSeconds(60));
					});
			}
			assertThat(origin.requestCount()).isEqualTo(1);
		});
	}

	@Test
	void whenACooldownThatHeldNobodyHasEndedThenTheNextRequestIsSentAtOnce() throws InterruptedException {
		// A 2 s budget cannot wait out Retry-After: 3, so every request during the cooldown is
		// refused and none is held. Jitter 1 would make a release window of 3 s more after the
		// instant, if one were kept for requests that were never held.
		TimedOrigin origin = origin(new Reply(429, "3"), new Reply(200, null));
		this.contextRunner.withPropertyValues("retry-after.total-budget=2s", "retry-after.jitter=1")
			.run((context) -> {
				RestClient client = restClient(context);
				assertThat(status(client, origin.url())).isEqualTo(429);
				long received = System.nanoTime();
				assertThatExceptionOfType(ResourceAccessException.class).isThrownBy(() -> status(client, origin.url()))
					.havingRootCause()
					.isInstanceOf(RetryRefusedException.class);
				Thread.sleep(Math.max(0, Duration.ofMillis(3300).minusNanos(System.nanoTime() - received).toMillis()));

				assertThat(status(client, origin.url())).isEqualTo(200);
				assertThat(origin.requestCount()).isEqualTo(2);
			});
	}

	@Test
	void whenModeIsFailFastThenARequestDuringTheCooldownIsRefusedAtOnce() {
		TimedOrigin origin = origin(new Reply(429, "30"));
		this.contextRunner.withPropertyValues("retry-after.cooldown.mode=fail-fast", "retry-after.max-attempts=1")
			.run((context) -> {
				RestClient client = restClient(context);
				assertThat(status(client, origin.url())).isEqualTo(429);
				long start = System.nanoTime();
				assertThatExceptionOfType(ResourceAccessException.class).isThrownBy(() -> status(client, origin.url()))
					.havingRootCause()
					.isInstanceOf(RetryRefusedException.class)
					.withMessageStartingWith("Request to http://127.0.0.1:" + origin.port() + " not sent: cooldown, ");
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
				assertThat(origin.requestCount()).isEqualTo(1);
			});
	}

	@Test
	void whenCooldownIsDisabledThenRequestsAreNotHeld() {
		TimedOrigin origin = origin(new Reply(429, "30"), new Reply(200, null));
		this.contextRunner.withPropertyValues("retry-after.cooldown.enabled=false", "retry-after.max-attempts=1")
			.run((context) -> {
				RestClient client = restClient(context);
				assertThat(status(client, origin.url())).isEqualTo(429);
				assertThat(status(client, origin.url())).isEqualTo(200);
				assertThat(context.getBean(CooldownStore.class).snapshot(System.nanoTime())).isEmpty();
			});
	}

	@Nested
	class SharedThroughRedis {

		@RegisterExtension
		final RedisServerExtension redis = new RedisServerExtension();

		@Test
		void whenOneInstanceSeesA429ThenAnotherInstanceIsHeldBackUntilTheBoundary() {
			TimedOrigin origin = origin(new Reply(429, "3"), new Reply(200, null));
			// Shared for the route the 429 answered, as it is kept locally.
			CooldownKey key = CooldownKey.of(Origin.of("http", "127.0.0.1", origin.port()))
				.withScope(CooldownScope.route("/report"));
			ApplicationContextRunner instance = OriginProtectionEndToEndTests.this.contextRunner
				.withConfiguration(AutoConfigurations.of(RetryAfterRedisAutoConfiguration.class,
						DataRedisAutoConfiguration.class))
				.withPropertyValues("retry-after.store=redis", "retry-after.max-attempts=1",
						"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + this.redis.server().port(),
						"spring.data.redis.timeout=500ms");
			instance.run((first) -> instance.run((second) -> {
				assertThat(first.getBean(CooldownStore.class)).isInstanceOf(RedisCooldownStore.class);
				CooldownStore secondStore = second.getBean(CooldownStore.class);

				assertThat(status(restClient(first), origin.url())).isEqualTo(429);
				await().atMost(Duration.ofSeconds(10))
					.until(() -> secondStore.remaining(key, System.nanoTime()).compareTo(Duration.ZERO) > 0);
				assertThat(status(restClient(second), origin.url())).isEqualTo(200);

				assertThat(origin.requestCount()).isEqualTo(2);
				// Shared as epoch milliseconds rounded up: never earlier than the origin asked.
				assertThat(origin.arrivalsAfterFirstReply()).singleElement()
					.satisfies((arrival) -> assertThat(arrival).isBetween(Duration.ofMillis(2990),
							Duration.ofMillis(4600)));
			}));
		}

	}

	private TimedOrigin origin(Reply... replies) {
		TimedOrigin origin = new TimedOrigin(List.of(replies));
		this.origins.add(origin);
		return origin;
	}

	private static RestClient restClient(ApplicationContext context) {
		return context.getBean(RestClient.Builder.class).build();
	}

	private static int status(RestClient client, String url) {
		ResponseEntity<Void> response = client.get()
			.uri(url)
			.retrieve()
			.onStatus((status) -> true, (request, ignored) -> {
			})
			.toBodilessEntity();
		return response.getStatusCode().value();
	}

	/**
	 * A scripted reply: a status and an optional {@code Retry-After} value.
	 */
	private record Reply(int status, String retryAfter) {
	}

	/**
	 * An origin on 127.0.0.1 that answers from a script (the last reply repeating) and notes
	 * when each request arrived, on the monotonic clock.
	 */
	private static final class TimedOrigin implements AutoCloseable {

		private final HttpServer server;

		private final List<Reply> script;

		private final List<Long> arrivals = new ArrayList<>();

		private long firstReplySent;

		TimedOrigin(List<Reply> script) {
			this.script = script;
			try {
				this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
			this.server.createContext("/", this::handle);
			this.server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
			this.server.start();
		}

		private void handle(HttpExchange exchange) throws IOException {
			long arrival = System.nanoTime();
			try (exchange; InputStream body = exchange.getRequestBody()) {
				body.readAllBytes();
				Reply reply;
				synchronized (this) {
					this.arrivals.add(arrival);
					reply = this.script.get(Math.min(this.arrivals.size(), this.script.size()) - 1);
				}
				if (reply.retryAfter() != null) {
					exchange.getResponseHeaders().add("Retry-After", reply.retryAfter());
				}
				// Stamped before sending: no client can receive the reply earlier, while a stamp
				// taken after sending is late whenever this thread is descheduled in between.
				synchronized (this) {
					if (this.arrivals.size() == 1) {
						this.firstReplySent = System.nanoTime();
					}
				}
				exchange.sendResponseHeaders(reply.status(), -1);
			}
		}

		String url() {
			return "http://127.0.0.1:" + port() + "/report";
		}

		int port() {
			return this.server.getAddress().getPort();
		}

		synchronized int requestCount() {
			return this.arrivals.size();
		}

		/** When each request after the first arrived, measured from the first reply's sending. */
		synchronized List<Duration> arrivalsAfterFirstReply() {
			return this.arrivals.stream()
				.skip(1)
				.map((arrival) -> Duration.ofNanos(arrival - this.firstReplySent))
				.toList();
		}

		@Override
		public void close() {
			this.server.stop(0);
		}

	}

}
