package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.retryafter.api.RetryInterruptedException;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.metrics.RetryAfterMetricsAutoConfiguration;
import dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration;
import dev.retryafter.call.RecordedBytes;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.RecordedRequest;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application's total of bytes kept for retries ({@code retry-after.max-recorded-bytes}),
 * against a real loopback origin, with Boot-built clients: a call waiting behind a response
 * holds its copy's bytes, a second call whose body does not fit keeps nothing (and is not
 * failed for it), and every byte comes back when a call ends, however it ends. The waits are
 * real ({@code Retry-After} of whole seconds), so that the total is read while a call waits.
 */
class RecordedBytesEndToEndTests {

	private static final int BODY = 60 * 1024;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterWebClientAutoConfiguration.class, RetryAfterMetricsAutoConfiguration.class,
				HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				ReactiveHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
				WebClientAutoConfiguration.class, MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
		.withPropertyValues("retry-after.jitter=0", "retry-after.max-recorded-bytes=100KB",
				// Each call to the one loopback origin would otherwise be held by the other's cooldown.
				"retry-after.cooldown.enabled=false");

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start();
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	@Test
	void theDefaultTotalIs32MiBAndTheSettingSetsIt() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class))
			.run((context) -> assertThat(context.getBean(RecordedBytes.class).max()).isEqualTo(32L * 1024 * 1024));
		this.contextRunner
			.run((context) -> assertThat(context.getBean(RecordedBytes.class).max()).isEqualTo(100L * 1024));
	}

	@Test
	void whenTheTotalIsNegativeThenStartUpFailsNamingIt() {
		this.contextRunner.withPropertyValues("retry-after.max-recorded-bytes=-1B")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessage("Property retry-after.max-recorded-bytes with value '-1B' is invalid: must not be "
						+ "negative (0 keeps no body for a retry)"));
	}

	@Test
	void restClientWhileOneCallHoldsItsCopyASecondCopyIsNotKeptAndThatCallStillRetries() {
		this.origin.on("/first", Reply.status(429).header("Retry-After", "3").body(new byte[BODY]),
				Reply.status(200).body("first"));
		this.origin.on("/second", Reply.status(429).header("Retry-After", "1").body(new byte[BODY]),
				Reply.status(200).body("second"));
		this.contextRunner.run((context) -> {
			RestClient client = context.getBean(RestClient.Builder.class).build();
			RecordedBytes recorded = context.getBean(RecordedBytes.class);
			CompletableFuture<String> first = CompletableFuture
				.supplyAsync(() -> client.get().uri(this.origin.uri("/first")).retrieve().body(String.class));
			await().until(() -> recorded.held() == BODY);
			assertThat(gauge(context)).isEqualTo(BODY);

			String second = client.get().uri(this.origin.uri("/second")).retrieve().body(String.class);

			assertThat(second).isEqualTo("second");
			assertThat(overflow(context, "response")).isEqualTo(1.0);
			assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first");
			assertThat(this.origin.requestLines()).containsExactlyInAnyOrder("GET /first", "GET /first",
					"GET /second", "GET /second");
			assertThat(recorded.held()).isZero();
			assertThat(overflow(context, "request")).isZero();
		});
	}

	@Test
	void restClientACallInterruptedDuringItsWaitGivesItsBytesBack() {
		this.origin.on("/slow", Reply.status(429).header("Retry-After", "5").body(new byte[BODY]),
				Reply.status(200).body("never asked"));
		this.contextRunner.run((context) -> {
			RestClient client = context.getBean(RestClient.Builder.class).build();
			RecordedBytes recorded = context.getBean(RecordedBytes.class);
			AtomicReference<Throwable> failure = new AtomicReference<>();
			Thread caller = new Thread(() -> {
				try {
					client.get().uri(this.origin.uri("/slow")).retrieve().body(String.class);
				}
				catch (RuntimeException ex) {
					failure.set(ex);
				}
			});
			caller.start();
			await().until(() -> recorded.held() == BODY);
			caller.interrupt();
			caller.join(10_000);

			assertThat(failure.get()).isInstanceOf(ResourceAccessException.class)
				.cause()
				.isInstanceOf(RetryInterruptedException.class);
			assertThat(recorded.held()).isZero();
			assertThat(this.origin.requestLines()).containsExactly("GET /slow");
		});
	}

	@Test
	void webClientWhileOneCallHoldsItsBodyASecondBodyIsNotKeptAndThatCallIsHandedItsResponse() {
		byte[] firstBody = filled((byte) 'a');
		this.origin.on("/first", Reply.status(503).header("Retry-After", "3"), Reply.status(200).body("first"));
		this.origin.on("/second", Reply.status(503).header("Retry-After", "1"), Reply.status(200).body("second"));
		this.contextRunner.run((context) -> {
			WebClient client = context.getBean(WebClient.Builder.class).build();
			RecordedBytes recorded = context.getBean(RecordedBytes.class);
			CompletableFuture<String> first = client.post()
				.uri(this.origin.uri("/first"))
				.header("Idempotency-Key", "first-1")
				.bodyValue(firstBody)
				.retrieve()
				.bodyToMono(String.class)
				.toFuture();
			await().until(() -> recorded.held() == BODY);

			HttpStatusCode second = client.post()
				.uri(this.origin.uri("/second"))
				.header("Idempotency-Key", "second-1")
				.bodyValue(filled((byte) 'b'))
				.exchangeToMono((response) -> response.releaseBody().thenReturn(response.statusCode()))
				.block(Duration.ofSeconds(10));

			// Its body could not be kept, so it cannot be sent again: the 503 as received.
			assertThat(second.value()).isEqualTo(503);
			assertThat(overflow(context, "request")).isEqualTo(1.0);
			assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first");
			assertThat(this.origin.requests().stream().map(RecordedRequest::path).toList())
				.containsExactlyInAnyOrder("/first", "/first", "/second");
			assertThat(this.origin.requests().stream().filter((request) -> request.path().equals("/first")))
				.allSatisfy((request) -> assertThat(request.body()).isEqualTo(firstBody));
			await().until(() -> recorded.held() == 0);
		});
	}

	@Test
	void webClientACallCancelledDuringItsWaitGivesBackItsBodyAndItsResponseCopy() {
		this.origin.on("/slow", Reply.status(429).header("Retry-After", "5").body(new byte[10 * 1024]),
				Reply.status(200).body("never asked"));
		this.contextRunner.run((context) -> {
			WebClient client = context.getBean(WebClient.Builder.class).build();
			RecordedBytes recorded = context.getBean(RecordedBytes.class);
			Disposable call = client.post()
				.uri(this.origin.uri("/slow"))
				.header("Idempotency-Key", "slow-1")
				.bodyValue(filled((byte) 'c'))
				.retrieve()
				.bodyToMono(String.class)
				.subscribe((body) -> {
				}, (error) -> {
				});
			await().until(() -> recorded.held() == BODY + 10 * 1024);
			assertThat(gauge(context)).isEqualTo(BODY + 10 * 1024);

			call.dispose();

			await().until(() -> recorded.held() == 0);
			assertThat(this.origin.requestLines()).containsExactly("POST /slow");
		});
	}

	private static byte[] filled(byte value) {
		byte[] body = new byte[BODY];
		Arrays.fill(body, value);
		return body;
	}

	private static double gauge(AssertableApplicationContext context) {
		return context.getBean(MeterRegistry.class).get("http.client.retry.recorded.bytes").gauge().value();
	}

	private static double overflow(AssertableApplicationContext context, String body) {
		return context.getBean(MeterRegistry.class)
			.get("http.client.retry.recorded.overflow")
			.tag("body", body)
			.functionCounter()
			.count();
	}

}
