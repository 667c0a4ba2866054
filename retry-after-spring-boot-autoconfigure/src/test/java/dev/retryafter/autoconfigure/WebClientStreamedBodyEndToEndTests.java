package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.client.reactive.ClientHttpRequest;
import org.springframework.web.reactive.function.BodyInserter;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Request bodies a Boot-built {@code WebClient} cannot send twice, on a real loopback origin:
 * a body written with flushes (a streaming upload) and a body whose writing is cut short are
 * never retried, although the method (PUT) is repeatable and the origin asks for a retry.
 */
class WebClientStreamedBodyEndToEndTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterWebClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ReactiveHttpClientAutoConfiguration.class, WebClientAutoConfiguration.class))
		.withPropertyValues("retry-after.jitter=0", "retry-after.backoff.initial=20ms");

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start();
		this.origin.on("/upload", Reply.status(503).body("busy"), Reply.status(200).body("stored"));
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "reactor", "jdk" })
	void whenABodyIsWrittenWithFlushesThenTheRequestIsSentOnce(String connector) {
		AtomicInteger writes = new AtomicInteger();
		BodyInserter<Object, ClientHttpRequest> flushed = (message, context) -> {
			writes.incrementAndGet();
			return message.writeAndFlushWith(Flux.just(Flux.just(buffer("part 1\n")), Flux.just(buffer("part 2\n"))));
		};
		on(connector).run((context) -> {
			WebClient client = context.getBean(WebClient.Builder.class).build();

			assertThatExceptionOfType(WebClientResponseException.ServiceUnavailable.class)
				.isThrownBy(() -> client.put()
					.uri(this.origin.uri("/upload"))
					.body(flushed)
					.retrieve()
					.bodyToMono(String.class)
					.block(Duration.ofSeconds(10)));

			assertThat(this.origin.requests()).hasSize(1);
			assertThat(this.origin.requests().get(0).bodyText()).isEqualTo("part 1\npart 2\n");
			assertThat(writes).hasValue(1);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "reactor", "jdk" })
	void whenWritingABodyIsCutShortThenTheRequestIsNotSentAgain(String connector) {
		AtomicInteger subscriptions = new AtomicInteger();
		Flux<DataBuffer> cutShort = Flux.defer(() -> {
			subscriptions.incrementAndGet();
			return Flux.concat(Flux.just(buffer("x".repeat(1024))),
					Flux.error(new IOException("the upload's source went away")));
		});
		on(connector).run((context) -> {
			WebClient client = context.getBean(WebClient.Builder.class).build();

			assertThatExceptionOfType(WebClientRequestException.class).isThrownBy(() -> client.put()
				.uri(this.origin.uri("/upload"))
				.header("Content-Length", "4096")
				.body(BodyInserters.fromDataBuffers(cutShort))
				.retrieve()
				.bodyToMono(String.class)
				.block(Duration.ofSeconds(10)));

			assertThat(subscriptions).as("times the body was written").hasValue(1);
			assertThat(this.origin.acceptedConnections()).as("connections opened").isLessThanOrEqualTo(1);
		});
	}

	private ApplicationContextRunner on(String connector) {
		return this.contextRunner.withPropertyValues("spring.http.clients.reactive.connector=" + connector);
	}

	private static DataBuffer buffer(String text) {
		return DefaultDataBufferFactory.sharedInstance.wrap(text.getBytes(StandardCharsets.UTF_8));
	}

}
