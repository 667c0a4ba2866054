package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.frameworkretry.RetryAfterFrameworkRetryAutoConfiguration;
import dev.retryafter.autoconfigure.metrics.RetryAfterMetricsAutoConfiguration;
import dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration;
import dev.retryafter.frameworkretry.RetryAfterReactorRetry;
import dev.retryafter.frameworkretry.RetryAfterRetryPolicy;
import dev.retryafter.frameworkretry.RetryAfterRetryTemplate;
import dev.retryafter.springretry.RetryAfterBackOffPolicy;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
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
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.retry.RetryException;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;
import org.springframework.retry.policy.SimpleRetryPolicy;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * One test per row of the README's "who retries" table, against a loopback origin that
 * always answers {@code 503 Retry-After: 1}: the exact number of requests, that none reached
 * the origin before the instant the previous answer asked for (the origin's own stamps: the
 * previous answer written out, this request read), and the meters. Three attempts in every
 * row; the local backoff is 100 ms and jitter is off, so each wait is the server's second.
 * <p>
 * The rows built on the application's own retry policy, back-off or Reactor {@code Retry}
 * cannot be seen from inside and multiply; they are shown with {@code Retry-After: 0} and
 * no backoff, which costs no time, here and in {@code SpringRetryOneRetryLayerTests}.
 */
class OneRetryLayerEndToEndTests {

	private static final Duration SERVER_ASKED = Duration.ofSeconds(1);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterWebClientAutoConfiguration.class, RetryAfterFrameworkRetryAutoConfiguration.class,
				RetryAfterMetricsAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, ReactiveHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class, WebClientAutoConfiguration.class, MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
		.withPropertyValues("retry-after.jitter=0", "retry-after.backoff.initial=100ms",
				"retry-after.backoff.max=100ms");

	private LoopbackHttpServer origin;

	@BeforeEach
	void startOrigin() throws IOException {
		this.origin = LoopbackHttpServer.start()
			.on("/unavailable", Reply.status(503).header("Retry-After", "1"))
			.on("/busy", Reply.status(503).header("Retry-After", "0"));
	}

	@AfterEach
	void stopOrigin() throws IOException {
		this.origin.close();
	}

	@Test
	void interceptorAlone() {
		this.contextRunner.run((context) -> {
			assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
				.isThrownBy(() -> get(restClient(context), "/unavailable"));

			assertRequestsNeverEarly(3);
			assertAttempts(context, 2, 1);
			assertAbandoned(context, "max-attempts");
		});
	}

	@Test
	void filterAlone() {
		this.contextRunner.run((context) -> {
			assertThatExceptionOfType(WebClientResponseException.ServiceUnavailable.class)
				.isThrownBy(() -> get(webClient(context), "/unavailable").block());

			assertRequestsNeverEarly(3);
			assertAttempts(context, 2, 1);
			assertAbandoned(context, "max-attempts");
		});
	}

	@Test
	void springRetryTemplateWithRetryAfterBackOffPolicy() {
		this.contextRunner.run((context) -> {
			org.springframework.retry.support.RetryTemplate template = new org.springframework.retry.support.RetryTemplate();
			template.setRetryPolicy(new SimpleRetryPolicy(3, Map.of(RestClientResponseException.class, true)));
			template.setBackOffPolicy(context.getBean(RetryAfterBackOffPolicy.class));
			RestClient client = restClient(context);

			assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
				.isThrownBy(() -> template.execute((retry) -> get(client, "/unavailable")));

			assertRequestsNeverEarly(3);
			// Each request handed over to the template, which gives up on its own.
			assertAttempts(context, 3, 0);
			assertAbandoned(context);
		});
	}

	@Test
	void frameworkRetryTemplateWithRetryAfterRetryPolicy() {
		this.contextRunner.run((context) -> {
			RetryAfterRetryTemplate template = context.getBean(RetryAfterRetryTemplate.class);
			RestClient client = restClient(context);

			RetryException exhausted = catchThrowableOfRetry(() -> template.execute(() -> get(client, "/unavailable")));

			assertThat(exhausted.getCause()).isInstanceOf(HttpServerErrorException.ServiceUnavailable.class);
			assertRequestsNeverEarly(3);
			assertAttempts(context, 3, 0);
			assertAbandoned(context, "max-attempts");
		});
	}

