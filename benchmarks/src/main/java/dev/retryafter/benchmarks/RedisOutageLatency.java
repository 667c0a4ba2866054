package dev.retryafter.benchmarks;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.RedisCooldownStore;
import org.apache.hc.client5.http.impl.classic.HttpClients;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * What a Redis outage does to requests and how soon the store notices it: two instances
 * (stores on their own connection factories, production heartbeat timings) share a real
 * {@code redis-server} on loopback; instance A's {@link RestClient} (with the interceptor)
 * sends requests to a loopback origin, and A records a cooldown for another origin after each
 * one, as a 429 elsewhere would. Three phases of {@code --requests} requests each: Redis
 * healthy, hung (SIGSTOP) and dead (SIGKILL). Prints each phase's request and record latency
 * percentiles, the time from the hang and from the death to the first counted error, the time
 * to recover, and whether the cooldown A recorded while Redis was dead reached B.
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.RedisOutageLatency
 * [--requests=10000] [--command-timeout-ms=60000]}. Needs {@code redis-server} on the
 * {@code PATH}. The default command timeout is Lettuce's (what an application that does not set
 * {@code spring.data.redis.timeout} gets), the worst case for noticing a hang.
 */
public final class RedisOutageLatency {

	private static final Duration AWAIT = Duration.ofSeconds(120);

	private static final int RECORDED_ORIGINS = 1000;

	private RedisOutageLatency() {
	}

	/**
	 * Runs the three phases and prints the results.
	 * @param args {@code --requests=N}, {@code --command-timeout-ms=N}
	 * @throws Exception if Redis or the origin cannot be started
	 */
	public static void main(String[] args) throws Exception {
		// Headers and body leave in one segment, not two held up by delayed ACKs (40 ms each).
		if (System.getProperty("sun.net.httpserver.nodelay") == null) {
			System.setProperty("sun.net.httpserver.nodelay", "true");
		}
		Options options = Options.parse(args);
		int requests = options.integer("requests", 10_000);
		Duration commandTimeout = Duration.ofMillis(options.integer("command-timeout-ms", 60_000));
		try (RedisProcess redis = new RedisProcess();
				LoopbackServer origin = new LoopbackServer((exchange) -> {
					byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
					exchange.sendResponseHeaders(200, body.length);
					exchange.getResponseBody().write(body);
					exchange.close();
				})) {
			redis.start();
			LettuceConnectionFactory factoryA = factory(redis.port(), commandTimeout);
			LettuceConnectionFactory factoryB = factory(redis.port(), commandTimeout);
			RedisCooldownStore a = new RedisCooldownStore(factoryA, new OriginProtection(OriginProtection.DEFAULT_MAX_HOSTS),
					"retry-after:bench:");
			RedisCooldownStore b = new RedisCooldownStore(factoryB, new OriginProtection(OriginProtection.DEFAULT_MAX_HOSTS),
					"retry-after:bench:");
			a.start();
			b.start();
			try {
				awaitTrue("both stores connected", () -> a.state().connected() && b.state().connected());
				ClientSettingsCatalog clients = ClientSettingsCatalog.of(RetrySettings.defaults());
				RestClient client = RestClient.builder()
					.requestFactory(new HttpComponentsClientHttpRequestFactory(
							HttpClients.custom().disableAutomaticRetries().build()))
					.requestInterceptor(new RetryAfterInterceptor(clients, RetryListener.NONE, a,
							new RetryBudgets(clients, MonotonicClock.SYSTEM), OuterRetryDetector.NEVER))
					.build();
				String uri = origin.uri("/items/42").toString();
				run(client, uri, a, 2_000);
				System.out.printf(Locale.ROOT, "| phase | requests | request p50 ms | request p99 ms | request max ms "
						+ "| record p99 ms | record max ms |%n| --- | --- | --- | --- | --- | --- | --- |%n");
				print("healthy", run(client, uri, a, requests));

				ErrorWatch hang = new ErrorWatch(a);
				ErrorWatch silence = new ErrorWatch(b);
				redis.pause();
				long pausedAt = System.nanoTime();
				print("hung (SIGSTOP)", run(client, uri, a, requests));
				Duration hangNoticed = hang.await(pausedAt);
				// B sends nothing but its heartbeat: it notices as it would a dropped subscription.
				Duration silenceNoticed = silence.await(pausedAt);
				redis.resume();
				long resumedAt = System.nanoTime();
				awaitTrue("recovery after the hang", () -> a.state().connected() && b.state().connected());
				Duration hangRecovered = Duration.ofNanos(System.nanoTime() - resumedAt);

				ErrorWatch death = new ErrorWatch(a);
				redis.kill();
				long killedAt = System.nanoTime();
				print("dead (SIGKILL)", run(client, uri, a, requests));
				Duration deathNoticed = death.await(killedAt);
				CooldownKey duringOutage = CooldownKey.of(Origin.of("http", "recorded-while-dead", -1));
				a.record(duringOutage, Duration.ofSeconds(60), System.nanoTime());
				redis.start();
				long restartedAt = System.nanoTime();
				awaitTrue("the cooldown recorded during the outage reaching B",
						() -> !b.remaining(duringOutage, System.nanoTime()).isZero());
				Duration published = Duration.ofNanos(System.nanoTime() - restartedAt);

				System.out.printf(Locale.ROOT, "%n| measure | value |%n| --- | --- |%n");
				System.out.printf(Locale.ROOT, "| command timeout | %d ms |%n", commandTimeout.toMillis());
				System.out.printf(Locale.ROOT, "| SIGSTOP to first counted error (A) | %d ms |%n", hangNoticed.toMillis());
				System.out.printf(Locale.ROOT, "| SIGSTOP to first counted error (B, heartbeat only) | %d ms |%n",
						silenceNoticed.toMillis());
				System.out.printf(Locale.ROOT, "| SIGCONT to both connected | %d ms |%n", hangRecovered.toMillis());
				System.out.printf(Locale.ROOT, "| SIGKILL to first counted error (A) | %d ms |%n", deathNoticed.toMillis());
				System.out.printf(Locale.ROOT, "| restart to B holding A's outage cooldown | %d ms |%n",
						published.toMillis());
				System.out.printf(Locale.ROOT, "| errors counted (A, B) | %d, %d |%n", a.errorCount(), b.errorCount());
				System.out.printf(Locale.ROOT, "| writes dropped (A) | %d |%n", a.droppedCount());
			}
			finally {
				a.close();
				b.close();
				factoryA.destroy();
				factoryB.destroy();
			}
		}
	}

