package dev.retryafter.autoconfigure;

import java.io.IOException;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.client.SentRequestFactory;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The transport under the interceptor must not retry on its own: retries happen at one layer
 * only. These tests send one request through the request factory Spring Boot
 * builds, without the retry interceptor, and count what reaches a real loopback origin.
 */
class SingleRetryLayerTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(RetryAfterAutoConfiguration.class,
					RetryAfterRestClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
					ImperativeHttpClientAutoConfiguration.class));

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start().on("/flaky", Reply.status(503).header("Retry-After", "0"));
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	@Test
	void httpClient5ShouldBeTheDetectedFactory() {
		// Seen through the starter's innermost element, which sees each request as sent.
		this.contextRunner.run((context) -> assertThat(context.getBean(ClientHttpRequestFactory.class))
			.asInstanceOf(InstanceOfAssertFactories.type(SentRequestFactory.class))
			.extracting(SentRequestFactory::delegate)
			.isInstanceOf(HttpComponentsClientHttpRequestFactory.class));
	}

	@Test
	void withoutStarterHttpClient5RetriesA503Itself() {
		this.contextRunner.withPropertyValues("retry-after.enabled=false").run((context) -> {
			assertThat(sendOnce(context)).isEqualTo(503);
			assertThat(this.origin.requests().size()).isEqualTo(2);
		});
	}

	@Test
	void withStarterHttpClient5SendsEachRequestOnce() {
		this.contextRunner.run((context) -> {
			assertThat(sendOnce(context)).isEqualTo(503);
			assertThat(this.origin.requests().size()).isEqualTo(1);
		});
	}

	@Test
	void withStarterJdkHttpClientSendsEachRequestOnce() {
		this.contextRunner.withPropertyValues("spring.http.clients.imperative.factory=jdk").run((context) -> {
			assertThat(context.getBean(ClientHttpRequestFactory.class))
				.asInstanceOf(InstanceOfAssertFactories.type(SentRequestFactory.class))
				.extracting(SentRequestFactory::delegate)
				.isInstanceOf(JdkClientHttpRequestFactory.class);
			assertThat(sendOnce(context)).isEqualTo(503);
			assertThat(this.origin.requests().size()).isEqualTo(1);
		});
	}

	private int sendOnce(AssertableApplicationContext context) {
		RestClient client = RestClient.builder().requestFactory(context.getBean(ClientHttpRequestFactory.class)).build();
		return client.get()
			.uri(this.origin.uri("/flaky"))
			.exchange((request, response) -> response.getStatusCode().value());
	}

}
