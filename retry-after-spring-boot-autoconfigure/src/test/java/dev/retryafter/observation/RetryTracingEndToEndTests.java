package dev.retryafter.observation;

import java.io.IOException;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import brave.handler.SpanHandler;
import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.metrics.RetryAfterMetricsAutoConfiguration;
import dev.retryafter.autoconfigure.observation.RetryAfterObservationAutoConfiguration;
import dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration;
import dev.retryafter.testsupport.InMemorySpans;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientObservationAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateObservationAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.boot.webclient.autoconfigure.WebClientObservationAutoConfiguration;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real tracer (Micrometer Tracing on Brave, and on OpenTelemetry, each wired by Spring
 * Boot's own auto-configuration, every trace sampled) against a loopback origin that answers {@code 429}, {@code 429},
 * {@code 200}: one client span, and under it three attempt spans and two wait spans, in the
 * order they happened. The first 429 asks for one second; the second has no
 * {@code Retry-After}, so the local backoff paces it (50 ms doubled for the second retry).
 */
class RetryTracingEndToEndTests {

	private static final String CLIENT_SPAN = "http get";

	private static final String ATTEMPT_SPAN = "http get attempt";

	private static final String WAIT_SPAN = "http get retry wait";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterWebClientAutoConfiguration.class, RetryAfterMetricsAutoConfiguration.class,
				RetryAfterObservationAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, ReactiveHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class, RestClientObservationAutoConfiguration.class,
				RestTemplateAutoConfiguration.class, RestTemplateObservationAutoConfiguration.class,
				WebClientAutoConfiguration.class, WebClientObservationAutoConfiguration.class,
				MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, ObservationAutoConfiguration.class,
				MicrometerTracingAutoConfiguration.class))
		.withPropertyValues("retry-after.jitter=0", "retry-after.backoff.initial=50ms",
				"management.tracing.sampling.probability=1.0");

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start();
		this.origin.on("/report", Reply.status(429).header("Retry-After", "1"), Reply.status(429),
				Reply.status(200).body("ready"));
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	@ParameterizedTest
	@CsvSource({ "RestClient, BRAVE", "RestTemplate, BRAVE", "RestClient, OPENTELEMETRY",
			"RestTemplate, OPENTELEMETRY" })
	void whenABlockingCallIsAnswered429Then429Then200ThenItsSpanHasThreeAttemptsAndTwoWaits(String client,
			Tracer tracer) {
		tracer.configure(this.contextRunner).run((context) -> {
			String body = client.equals("RestClient")
					? context.getBean(RestClient.Builder.class)
						.build()
						.get()
						.uri(this.origin.uri("/report"))
						.retrieve()
						.body(String.class)
					: context.getBean(RestTemplateBuilder.class)
						.build()
						.getForObject(this.origin.uri("/report"), String.class);
			assertThat(body).isEqualTo("ready");
			assertTrace(context, tracer.finished(context));
		});
	}

	@ParameterizedTest
	@EnumSource(Tracer.class)
	void whenAWebClientCallIsAnswered429Then429Then200ThenItsSpanHasThreeAttemptsAndTwoWaits(Tracer tracer) {
		tracer.configure(this.contextRunner).run((context) -> {
			String body = context.getBean(WebClient.Builder.class)
				.build()
				.get()
				.uri(this.origin.uri("/report"))
				.retrieve()
				.bodyToMono(String.class)
				.block(Duration.ofSeconds(10));
			assertThat(body).isEqualTo("ready");
			assertTrace(context, tracer.finished(context));
		});
	}

	@Test
	void whenObservationsAreSwitchedOffThenTheClientSpanIsAlone() {
		Tracer.BRAVE.configure(this.contextRunner)
			.withPropertyValues("retry-after.observations.enabled=false")
			.run((context) -> {
			assertThat(context).doesNotHaveBean(RetryAfterObservations.class);
			String body = context.getBean(RestClient.Builder.class)
				.build()
				.get()
				.uri(this.origin.uri("/report"))
				.retrieve()
				.body(String.class);
			assertThat(body).isEqualTo("ready");
			assertThat(Tracer.BRAVE.finished(context)).extracting(Span::name).containsExactly(CLIENT_SPAN);
		});
	}

	private void assertTrace(AssertableApplicationContext context, List<Span> spans) {
		List<Span> clientSpans = named(spans, CLIENT_SPAN);
		assertThat(clientSpans).hasSize(1);
		Span call = clientSpans.get(0);
		// Spring's own span keeps its name and its tags: the final status only.
		assertThat(call.tags()).containsEntry("status", "200").containsEntry("outcome", "SUCCESS");
		List<Span> attempts = named(spans, ATTEMPT_SPAN);
		List<Span> waits = named(spans, WAIT_SPAN);
		assertThat(spans).hasSize(1 + 3 + 2);
		assertThat(attempts).hasSize(3).allSatisfy((attempt) -> {
			assertThat(attempt.traceId()).isEqualTo(call.traceId());
			assertThat(attempt.parentId()).isEqualTo(call.id());
			assertThat(attempt.tags()).containsEntry("client", "default").containsEntry("method", "GET");
		});
		assertThat(attempts).extracting((span) -> span.tag("status")).containsExactly("429", "429", "200");
		assertThat(attempts).extracting((span) -> span.tag("decision")).containsExactly("retry", "retry", "success");
		assertThat(attempts).extracting((span) -> span.tag("outcome"))
			.containsExactly("retried", "retried", "success");
		assertThat(attempts).extracting((span) -> span.tag("http.request.resend_count"))
			.containsExactly(null, "1", "2");
		assertThat(attempts).extracting((span) -> span.tag("retry.after")).containsExactly("PT1S", null, null);
		assertThat(attempts).extracting((span) -> span.tag("retry.delay.planned"))
			.containsExactly("PT1S", "PT0.1S", null);
		assertThat(waits).hasSize(2).allSatisfy((wait) -> {
			assertThat(wait.parentId()).isEqualTo(call.id());
			assertThat(wait.tags()).containsEntry("kind", "retry").containsEntry("outcome", "completed");
			assertThat(Duration.parse(wait.tag("retry.delay.actual")))
				.isGreaterThanOrEqualTo(Duration.parse(wait.tag("retry.delay.planned")));
		});
		assertThat(waits).extracting((span) -> span.tag("retry.delay.planned")).containsExactly("PT1S", "PT0.1S");
		// In the order they happened: attempt, wait, attempt, wait, attempt, all within the call.
		List<Span> timeline = List.of(attempts.get(0), waits.get(0), attempts.get(1), waits.get(1), attempts.get(2));
		for (int i = 1; i < timeline.size(); i++) {
			assertThat(timeline.get(i).startMicros()).isGreaterThanOrEqualTo(timeline.get(i - 1).endMicros());
		}
		assertThat(attempts.get(0).startMicros()).isGreaterThanOrEqualTo(call.startMicros());
		assertThat(attempts.get(2).endMicros()).isLessThanOrEqualTo(call.endMicros());
		// The meters keep their names and values.
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		assertThat(registry.get("http.client.retry.attempts").tags("status", "429", "outcome", "retried").counter().count())
			.isEqualTo(2.0);
		assertThat(registry.get("http.client.retry.attempts").tags("status", "200", "outcome", "success").counter().count())
			.isEqualTo(1.0);
		assertThat(registry.get("http.client.retry.attempt").tags("status", "429", "decision", "retry").timer().count())
			.isEqualTo(2L);
		assertThat(registry.get("http.client.retry.wait").tags("kind", "retry").timer().count()).isEqualTo(2L);
	}

	private static List<Span> named(List<Span> spans, String name) {
		return spans.stream()
			.filter((span) -> span.name().equals(name))
			.sorted(Comparator.comparingLong(Span::startMicros))
			.toList();
	}

	/**
	 * A finished span as either tracer exports it.
	 *
	 * @param name the span name
	 * @param id the span id
	 * @param parentId the parent span id, or {@code null} for a root
	 * @param traceId the trace id
	 * @param tags the tags (attributes)
	 * @param startMicros the start, in microseconds since the epoch
	 * @param endMicros the end, in microseconds since the epoch
	 */
	record Span(String name, String id, @Nullable String parentId, String traceId, Map<String, String> tags,
			long startMicros, long endMicros) {

		@Nullable String tag(String key) {
			return this.tags.get(key);
		}

	}

	/**
	 * The two tracers Spring Boot wires for Micrometer Tracing, each with an in-memory
	 * reporter: Brave with a {@link SpanHandler} that keeps every span, OpenTelemetry with the
	 * SDK's {@link InMemorySpanExporter}.
	 */
	enum Tracer {

		BRAVE {

			@Override
			ApplicationContextRunner configure(ApplicationContextRunner runner) {
				return runner.withConfiguration(AutoConfigurations.of(BraveAutoConfiguration.class))
					.withBean(InMemorySpans.class);
			}

			@Override
			List<Span> finished(AssertableApplicationContext context) {
				return context.getBean(InMemorySpans.class)
					.all()
					.stream()
					.map((span) -> new Span(span.name(), span.id(), span.parentId(), span.traceId(),
							Map.copyOf(span.tags()), span.startTimestamp(), span.finishTimestamp()))
					.toList();
			}

		},

		OPENTELEMETRY {

			@Override
			ApplicationContextRunner configure(ApplicationContextRunner runner) {
				return runner
					.withConfiguration(AutoConfigurations.of(OpenTelemetrySdkAutoConfiguration.class,
							OpenTelemetryTracingAutoConfiguration.class))
					.withBean(InMemorySpanExporter.class, InMemorySpanExporter::create);
			}

			@Override
			List<Span> finished(AssertableApplicationContext context) {
				// Spans are exported in batches: flush what has finished.
				context.getBean(SdkTracerProvider.class).forceFlush().join(10, TimeUnit.SECONDS);
				return context.getBean(InMemorySpanExporter.class)
					.getFinishedSpanItems()
					.stream()
					.map((span) -> new Span(span.getName(), span.getSpanId(),
							span.getParentSpanContext().isValid() ? span.getParentSpanId() : null, span.getTraceId(),
							attributes(span), TimeUnit.NANOSECONDS.toMicros(span.getStartEpochNanos()),
							TimeUnit.NANOSECONDS.toMicros(span.getEndEpochNanos())))
					.toList();
			}

			private static Map<String, String> attributes(SpanData span) {
				Map<String, String> tags = new HashMap<>();
				span.getAttributes().forEach((key, value) -> tags.put(key.getKey(), String.valueOf(value)));
				return tags;
			}

		};

		abstract ApplicationContextRunner configure(ApplicationContextRunner runner);

		abstract List<Span> finished(AssertableApplicationContext context);

	}

}