	private static LettuceConnectionFactory factory(int port, Duration commandTimeout) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", port),
				LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	// One request, then one cooldown recorded for another origin, timed apart.
	private static double[][] run(RestClient client, String uri, RedisCooldownStore store, int requests) {
		double[] request = new double[requests];
		double[] record = new double[requests];
		for (int i = 0; i < requests; i++) {
			long start = System.nanoTime();
			client.get().uri(uri).retrieve().body(String.class);
			long sent = System.nanoTime();
			CooldownKey key = CooldownKey.of(Origin.of("http", "limited" + (i % RECORDED_ORIGINS), -1));
			store.record(key, Duration.ofSeconds(30), sent);
			long recorded = System.nanoTime();
			request[i] = (sent - start) / 1e6;
			record[i] = (recorded - sent) / 1e6;
		}
		Arrays.sort(request);
		Arrays.sort(record);
		return new double[][] { request, record };
	}

	private static void print(String phase, double[][] latencies) {
		double[] request = latencies[0];
		double[] record = latencies[1];
		System.out.printf(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s |%n", phase, request.length,
				Stats.format2(Stats.percentile(request, 50)), Stats.format2(Stats.percentile(request, 99)),
				Stats.format2(request[request.length - 1]), Stats.format2(Stats.percentile(record, 99)),
				Stats.format2(record[record.length - 1]));
	}

	/**
	 * Notes, on its own thread, when the store counts its next error.
	 */
	private static final class ErrorWatch {

		private final Thread thread;

		private volatile long countedAt;

		ErrorWatch(RedisCooldownStore store) {
			long before = store.errorCount();
			this.thread = new Thread(() -> {
				while (store.errorCount() == before) {
					try {
						TimeUnit.MILLISECONDS.sleep(1);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
				this.countedAt = System.nanoTime();
			}, "error-watch");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		Duration await(long since) throws InterruptedException {
			this.thread.join(AWAIT.toMillis());
			if (this.countedAt == 0) {
				throw new IllegalStateException("No error counted within " + AWAIT);
			}
			return Duration.ofNanos(this.countedAt - since);
		}

	}

	private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + AWAIT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Timed out waiting for " + what);
			}
			TimeUnit.MILLISECONDS.sleep(1);
		}
	}

}