	@Test
	void retryableBlockingMethod() {
		this.contextRunner.withUserConfiguration(RetryableReportsConfiguration.class).run((context) -> {
			Reports reports = context.getBean(Reports.class);

			assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
				.isThrownBy(() -> reports.blocking(this.origin.uri("/unavailable").toString()));

			assertRequestsNeverEarly(3);
			assertAttempts(context, 3, 0);
			assertAbandoned(context);
		});
	}

	/**
	 * A blocking method that waits for a {@code WebClient}: the filter finds the invocation
	 * on the thread that subscribes.
	 */
	@Test
	void retryableBlockingMethodCallingAWebClient() {
		this.contextRunner.withUserConfiguration(RetryableReportsConfiguration.class).run((context) -> {
			Reports reports = context.getBean(Reports.class);

			assertThatExceptionOfType(WebClientResponseException.ServiceUnavailable.class)
				.isThrownBy(() -> reports.blockingWebClient(this.origin.uri("/unavailable").toString()));

			assertRequestsNeverEarly(3);
			assertAttempts(context, 3, 0);
			assertAbandoned(context);
		});
	}

	@Test
	void retryableReactiveMethod() {
		this.contextRunner.withUserConfiguration(RetryableReportsConfiguration.class).run((context) -> {
			Reports reports = context.getBean(Reports.class);

			Throwable failure = catchThrowable(() -> reports.reactive(this.origin.uri("/unavailable").toString())
				.block(Duration.ofSeconds(30)));

			assertThat(failure).hasRootCauseInstanceOf(WebClientResponseException.ServiceUnavailable.class);
			assertRequestsNeverEarly(3);
			assertAttempts(context, 3, 0);
			assertAbandoned(context);
		});
	}

	/**
	 * A {@code @Retryable} whose {@code includes} do not cover an error response: Spring
	 * would not retry it, so the interceptor keeps its own retries (3 requests, none early)
	 * rather than handing the first back to no one.
	 */
	@Test
	void retryableMethodWhoseIncludesDoNotCoverTheFailureKeepsTheStartersRetries() {
		this.contextRunner.withUserConfiguration(RetryableReportsConfiguration.class).run((context) -> {
			Reports reports = context.getBean(Reports.class);

			assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
				.isThrownBy(() -> reports.retriedOnIoFailuresOnly(this.origin.uri("/unavailable").toString()));

			assertRequestsNeverEarly(3);
			assertAttempts(context, 2, 1);
			assertAbandoned(context, "max-attempts");
		});
	}

