package dev.retryafter.benchmarks;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import brave.sampler.Sampler;
import dev.retryafter.client.BenchmarkInterceptors;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.Sleeper;
import dev.retryafter.observation.RetryAfterObservations;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The four traced {@link RestClient}s of {@link TracedCallBenchmark} and
 * {@link TracedCallInterleaved}, (a) to (d): an {@link ObservationRegistry} wired to Micrometer Tracing on
 * Brave as Spring Boot wires it (every trace sampled, finished spans counted and dropped), so
 * each call has Spring's {@code http.client.requests} span; each pair differs only in whether
 * {@link RetryAfterObservations} listens. The retried pair runs on
 * {@link ThrottlingRequestFactory} ({@code 429} with {@code Retry-After: 1}, then
 * {@code 200}), its wait stubbed out and its cooldown off.
 *
 * @param happy answered {@code 200} at once, Spring's span only
 * @param happyWithAttempts the same with the attempt observation
 * @param retried retried once, Spring's span only
 * @param retriedWithAttempts the same with the attempt and wait observations
 * @param happyMetered answered {@code 200} at once, on a registry with Micrometer's meter
 * handler only (what Actuator sets up without a tracer): Spring's timer only
 * @param happyMeteredWithAttempts the same with the starter's observations listening, which
 * follow only traced calls: none here
 * @param tracing the tracer, closed by {@link #close()}
 */
record TracedClients(RestClient happy, RestClient happyWithAttempts, RestClient retried,
		RestClient retriedWithAttempts, RestClient happyMetered, RestClient happyMeteredWithAttempts,
		Tracing tracing) implements AutoCloseable {

	static final List<String> NAMES = List.of("a_happyTraced", "b_happyTracedWithAttempts", "c_retriedOnceTraced",
			"d_retriedOnceTracedWithAttempts", "e_happyMetered", "f_happyMeteredWithAttempts");

	private static final Sleeper NO_WAIT = (duration) -> {
	};

	/**
	 * Builds the tracer and the clients, and checks that each call ends with the {@code 200}
	 * and that the observations add their spans (one per attempt and per wait).
	 */
	static TracedClients create() {
		AtomicLong spans = new AtomicLong();
		Tracing tracing = Tracing.newBuilder().sampler(Sampler.ALWAYS_SAMPLE).addSpanHandler(new SpanHandler() {

			@Override
			public boolean end(TraceContext context, MutableSpan span, Cause cause) {
				spans.incrementAndGet();
				return false;
			}

		}).build();
		BraveTracer tracer = new BraveTracer(tracing.tracer(),
				new BraveCurrentTraceContext(tracing.currentTraceContext()), new BraveBaggageManager());
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig()
			.observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
					new PropagatingSenderTracingObservationHandler<>(tracer, new BravePropagator(tracing)),
					new DefaultTracingObservationHandler(tracer)));
		ClientSettingsCatalog defaults = ClientSettingsCatalog.of(RetrySettings.defaults());
		RetrySettings.Cooldown cooldown = RetrySettings.defaults().cooldown();
		ClientSettingsCatalog cooldownOff = ClientSettingsCatalog.of(RetrySettings.defaults()
			.withCooldown(new RetrySettings.Cooldown(false, cooldown.mode(), cooldown.statuses(),
					cooldown.partitionHeaders())));
		RetryAfterObservations observations = new RetryAfterObservations(registry);
		InMemoryRequestFactory transport = new InMemoryRequestFactory();
		ObservationRegistry metered = ObservationRegistry.create();
		metered.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
		TracedClients clients = new TracedClients(client(registry, transport, defaults, RetryListener.NONE),
				client(registry, transport, defaults, observations),
				client(registry, new ThrottlingRequestFactory(), cooldownOff, RetryListener.NONE),
				client(registry, new ThrottlingRequestFactory(), cooldownOff, observations),
				client(metered, transport, defaults, RetryListener.NONE),
				client(metered, transport, defaults, new RetryAfterObservations(metered)), tracing);
		check(clients.happy(), spans, 1);
		check(clients.happyWithAttempts(), spans, 1 + 1);
		check(clients.retried(), spans, 1);
		check(clients.retriedWithAttempts(), spans, 1 + 2 + 1);
		return clients;
	}

	private static void check(RestClient client, AtomicLong spans, long expectedSpans) {
		long before = spans.get();
		String body = HappyPathClients.get(client);
		if (!body.contains("ok")) {
			throw new IllegalStateException("Expected the 200's body, got " + body);
		}
		long added = spans.get() - before;
		if (added != expectedSpans) {
			throw new IllegalStateException("Expected " + expectedSpans + " spans, got " + added);
		}
	}

	private static RestClient client(ObservationRegistry registry, ClientHttpRequestFactory transport,
			ClientSettingsCatalog clients, RetryListener listener) {
		return RestClient.builder()
			.observationRegistry(registry)
			.requestFactory(transport)
			.requestInterceptor(BenchmarkInterceptors.sleepingThrough(clients, listener, NO_WAIT))
			.build();
	}

	List<RestClient> all() {
		return List.of(this.happy, this.happyWithAttempts, this.retried, this.retriedWithAttempts, this.happyMetered,
				this.happyMeteredWithAttempts);
	}

	@Override
	public void close() {
		this.tracing.close();
	}

}
