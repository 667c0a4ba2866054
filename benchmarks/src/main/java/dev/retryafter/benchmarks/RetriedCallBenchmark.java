package dev.retryafter.benchmarks;

import java.util.concurrent.TimeUnit;

import dev.retryafter.client.BenchmarkInterceptors;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.Sleeper;
import dev.retryafter.metrics.RetryAfterMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import org.springframework.web.client.RestClient;

/**
 * What a call that is retried once costs the retry interceptor, without the wait: a
 * {@link RestClient} GET against an in-memory transport that answers {@code 429} with
 * {@code Retry-After: 1}, then {@code 200} ({@link ThrottlingRequestFactory}), with the
 * sleeper stubbed out. Each call sends two requests and ends with the {@code 200}.
 * <p>
 * With the default settings each {@code 429} also starts the origin's cooldown, so every
 * later call is first held for it (the hold, too, goes through the stubbed sleeper): (e)
 * measures that whole path, (f) the same with meters, (g) the retry alone, with
 * {@code retry-after.cooldown.enabled=false}.
 * <p>
 * Run: {@code java -jar benchmarks/target/benchmarks.jar RetriedCallBenchmark -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RetriedCallBenchmark {

	private static final Sleeper NO_WAIT = (duration) -> {
	};

	private RestClient defaults;

	private RestClient withMeters;

	private RestClient cooldownOff;

	/**
	 * Builds the clients once, each on its own transport (so each sees its own 429, 200
	 * sequence), and checks that a call retries and ends with the {@code 200}.
	 */
	@Setup
	public void setUp() {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(RetrySettings.defaults());
		this.defaults = client(clients, RetryListener.NONE);
		this.withMeters = client(clients, new RetryAfterMetrics(new SimpleMeterRegistry()));
		RetrySettings.Cooldown cooldown = RetrySettings.defaults().cooldown();
		RetrySettings off = RetrySettings.defaults()
			.withCooldown(new RetrySettings.Cooldown(false, cooldown.mode(), cooldown.statuses(),
					cooldown.partitionHeaders()));
		this.cooldownOff = client(ClientSettingsCatalog.of(off), RetryListener.NONE);
		for (RestClient client : new RestClient[] { this.defaults, this.withMeters, this.cooldownOff }) {
			String body = HappyPathClients.get(client);
			if (!body.contains("ok")) {
				throw new IllegalStateException("Expected the 200's body after one retry, got " + body);
			}
		}
	}

	private static RestClient client(ClientSettingsCatalog clients, RetryListener listener) {
		return RestClient.builder()
			.requestFactory(new ThrottlingRequestFactory())
			.requestInterceptor(BenchmarkInterceptors.sleepingThrough(clients, listener, NO_WAIT))
			.build();
	}

	/**
	 * (e) the retry interceptor with the default settings: hold for the cooldown, 429, retry,
	 * 200.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String e_retriedOnce() {
		return HappyPathClients.get(this.defaults);
	}

	/**
	 * (f) the same with its meters on a {@link SimpleMeterRegistry}.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String f_retriedOnceWithMeters() {
		return HappyPathClients.get(this.withMeters);
	}

	/**
	 * (g) the retry alone: 429, retry, 200, with the cooldown off.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String g_retriedOnceCooldownOff() {
		return HappyPathClients.get(this.cooldownOff);
	}

}
