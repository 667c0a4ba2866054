package dev.retryafter.autoconfigure;

import java.io.IOException;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.frameworkretry.RetryAfterFrameworkRetryAutoConfiguration;
import dev.retryafter.frameworkretry.RetryAfterRetryPolicy;
import dev.retryafter.frameworkretry.RetryAfterRetryTemplate;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.retry.NonTransientAiException;
import org.springframework.ai.retry.TransientAiException;
import org.springframework.ai.retry.autoconfigure.SpringAiRetryAutoConfiguration;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.web.client.ResponseErrorHandler;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Next to Spring AI's retry auto-configuration, which defines its {@code RetryTemplate} only
 * when none exists: Spring AI keeps its own template (on its {@code spring.ai.retry.*}
 * settings) and the starter's is reached by name. A call as Spring AI's models make it (a
 * Boot-built {@code RestClient} with Spring AI's error handler, inside Spring AI's template)
 * against a loopback origin shows what each layer retries.
 */
class SpringAiRetryTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterFrameworkRetryAutoConfiguration.class, SpringAiRetryAutoConfiguration.class,
				HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class))
		.withBean(Consumer.class)
		// No real waiting: these tests count requests.
		.withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s",
				"spring.ai.retry.backoff.initial-interval=1ms", "spring.ai.retry.backoff.max-interval=1ms");

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start()
			.on("/busy", Reply.status(503))
			.on("/limited", Reply.status(429).header("Retry-After", "0"), Reply.status(200).body("ready"));
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	@Test
	void springAiKeepsItsOwnRetryTemplateAndTheStartersIsReachedByName() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			Consumer consumer = context.getBean(Consumer.class);
			assertThat(consumer.byType).isSameAs(context.getBean("retryTemplate"))
				.isNotInstanceOf(RetryAfterRetryTemplate.class);
			assertThat(consumer.byName).isSameAs(context.getBean("retryAfterRetryTemplate"))
				.isInstanceOf(RetryAfterRetryTemplate.class);
			assertThat(consumer.policyByName).isInstanceOf(RetryAfterRetryPolicy.class);
			assertThat(consumer.byName.getRetryPolicy()).isSameAs(consumer.policyByName);
		});
	}

	@Test
	void springAiRetriesA5xxAroundTheStartersRetriesAndTheAttemptsMultiply() {
		this.contextRunner.withPropertyValues("spring.ai.retry.max-attempts=2").run((context) -> {
			assertThatExceptionOfType(RetryException.class).isThrownBy(() -> call(context, "/busy"))
				.withCauseInstanceOf(TransientAiException.class);
			// Spring AI's 1 + 2 retries, each the starter's 3 attempts.
			assertThat(this.origin.requests()).hasSize(3 * 3);
		});
	}

	@Test
	void withSpringAiMaxAttemptsZeroTheStarterIsTheOnlyLayer() {
		this.contextRunner.withPropertyValues("spring.ai.retry.max-attempts=0").run((context) -> {
			assertThatExceptionOfType(RetryException.class).isThrownBy(() -> call(context, "/busy"))
				.withCauseInstanceOf(TransientAiException.class);
			assertThat(this.origin.requests()).hasSize(3);
		});
	}

	@Test
	void a429IsRetriedByTheStarterOnlySinceSpringAiTakesItForNonTransient() {
		this.contextRunner.run((context) -> {
			assertThat(call(context, "/limited")).isEqualTo("ready");
			assertThat(this.origin.requestLines()).containsExactly("GET /limited", "GET /limited");
		});
		this.origin.on("/limited", Reply.status(429).header("Retry-After", "0"));
		this.contextRunner.run((context) -> {
			assertThatExceptionOfType(RetryException.class).isThrownBy(() -> call(context, "/limited"))
				.withCauseInstanceOf(NonTransientAiException.class);
			// The starter's 3 attempts, once: Spring AI's template did not retry.
			assertThat(this.origin.requests()).hasSize(2 + 3);
		});
	}

	/** What a Spring AI model does: Spring AI's error handler, inside Spring AI's template. */
	private String call(AssertableApplicationContext context, String path) throws RetryException {
		RestClient client = context.getBean(RestClient.Builder.class)
			.defaultStatusHandler(context.getBean(ResponseErrorHandler.class))
			.build();
		RetryTemplate springAi = context.getBean(Consumer.class).byType;
		return springAi.execute(() -> client.get().uri(this.origin.uri(path)).retrieve().body(String.class));
	}

	static class Consumer {

		final RetryTemplate byType;

		final RetryTemplate byName;

		final RetryPolicy policyByName;

		Consumer(RetryTemplate byType, @Qualifier("retryAfterRetryTemplate") RetryTemplate byName,
				@Qualifier("retryAfterRetryPolicy") RetryPolicy policyByName) {
			this.byType = byType;
			this.byName = byName;
			this.policyByName = policyByName;
		}

	}

}
