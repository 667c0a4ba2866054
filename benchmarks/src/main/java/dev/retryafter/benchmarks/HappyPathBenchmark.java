package dev.retryafter.benchmarks;

import java.util.concurrent.TimeUnit;

import dev.retryafter.client.RetryAfterInterceptor;
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
 * What a request that succeeds at once pays for the retry interceptor: a {@link RestClient}
 * GET against an in-memory transport, without interceptors, with a pass-through interceptor,
 * and with the {@link RetryAfterInterceptor}, without and with its meters
 * ({@link RetryAfterMetrics} on a {@link SimpleMeterRegistry}).
 *
 * <p>
 * Run: {@code java -jar benchmarks/target/benchmarks.jar HappyPathBenchmark -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HappyPathBenchmark {

	private HappyPathClients clients;

	/**
	 * Builds the clients once: building is not what is measured.
	 */
	@Setup
	public void setUp() {
		this.clients = HappyPathClients.create();
	}

	/**
	 * (a) no interceptor at all.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String a_noInterceptor() {
		return HappyPathClients.get(this.clients.a());
	}

	/**
	 * (b) one pass-through interceptor.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String b_noOpInterceptor() {
		return HappyPathClients.get(this.clients.b());
	}

	/**
	 * (c) the retry interceptor with the default settings, no meters.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String c_retryAfterInterceptor() {
		return HappyPathClients.get(this.clients.c());
	}

	/**
	 * (d) the retry interceptor with its meters: what the starter runs with Actuator present.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String d_retryAfterInterceptorWithMeters() {
		return HappyPathClients.get(this.clients.d());
	}

}