	/**
	 * The HTTP call made on Boot's {@code applicationTaskExecutor}: the starter's task
	 * decorator carries the invocation there, so it is one layer still.
	 */
	@Test
	void retryableMethodCallingOnBootsApplicationTaskExecutor() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
			.withUserConfiguration(RetryableReportsConfiguration.class)
			.run((context) -> {
				Reports reports = context.getBean(Reports.class);

				assertThat(catchThrowable(() -> reports.onExecutor(this.origin.uri("/unavailable").toString())))
					.isInstanceOf(CompletionException.class)
					.hasCauseInstanceOf(HttpServerErrorException.ServiceUnavailable.class);

				assertRequestsNeverEarly(3);
				assertAttempts(context, 3, 0);
				assertAbandoned(context);
			});
	}

	/**
	 * A blocking call inside Reactor's {@code subscribeOn}, with Reactor's automatic context
	 * propagation on: the starter's thread-local accessor carries the invocation there.
	 */
	@Test
	void retryableMethodCallingInsideSubscribeOnWithContextPropagation() {
		Hooks.enableAutomaticContextPropagation();
		try {
			this.contextRunner.withUserConfiguration(RetryableReportsConfiguration.class).run((context) -> {
				Reports reports = context.getBean(Reports.class);

				assertThatExceptionOfType(HttpServerErrorException.ServiceUnavailable.class)
					.isThrownBy(() -> reports.insideSubscribeOn(this.origin.uri("/unavailable").toString()));

				assertRequestsNeverEarly(3);
				assertAttempts(context, 3, 0);
				assertAbandoned(context);
			});
		}
		finally {
			Hooks.disableAutomaticContextPropagation();
		}
	}

	/**
	 * A bare {@code ForkJoinPool.commonPool()} cannot be decorated: the call there is not
	 * seen and multiplies (3 x 3). Shown with {@code Retry-After: 0}.
	 */
	@Test
	void retryableMethodCallingOnTheCommonPoolMultiplies() {
		this.contextRunner.withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s")
			.withUserConfiguration(RetryableReportsConfiguration.class)
			.run((context) -> {
				Reports reports = context.getBean(Reports.class);

				assertThat(catchThrowable(() -> reports.onCommonPool(this.origin.uri("/busy").toString()))).isNotNull();

				assertThat(this.origin.requests()).hasSize(9);
			});
	}

	@Test
	void reactorRetryWhenWithTheStartersSpec() {
		this.contextRunner.run((context) -> {
			RetryAfterReactorRetry retry = context.getBean(RetryAfterReactorRetry.class);

			assertThatExceptionOfType(WebClientResponseException.ServiceUnavailable.class)
				.isThrownBy(() -> retry.retry(get(webClient(context), "/unavailable")).block(Duration.ofSeconds(30)));

			assertRequestsNeverEarly(3);
			assertAttempts(context, 3, 0);
			assertAbandoned(context, "max-attempts");
		});
	}

	/**
	 * Reactor's own {@code Retry.backoff} cannot be seen from inside: the filter retries
	 * within each of its attempts (3 x 3 requests), never earlier than asked, but the origin
	 * gets the product. Shown with {@code Retry-After: 0}.
	 */
	@Test
	void reactorRetryWhenWithRetryBackoffMultiplies() {
		this.contextRunner.withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s")
			.run((context) -> {
				Mono<String> call = get(webClient(context), "/busy").retryWhen(Retry.backoff(2, Duration.ZERO));

				assertThat(catchThrowable(() -> call.block(Duration.ofSeconds(30)))).isNotNull();

				assertThat(this.origin.requests()).hasSize(9);
			});
	}

	/**
	 * A plain {@code RetryTemplate} on the policy bean cannot be seen before its first
	 * attempt (it calls nothing on its policy before), so the interceptor spends its own
	 * attempts inside the template's first one, and the policy, told so, retries nothing
	 * more: 3 requests, none early.
	 */
	@Test
	void plainFrameworkRetryTemplateOnTheRetryAfterRetryPolicy() {
		this.contextRunner.run((context) -> {
			org.springframework.core.retry.RetryTemplate template = new org.springframework.core.retry.RetryTemplate(
					context.getBean(RetryAfterRetryPolicy.class));
			RestClient client = restClient(context);

			RetryException stopped = catchThrowableOfRetry(() -> template.execute(() -> get(client, "/unavailable")));

			assertThat(stopped.getCause()).isInstanceOf(HttpServerErrorException.ServiceUnavailable.class);
			assertRequestsNeverEarly(3);
			assertAttempts(context, 2, 1);
			assertAbandoned(context, "max-attempts");
		});
	}

	/**
	 * Spring Framework's {@code RetryTemplate} with the application's own policy cannot be
	 * seen either: 3 x 3 requests.
	 */
	@Test
	void frameworkRetryTemplateWithTheApplicationsOwnPolicyMultiplies() {
		this.contextRunner.withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s")
			.run((context) -> {
				org.springframework.core.retry.RetryTemplate template = new org.springframework.core.retry.RetryTemplate(
						org.springframework.core.retry.RetryPolicy.builder().maxRetries(2).delay(Duration.ZERO).build());
				RestClient client = restClient(context);

				assertThatExceptionOfType(RetryException.class)
					.isThrownBy(() -> template.execute(() -> get(client, "/busy")));

				assertThat(this.origin.requests()).hasSize(9);
			});
	}

	private void assertRequestsNeverEarly(int requests) {
		List<Long> received = this.origin.receivedNanos();
		List<Long> answered = this.origin.answeredNanos();
		assertThat(this.origin.requestLines()).hasSize(requests);
		for (int i = 1; i < requests; i++) {
			assertThat(Duration.ofNanos(received.get(i) - answered.get(i - 1)))
				.as("request %d after the answer to request %d", i + 1, i)
				.isGreaterThanOrEqualTo(SERVER_ASKED);
		}
	}

	private static void assertAttempts(AssertableApplicationContext context, double retried, double abandoned) {
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		assertThat(count(registry, "retried")).as("attempts retried or handed back").isEqualTo(retried);
		assertThat(count(registry, "abandoned")).as("attempts abandoned").isEqualTo(abandoned);
		assertThat(registry.find("http.client.retry.attempts").counters()).extracting((counter) -> counter.getId()
			.getTag("status")).containsOnly("503");
	}

	private static double count(MeterRegistry registry, String outcome) {
		Counter counter = registry.find("http.client.retry.attempts").tag("outcome", outcome).counter();
		return (counter != null) ? counter.count() : 0;
	}

	private static void assertAbandoned(AssertableApplicationContext context, String... reasons) {
		assertThat(context.getBean(MeterRegistry.class).find("http.client.retry.abandoned").counters())
			.extracting((counter) -> counter.getId().getTag("reason") + "=" + (int) counter.count())
			.containsExactlyInAnyOrder(java.util.Arrays.stream(reasons).map((reason) -> reason + "=1").toArray(String[]::new));
	}

	private static RetryException catchThrowableOfRetry(RetryCall call) {
		try {
			call.run();
		}
		catch (RetryException ex) {
			return ex;
		}
		throw new AssertionError("expected a RetryException");
	}

	private String get(RestClient client, String path) {
		return client.get().uri(this.origin.uri(path)).retrieve().body(String.class);
	}

	private Mono<String> get(WebClient client, String path) {
		return client.get().uri(this.origin.uri(path)).retrieve().bodyToMono(String.class);
	}

	private static RestClient restClient(AssertableApplicationContext context) {
		return context.getBean(RestClient.Builder.class).build();
	}

	private static WebClient webClient(AssertableApplicationContext context) {
		return context.getBean(WebClient.Builder.class).build();
	}

	@FunctionalInterface
	private interface RetryCall {

		void run() throws RetryException;

	}

	@Configuration(proxyBeanMethods = false)
	@EnableResilientMethods
	static class RetryableReportsConfiguration {

		@Bean
		Reports reports(RestClient.Builder restClientBuilder, WebClient.Builder webClientBuilder,
				@Qualifier("applicationTaskExecutor") ObjectProvider<Executor> applicationTaskExecutor) {
			return new Reports(restClientBuilder.build(), webClientBuilder.build(),
					applicationTaskExecutor.getIfAvailable(() -> Runnable::run));
		}

	}

	/**
	 * The methods the user wrote: two retries, 100 ms apart, against a server that
	 * asks for one second.
	 */
	static class Reports {

		private final RestClient restClient;

		private final WebClient webClient;

		private final Executor executor;

		Reports(RestClient restClient, WebClient webClient, Executor executor) {
			this.restClient = restClient;
			this.webClient = webClient;
			this.executor = executor;
		}

		@Retryable(maxRetries = 2, delay = 100, includes = ResourceAccessException.class)
		public String retriedOnIoFailuresOnly(String uri) {
			return this.restClient.get().uri(uri).retrieve().body(String.class);
		}

		@Retryable(maxRetries = 2, delay = 100, includes = RestClientResponseException.class)
		public String onExecutor(String uri) {
			return CompletableFuture
				.supplyAsync(() -> this.restClient.get().uri(uri).retrieve().body(String.class), this.executor)
				.join();
		}

		@Retryable(maxRetries = 2, delay = 100, includes = RestClientResponseException.class)
		public String insideSubscribeOn(String uri) {
			return Mono.fromCallable(() -> this.restClient.get().uri(uri).retrieve().body(String.class))
				.subscribeOn(Schedulers.boundedElastic())
				.block(Duration.ofSeconds(30));
		}

		@Retryable(maxRetries = 2, delay = 0, includes = RestClientResponseException.class)
		public String onCommonPool(String uri) {
			return CompletableFuture.supplyAsync(() -> this.restClient.get().uri(uri).retrieve().body(String.class))
				.join();
		}

		@Retryable(maxRetries = 2, delay = 100, includes = RestClientResponseException.class)
		public String blocking(String uri) {
			return this.restClient.get().uri(uri).retrieve().body(String.class);
		}

		@Retryable(maxRetries = 2, delay = 100, includes = WebClientResponseException.class)
		public String blockingWebClient(String uri) {
			return this.webClient.get().uri(uri).retrieve().bodyToMono(String.class).block(Duration.ofSeconds(30));
		}

		@Retryable(maxRetries = 2, delay = 100, includes = WebClientResponseException.class)
		public Mono<String> reactive(String uri) {
			return this.webClient.get().uri(uri).retrieve().bodyToMono(String.class);
		}

	}

}
