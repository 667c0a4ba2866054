package dev.retryafter.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.metrics.RetryAfterMetrics;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.store.RedisCooldownStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Three separate client contexts (three services, or three instances of one) sharing one
 * rate-limited origin that announces its quota on every response. Each context reads the
 * same fields and paces on its own, so together they send up to three times what the quota
 * allows; the shared store then spreads the cooldowns the origin's {@code 429}s start. Run
 * once with each context on its own local store and once with the three on one Redis
 * ({@code redis-server} started on loopback for the run).
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.SharedQuotaBenchmark}
 * with options {@code --requests=500 --threads=51 --contexts=3 --rate=50 --burst=50
 * --fields=ietf --stores=local,redis --out=benchmarks/results}.
 */
public final class SharedQuotaBenchmark {

	private static final long RUN_TIMEOUT_MILLIS = 180_000;

	private SharedQuotaBenchmark() {
	}

	/**
	 * What the contexts did together against the origin.
	 */
	record Result(String store, int sent, int rejected, int succeeded, int failed, double seconds, int held) {

		double sentPerSuccess() {
			return QueuedCalls.sentPerSuccess(this.sent, this.succeeded);
		}

	}

	/**
	 * Runs the work once per store.
	 * @param args see the class description
	 * @throws Exception if Redis cannot be started
	 */
	public static void main(String[] args) throws Exception {
		Options options = Options.parse(args);
		int requests = options.integer("requests", 500);
		int threads = options.integer("threads", 51);
		int contexts = options.integer("contexts", 3);
		int rate = options.integer("rate", 50);
		int burst = options.integer("burst", rate);
		TokenBucketOrigin.Fields fields = TokenBucketOrigin.Fields.of(options.string("fields", "ietf"));
		List<String> stores = options.list("stores", "local,redis");
		Path out = Path.of(options.string("out", "benchmarks/results"));
		System.out.println(ResultFiles.environment());
		List<Result> results = new ArrayList<>();
		for (String store : stores) {
			Result r = switch (store) {
				case "local" -> run("local", requests, threads, contexts, rate, burst, fields,
						() -> new LocalCooldownStore(new OriginProtection(OriginProtection.DEFAULT_MAX_HOSTS)), () -> {
						});
				case "redis" -> redis(requests, threads, contexts, rate, burst, fields);
				default -> throw new IllegalArgumentException("Unknown store '" + store + "': local or redis");
			};
			results.add(r);
			System.out.printf("%-6s sent=%4d 429s=%4d ok=%4d failed=%4d sent/ok=%5s time=%5.1f s held=%d%n", r.store(),
					r.sent(), r.rejected(), r.succeeded(), r.failed(), Stats.format2(r.sentPerSuccess()), r.seconds(),
					r.held());
		}
		StringBuilder md = new StringBuilder();
		md.append(requests).append(" GETs from ").append(threads).append(" threads spread over ").append(contexts)
			.append(" separate client contexts (each its own interceptor, pacing and retry budget, default settings)")
			.append("; one origin for all: token bucket of ").append(rate).append(" requests/s, burst ").append(burst)
			.append(", announcing its quota with ").append(fields.label).append(" on every response. ")
			.append(ResultFiles.environment()).append(".\n\n");
		md.append("| store | sent | 429s received | ended 200 | calls failed | sent per success | time to finish s "
				+ "| requests held |\n");
		md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (Result r : results) {
			md.append("| ").append(r.store()).append(" | ").append(r.sent()).append(" | ").append(r.rejected())
				.append(" | ").append(r.succeeded()).append(" | ").append(r.failed()).append(" | ")
				.append(Stats.format2(r.sentPerSuccess())).append(" | ").append(Stats.format(r.seconds()))
				.append(" | ").append(r.held()).append(" |\n");
		}
		ResultFiles.write(out.resolve("rate-limit-shared.md"), md.toString());
	}

	private static Result redis(int requests, int threads, int contexts, int rate, int burst,
			TokenBucketOrigin.Fields fields) throws Exception {
		try (RedisProcess redis = new RedisProcess()) {
			redis.start();
			List<LettuceConnectionFactory> factories = new ArrayList<>();
			List<RedisCooldownStore> stores = new ArrayList<>();
			Supplier<CooldownStore> store = () -> {
				LettuceConnectionFactory factory = new LettuceConnectionFactory(
						new RedisStandaloneConfiguration("127.0.0.1", redis.port()),
						LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
				factory.afterPropertiesSet();
				factory.start();
				factories.add(factory);
				RedisCooldownStore shared = new RedisCooldownStore(factory,
						new OriginProtection(OriginProtection.DEFAULT_MAX_HOSTS), "retry-after:shared-quota:");
				shared.start();
				stores.add(shared);
				return shared;
			};
			return run("redis", requests, threads, contexts, rate, burst, fields, store, () -> {
				stores.forEach(RedisCooldownStore::close);
				factories.forEach(LettuceConnectionFactory::destroy);
			});
		}
	}

	private static Result run(String name, int requests, int threads, int contexts, int rate, int burst,
			TokenBucketOrigin.Fields fields, Supplier<CooldownStore> stores, Runnable cleanup)
			throws InterruptedException {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(RetrySettings.defaults());
		List<Caller> callers = new ArrayList<>();
		List<SimpleMeterRegistry> registries = new ArrayList<>();
		try (TokenBucketOrigin origin = new TokenBucketOrigin(rate, burst, fields)) {
			for (int c = 0; c < contexts; c++) {
				SimpleMeterRegistry registry = new SimpleMeterRegistry();
				registries.add(registry);
				RetryAfterInterceptor interceptor = new RetryAfterInterceptor(clients, new RetryAfterMetrics(registry),
						stores.get(), new RetryBudgets(clients, MonotonicClock.SYSTEM), OuterRetryDetector.NEVER);
				callers.add(Contender.intercepted(interceptor, threads));
			}
			QueuedCalls calls = QueuedCalls.run(requests, threads, RUN_TIMEOUT_MILLIS,
					(thread, i) -> callers.get(thread % contexts).get(origin.uri(i)));
			int succeeded = calls.succeeded();
			int held = 0;
			for (SimpleMeterRegistry registry : registries) {
				held += (int) registry.find(RetryAfterMetrics.COOLDOWN_HELD)
					.timers()
					.stream()
					.mapToLong((timer) -> timer.count())
					.sum();
			}
			return new Result(name, origin.requests(), origin.rejected(), succeeded, requests - succeeded,
					calls.seconds(), held);
		}
		finally {
			callers.forEach(Caller::close);
			cleanup.run();
		}
	}

}
