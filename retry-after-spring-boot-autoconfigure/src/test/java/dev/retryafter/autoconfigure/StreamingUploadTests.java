package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicBoolean;

import com.sun.net.httpserver.HttpServer;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.StreamingHttpOutputMessage;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The streaming upload clients of docs/REQUEST-BODIES.md: built without interceptors on Boot's request factory,
 * they send the body while it is being written (Spring buffers every body of a client with an
 * interceptor), and are not retried. Shown on a real loopback origin that signals when the first
 * bytes of a body arrived, while the body's writer waits for that signal: a buffered body
 * would reach the origin only after the writer finished.
 */
class StreamingUploadTests {

	private static final int FIRST_PART = 16 * 1024;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
				RestTemplateAutoConfiguration.class))
		.withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s");

	private final AtomicInteger requests = new AtomicInteger();

	private volatile CountDownLatch firstBytes = new CountDownLatch(1);

	private HttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		// Says when the first bytes of a body arrived, reads the rest, then asks for a retry.
		this.origin.createContext("/upload", (exchange) -> {
			try (exchange; InputStream body = exchange.getRequestBody()) {
				this.requests.incrementAndGet();
				if (body.read(new byte[1024]) > 0) {
					this.firstBytes.countDown();
				}
				body.transferTo(OutputStream.nullOutputStream());
				exchange.getResponseHeaders().add("Retry-After", "0");
				exchange.sendResponseHeaders(503, -1);
			}
		});
		this.origin.start();
	}

	@AfterEach
	void stopOrigin() {
		this.origin.stop(0);
	}

	@Test
	void whenBuiltOnBootsRequestFactoryWithoutInterceptorsThenARestClientStreamsTheBodyAndDoesNotRetry() {
		this.contextRunner.run((context) -> {
			// The snippet in docs/REQUEST-BODIES.md:
			RestClient uploads = RestClient.builder()
				.requestFactory(context.getBean(ClientHttpRequestFactory.class))
				.build();
			HttpStatusCode status = uploads.put()
				.uri(uri())
				.body(this::writeAndWaitForTheOrigin)
				.exchange((request, response) -> response.getStatusCode());
			assertThat(status.value()).isEqualTo(503);
			assertThat(this.streamed).isTrue();
			assertThat(this.requests).hasValue(1);
		});
	}

	@Test
	void whenBootsBuilderLosesItsInterceptorsThenARestClientStillBuffers() {
		this.contextRunner.run((context) -> {
			// Not the way: an emptied interceptor list still makes Spring buffer the body.
			RestClient emptied = context.getBean(RestClient.Builder.class).requestInterceptors(List::clear).build();
			AtomicBoolean arrivedWhileWriting = new AtomicBoolean(true);
			emptied.put().uri(uri()).body((out) -> {
				out.write(new byte[FIRST_PART]);
				out.flush();
				// Buffered, nothing can reach the origin before this writer returns, however long
				// it waits: the wait's length does not decide the outcome.
				arrivedWhileWriting.set(await(this.firstBytes, 200));
				out.write(new byte[FIRST_PART]);
			}).exchange((request, response) -> response.getStatusCode());
			assertThat(arrivedWhileWriting).isFalse();
			assertThat(this.requests).hasValue(1);
		});
	}

	@Test
	void whenBuiltWithoutInterceptorsThenARestTemplateStreamsTheBodyAndDoesNotRetry() {
		this.contextRunner.run((context) -> {
			// The snippet in docs/REQUEST-BODIES.md:
			RestTemplate uploads = context.getBean(RestTemplateBuilder.class).build();
			uploads.getInterceptors().clear();
			uploads.setErrorHandler((response) -> false);
			uploads.execute(uri(), HttpMethod.PUT, (request) -> {
				if (request instanceof StreamingHttpOutputMessage streaming) {
					streaming.setBody(this::writeAndWaitForTheOrigin);
				}
				else {
					writeAndWaitForTheOrigin(request.getBody());
				}
			}, (response) -> response.getStatusCode());
			assertThat(this.streamed).isTrue();
			assertThat(this.requests).hasValue(1);
		});
	}

	@Test
	void whenTheClientHasTheInterceptorThenTheBodyIsBufferedAndTheUploadIsRetried() {
		this.contextRunner.run((context) -> {
			RestClient client = context.getBean(RestClient.Builder.class).build();
			this.firstBytes = new CountDownLatch(1);
			client.put().uri(uri()).body((out) -> {
				out.write(new byte[FIRST_PART]);
				out.write(new byte[FIRST_PART]);
			}).exchange((request, response) -> response.getStatusCode());
			// A buffered body can be sent again: three attempts, as configured by default.
			assertThat(this.requests).hasValue(3);
		});
	}

	private volatile boolean streamed;

	private void writeAndWaitForTheOrigin(OutputStream out) throws IOException {
		out.write(new byte[FIRST_PART]);
		out.flush();
		// Streamed, the origin has the first part while this writer still runs.
		this.streamed = await(this.firstBytes, 30_000);
		out.write(new byte[FIRST_PART]);
	}

	private static boolean await(CountDownLatch latch, long millis) throws IOException {
		try {
			return latch.await(millis, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

	private URI uri() {
		return URI.create("http://127.0.0.1:" + this.origin.getAddress().getPort() + "/upload");
	}

}
