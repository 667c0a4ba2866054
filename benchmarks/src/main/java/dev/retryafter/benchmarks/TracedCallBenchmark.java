package dev.retryafter.benchmarks;

import java.util.concurrent.TimeUnit;

import dev.retryafter.observation.RetryAfterObservations;
import io.micrometer.observation.ObservationRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.web.client.RestClient;

/**
 * What the attempt and wait observations cost under a real tracer: a {@link RestClient} with
 * an {@link ObservationRegistry} wired to Micrometer Tracing on Brave (every trace sampled,
 * finished spans counted and dropped), as Spring Boot wires it, so each call has Spring's
 * {@code http.client.requests} span. Each pair differs only in whether
 * {@link RetryAfterObservations} listens: (a)/(b) a call answered {@code 200} at once
 * (in-memory transport), (c)/(d) a call answered {@code 429} with {@code Retry-After: 1},
 * then {@code 200} ({@link ThrottlingRequestFactory}), the wait stubbed out and the cooldown
 * off, as in {@code RetriedCallBenchmark}'s (g).
 * <p>
 * Run: {@code java -jar benchmarks/target/benchmarks.jar TracedCallBenchmark -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TracedCallBenchmark {

	private TracedClients clients;

	/**
	 * Builds the tracer and the clients once, and checks that a retried call ends with the
	 * {@code 200} and that the observations add their spans.
	 */
	@Setup
	public void setUp() {
		this.clients = TracedClients.create();
	}

	/**
	 * Closes the tracer.
	 */
	@TearDown
	public void tearDown() {
		this.clients.close();
	}

	/**
	 * (a) a call answered at once, traced: Spring's span only.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String a_happyTraced() {
		return HappyPathClients.get(this.clients.happy());
	}

	/**
	 * (b) the same with the attempt observations: one more span.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String b_happyTracedWithAttempts() {
		return HappyPathClients.get(this.clients.happyWithAttempts());
	}

	/**
	 * (c) a call retried once, traced: Spring's span only.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String c_retriedOnceTraced() {
		return HappyPathClients.get(this.clients.retried());
	}

	/**
	 * (d) the same with the attempt and wait observations: three more spans.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String d_retriedOnceTracedWithAttempts() {
		return HappyPathClients.get(this.clients.retriedWithAttempts());
	}

	/**
	 * (e) a call answered at once on a registry with Micrometer's meter handler only, as
	 * Actuator sets it up without a tracer: Spring's timer only.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String e_happyMetered() {
		return HappyPathClients.get(this.clients.happyMetered());
	}

	/**
	 * (f) the same with the starter's observations listening: they follow only traced calls,
	 * so none is made.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String f_happyMeteredWithAttempts() {
		return HappyPathClients.get(this.clients.happyMeteredWithAttempts());
	}

}
