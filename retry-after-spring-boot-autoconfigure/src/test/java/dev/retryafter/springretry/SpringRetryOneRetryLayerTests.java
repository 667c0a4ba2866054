package dev.retryafter.springretry;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.springretry.RetryAfterBackOffPolicyTests.RecordingSleeper;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.AttemptCompleted;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.retry.annotation.EnableRetry;
import org.springframework.retry.annotation.Retryable;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.backoff.NoBackOffPolicy;
import org.springframework.retry.interceptor.RetryInterceptorBuilder;
import org.springframework.retry.interceptor.RetryOperationsInterceptor;
import org.springframework.retry.policy.SimpleRetryPolicy;
import org.springframework.retry.support.RetryTemplate;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * One retry layer when a spring-retry template drives a client from Spring Boot's
 * auto-configured {@code RestClient.Builder}, which carries the retry interceptor, against a
 * real loopback origin: with {@link RetryAfterBackOffPolicy} the template retries and the
 * interceptor sends one attempt per template attempt; with another back-off policy, or
 * Spring Framework's own retry, both layers retry, as documented.
 */
class SpringRetryOneRetryLayerTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class));

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start()
			.on("/limited", Reply.status(429).header("Retry-After", "1"))
			.on("/report", Reply.status(429).header("Retry-After", "2"), Reply.status(200).body("ready"))
			.on("/much-later", Reply.status(429).header("Retry-After", "120"))
			.on("/busy", Reply.status(429).header("Retry-After", "0"));
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	/**
	 * Real time, as an application sees it: three template attempts, three requests, the
	 * second after the server's one second, the third after the larger local backoff (2 s).
	 */
	@Test
	void templateWithThePolicyBeanSendsMaxAttemptsRequestsWaitingForRetryAfter() {
		this.contextRunner.run((context) -> {
			RetryTemplate template = template(3, context.getBean(RetryAfterBackOffPolicy.class));
			RestClient client = context.getBean(RestClient.Builder.class).build();
			List<Long> starts = new ArrayList<>();

			assertThatExceptionOfType(HttpClientErrorException.TooManyRequests.class)
				.isThrownBy(() -> template.execute((retry) -> {
					starts.add(System.nanoTime());
					return get(client, "/limited");
				}));

			assertThat(this.origin.requestLines()).containsExactly("GET /limited", "GET /limited", "GET /limited");
			assertThat(starts).hasSize(3);
			assertThat(Duration.ofNanos(starts.get(1) - starts.get(0))).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
			assertThat(Duration.ofNanos(starts.get(2) - starts.get(1))).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
		});
	}

	@Test
	void templateWithThePolicySucceedsOnItsSecondAttemptAfterTheServersWait() {
		FakeClock clock = new FakeClock();
		RecordingSleeper sleeper = new RecordingSleeper(clock);
		RecordingListener listener = new RecordingListener();
		// The interceptor's hold for the origin's cooldown would wait in real time here,
		// where the policy's wait is only recorded.
		this.contextRunner.withPropertyValues("retry-after.cooldown.enabled=false")
			.withBean(RecordingListener.class, () -> listener)
			.run((context) -> {
				RetryTemplate template = template(3, fakePolicy(clock, sleeper));
				RestClient client = context.getBean(RestClient.Builder.class).build();

				String body = template.execute((retry) -> get(client, "/report"));

				assertThat(body).isEqualTo("ready");
				assertThat(this.origin.requestLines()).containsExactly("GET /report", "GET /report");
				// 2 s + 0.5 x 0.2 x 2 s
				assertThat(sleeper.sleeps()).containsExactly(2200L);
				assertThat(listener.attempts()).extracting(AttemptCompleted::decision)
					.containsExactly(new RetryDecision.Stop(StopReason.OUTER_RETRY),
							new RetryDecision.Stop(StopReason.SUCCESS));
			});
	}

	@Test
	void retryableMethodWithThePolicySendsMaxAttemptsRequestsWaitingForRetryAfter() {
		this.contextRunner.withPropertyValues("retry-after.cooldown.enabled=false")
			.withUserConfiguration(RetryableReportConfiguration.class)
			.run((context) -> {
				ReportClient reports = context.getBean(ReportClient.class);

				assertThatExceptionOfType(HttpClientErrorException.TooManyRequests.class)
					.isThrownBy(() -> reports.fetch(this.origin.uri("/limited")));

				assertThat(this.origin.requestLines()).containsExactly("GET /limited", "GET /limited",
						"GET /limited");
				// The server's 1 s, then the larger local backoff of 2 s; plus 0.5 x 0.2 of each
				assertThat(context.getBean(RecordingSleeper.class).sleeps()).containsExactly(1100L, 2200L);
			});
	}

	@Test
	void whenThePolicyStopsBeforeAWaitThenTheLastResponseIsTheCause() {
		this.contextRunner.run((context) -> {
			RetryTemplate template = template(3, context.getBean(RetryAfterBackOffPolicy.class));
			RestClient client = context.getBean(RestClient.Builder.class).build();

			BackOffInterruptedException stopped = catchThrowableOfType(BackOffInterruptedException.class,
					() -> template.execute((retry) -> get(client, "/much-later")));

			assertThat(stopped).hasMessageContaining("reason retry-after-too-long")
				.hasCauseInstanceOf(HttpClientErrorException.TooManyRequests.class);
			RestClientResponseException last = RetryAfterBackOffPolicy.lastResponse(stopped);
			assertThat(last).isSameAs(stopped.getCause());
			assertThat(last.getResponseHeaders().getFirst("Retry-After")).isEqualTo("120");
			assertThat(this.origin.requestLines()).containsExactly("GET /much-later");
		});
	}

	/**
	 * Another back-off policy leaves no mark: the interceptor retries inside each template
	 * attempt (3 x 2 requests), as the README says.
	 */
	@Test
	void templateWithAnotherBackOffPolicyMultipliesAttempts() {
		this.contextRunner.withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s")
			.run((context) -> {
				RetryTemplate template = template(2, new NoBackOffPolicy());
				RestClient client = context.getBean(RestClient.Builder.class).build();

				assertThatExceptionOfType(HttpClientErrorException.TooManyRequests.class)
					.isThrownBy(() -> template.execute((retry) -> get(client, "/busy")));

				assertThat(this.origin.requests()).hasSize(6);
			});
	}

	@Test
	void templateWithAnotherBackOffPolicyAroundAClientWithoutTheInterceptorSendsItsOwnAttemptsOnly() {
		this.contextRunner.run((context) -> {
			RetryTemplate template = template(2, new NoBackOffPolicy());
			RestClient client = withoutRetryInterceptor(context);

			assertThatExceptionOfType(HttpClientErrorException.TooManyRequests.class)
				.isThrownBy(() -> template.execute((retry) -> get(client, "/busy")));

			assertThat(this.origin.requests()).hasSize(2);
		});
	}

	@Test
	void frameworkRetryTemplateMultipliesAttempts() {
		this.contextRunner.withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s")
			.run((context) -> {
				org.springframework.core.retry.RetryTemplate template = new org.springframework.core.retry.RetryTemplate(
						RetryPolicy.builder().maxRetries(1).delay(Duration.ZERO).build());
				RestClient client = context.getBean(RestClient.Builder.class).build();

				assertThatExceptionOfType(RetryException.class)
					.isThrownBy(() -> template.execute(() -> get(client, "/busy")));

				assertThat(this.origin.requests()).hasSize(6);
			});
	}

	@Test
	void frameworkRetryTemplateAroundAClientWithoutTheInterceptorSendsItsOwnAttemptsOnly() {
		this.contextRunner.run((context) -> {
			org.springframework.core.retry.RetryTemplate template = new org.springframework.core.retry.RetryTemplate(
					RetryPolicy.builder().maxRetries(1).delay(Duration.ZERO).build());
			RestClient client = withoutRetryInterceptor(context);

			assertThatExceptionOfType(RetryException.class)
				.isThrownBy(() -> template.execute(() -> get(client, "/busy")));

			assertThat(this.origin.requests()).hasSize(2);
		});
	}

	@Test
	void withoutSpringRetryTheInterceptorRetriesByItself() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.retry"))
			.withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(OuterRetryDetector.class);
				RestClient client = context.getBean(RestClient.Builder.class).build();

				assertThatExceptionOfType(HttpClientErrorException.TooManyRequests.class)
					.isThrownBy(() -> get(client, "/busy"));

				assertThat(this.origin.requests()).hasSize(3);
			});
	}

	private String get(RestClient client, String path) {
		return client.get().uri(this.origin.uri(path)).retrieve().body(String.class);
	}

	private static RetryTemplate template(int maxAttempts,
			org.springframework.retry.backoff.BackOffPolicy backOffPolicy) {
		RetryTemplate template = new RetryTemplate();
		template.setRetryPolicy(new SimpleRetryPolicy(maxAttempts, Map.of(RestClientResponseException.class, true)));
		template.setBackOffPolicy(backOffPolicy);
		return template;
	}

	/** The README's recipe: Boot's builder, with everything but the retry interceptor. */
	private static RestClient withoutRetryInterceptor(AssertableApplicationContext context) {
		return context.getBean(RestClient.Builder.class)
			.requestInterceptors((interceptors) -> interceptors.removeIf(RetryAfterInterceptor.class::isInstance))
			.build();
	}

	private static RetryAfterBackOffPolicy fakePolicy(FakeClock clock, RecordingSleeper sleeper) {
		return new RetryAfterBackOffPolicy(RetrySettings.defaults(), sleeper, clock, clock,
				RetryAfterBackOffPolicyTests.HALF);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableRetry
	static class RetryableReportConfiguration {

		@Bean
		RecordingSleeper recordingSleeper() {
			return new RecordingSleeper(new FakeClock());
		}

		@Bean
		RetryAfterBackOffPolicy retryAfterBackOffPolicy(RecordingSleeper sleeper) {
			return fakePolicy(new FakeClock(), sleeper);
		}

		@Bean
		RetryOperationsInterceptor reportRetryInterceptor(RetryAfterBackOffPolicy backOffPolicy) {
			return RetryInterceptorBuilder.stateless()
				.retryPolicy(new SimpleRetryPolicy(3, Map.of(RestClientResponseException.class, true)))
				.backOffPolicy(backOffPolicy)
				.build();
		}

		@Bean
		ReportClient reportClient(RestClient.Builder builder) {
			return new ReportClient(builder.build());
		}

	}

	/**
	 * An application service calling the origin, retried by spring-retry's interceptor.
	 */
	static class ReportClient {

		private final RestClient client;

		ReportClient(RestClient client) {
			this.client = client;
		}

		@Retryable(interceptor = "reportRetryInterceptor")
		String fetch(URI uri) {
			return this.client.get().uri(uri).retrieve().body(String.class);
		}

	}

}
