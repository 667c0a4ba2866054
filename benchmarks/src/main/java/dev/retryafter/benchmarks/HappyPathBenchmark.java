package dev.retryafter.benchmarks;

import java.net.URI;
import java.util.concurrent.TimeUnit;

import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
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

	private static final URI URI_ = URI.create("http://origin.test/items/42");

	private RestClient plain;

	private RestClient noOp;

	private RestClient retryAfter;

	private RestClient retryAfterWithMeters;

	/**
	 * Builds the clients once: building is not what is measured.
	 */
	@Setup
	public void setUp() {
		InMemoryRequestFactory transport = new InMemoryRequestFactory();
		this.plain = RestClient.builder().requestFactory(transport).build();
		this.noOp = RestClient.builder().requestFactory(transport).requestInterceptor(new NoOpInterceptor()).build();
		RetryClients clients = RetryClients.of(RetrySettings.defaults());
		this.retryAfter = RestClient.builder()
			.requestFactory(transport)
			.requestInterceptor(new RetryAfterInterceptor(clients, RetryListener.NONE))
			.build();
		this.retryAfterWithMeters = RestClient.builder()
			.requestFactory(transport)
			.requestInterceptor(new RetryAfterInterceptor(clients, new RetryAfterMetrics(new SimpleMeterRegistry())))
			.build();
	}

	/**
	 * (a) no interceptor at all.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String a_noInterceptor() {
		return this.plain.get().uri(URI_).retrieve().body(String.class);
	}

	/**
	 * (b) one pass-through interceptor.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String b_noOpInterceptor() {
		return this.noOp.get().uri(URI_).retrieve().body(String.class);
	}

	/**
	 * (c) the retry interceptor with the default settings, no meters.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String c_retryAfterInterceptor() {
		return this.retryAfter.get().uri(URI_).retrieve().body(String.class);
	}

	/**
	 * (d) the retry interceptor with its meters on a {@link SimpleMeterRegistry}: what the
	 * starter runs with Actuator present.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String d_retryAfterInterceptorWithMeters() {
		return this.retryAfterWithMeters.get().uri(URI_).retrieve().body(String.class);
	}

}
