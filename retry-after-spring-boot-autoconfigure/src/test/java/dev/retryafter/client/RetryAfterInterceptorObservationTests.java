package dev.retryafter.client;

import java.io.IOException;
import java.time.Duration;
import java.util.random.RandomGenerator;

import dev.retryafter.call.CallContext;
import dev.retryafter.client.HttpCaller.Kind;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.Sleeper;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.observation.DefaultRetryAttemptObservationConvention;
import dev.retryafter.observation.RetryAfterObservations;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import dev.retryafter.testsupport.RecordingSleeper;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The attempt and wait observations of the blocking adapter, on a fake clock with a recording
 * sleeper (no real waits), under the {@code http.client.requests} observation of a
 * {@code RestClient} observed in the same registry: holds, interrupted waits, errors, a client
 * that is not observed, and a convention of the application's own.
 */
class RetryAfterInterceptorObservationTests {

	private static final RetrySettings SINGLE_ATTEMPT = RetrySettings.defaults().withJitter(0).withMaxAttempts(1);

	private static final RandomGenerator MIDDLE = () -> Long.MIN_VALUE;

	private static final String ATTEMPT = DefaultRetryAttemptObservationConvention.NAME;

	private static final String WAIT = "http.client.retry.wait";

	private final FakeClock clock = new FakeClock();

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	private LoopbackHttpServer server;

	@BeforeEach
	void startServer() throws IOException {
		this.server = LoopbackHttpServer.start();
	}

	@AfterEach
	void stopServer() throws IOException {
		this.server.close();
	}

	/** The test registry has no tracer: follow every call that has a parent observation. */
	private RetryAfterObservations everyCall() {
		return new RetryAfterObservations(this.registry, null, null, false);
	}

	private RetryAfterInterceptor interceptor(RetrySettings settings, RetryListener listener, Sleeper sleeper) {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(settings);
		return Interceptors.create(clients, listener, new LocalCooldownStore(new OriginProtection(100)),
				new RetryBudgets(clients, this.clock), sleeper, this.clock, this.clock, MIDDLE);
	}

	/**
	 * A {@code RestClient} observed in the same registry, as Boot builds it: its
	 * {@code http.client.requests} observation is current while the interceptor runs.
	 */
	private RestClient observed(RetryAfterInterceptor interceptor, ClientHttpRequestInterceptor... downstream) {
		RestClient.Builder builder = RestClient.builder()
			.requestFactory(new JdkClientHttpRequestFactory())
			.observationRegistry(this.registry)
			.requestInterceptor(interceptor);
		for (ClientHttpRequestInterceptor each : downstream) {
			builder.requestInterceptor(each);
		}
		return builder.build();
	}

	private int get(RestClient client) {
		return client.get()
			.uri(this.server.uri("/report"))
			.exchange((request, response) -> response.getStatusCode().value());
	}

	@Test
	void whenACooldownHoldsTheNextRequestThenItsHoldIsACooldownWaitBetweenTheTwoAttempts() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3"), Reply.status(200).body("ready"));
		RestClient client = observed(interceptor(SINGLE_ATTEMPT, everyCall(),
				new RecordingSleeper(this.clock)));

		assertThat(get(client)).isEqualTo(429);
		assertThat(get(client)).isEqualTo(200);

		assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo(ATTEMPT, 2)
			.hasNumberOfObservationsWithNameEqualTo(WAIT, 1)
			.hasObservationWithNameEqualTo(WAIT)
			.that()
			.hasContextualNameEqualTo("http get cooldown hold")
			.hasLowCardinalityKeyValue("kind", "cooldown")
			.hasLowCardinalityKeyValue("outcome", "completed")
			.hasHighCardinalityKeyValue("retry.delay.planned", "PT3S")
			.hasHighCardinalityKeyValue("retry.delay.actual", "PT3S")
			.hasParentObservation()
			.hasBeenStopped();
		assertThat(this.registry).forAllObservationsWithNameEqualTo(ATTEMPT,
				(attempt) -> attempt.doesNotHaveHighCardinalityKeyValueWithKey("http.request.resend_count"));
		assertThat(this.registry).hasAnObservation((attempt) -> attempt.hasNameEqualTo(ATTEMPT)
			.hasLowCardinalityKeyValue("status", "429")
			.hasLowCardinalityKeyValue("outcome", "abandoned")
			.hasLowCardinalityKeyValue("decision", "max-attempts")
			.hasHighCardinalityKeyValue("retry.after", "PT3S"));
	}

	@Test
	void whenAWaitIsInterruptedThenItsObservationEndsWithReasonInterrupted() {
		this.server.on("/report", Reply.status(503).header("Retry-After", "2"), Reply.status(200));
		Sleeper interrupted = (duration) -> {
			throw new InterruptedException("stop");
		};
		RestClient client = observed(interceptor(RetrySettings.defaults().withJitter(0),
				everyCall(), interrupted));
		try {
			assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> get(client));
		}
		finally {
			Thread.interrupted();
		}

		assertThat(this.registry).hasObservationWithNameEqualTo(WAIT)
			.that()
			.hasLowCardinalityKeyValue("kind", "retry")
			.hasLowCardinalityKeyValue("outcome", "interrupted")
			.doesNotHaveHighCardinalityKeyValueWithKey("retry.delay.actual")
			.hasBeenStopped();
		assertThat(this.registry).hasObservationWithNameEqualTo(ATTEMPT)
			.that()
			.hasLowCardinalityKeyValue("decision", "retry")
			.hasHighCardinalityKeyValue("retry.delay.planned", "PT2S")
			.hasBeenStopped();
	}

	@Test
	void whenAnInterceptorAfterItThrowsThenTheAttemptObservationEndsWithTheError() {
		this.server.on("/report", Reply.status(200));
		IllegalStateException failure = new IllegalStateException("boom");
		ClientHttpRequestInterceptor throwing = (request, body, execution) -> {
			throw failure;
		};
		RestClient client = observed(interceptor(SINGLE_ATTEMPT, everyCall(),
				new RecordingSleeper(this.clock)), throwing);

		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> get(client));

		assertThat(this.registry).hasObservationWithNameEqualTo(ATTEMPT)
			.that()
			.hasError(failure)
			.hasLowCardinalityKeyValue("decision", "unknown")
			.hasBeenStopped();
	}

	@Test
	void whenTheClientIsNotObservedThenNothingIsObserved() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "1"), Reply.status(200));
		HttpCaller caller = Kind.REST_TEMPLATE_JDK.create(interceptor(RetrySettings.defaults().withJitter(0),
				everyCall(), new RecordingSleeper(this.clock)));

		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);

		assertThat(this.registry).doesNotHaveAnyObservation();
	}

	@Test
	void whenNoTracerFollowsTheCallThenTheStartersObservationsMakeNone() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "1"), Reply.status(200));
		RestClient client = observed(interceptor(RetrySettings.defaults().withJitter(0),
				new RetryAfterObservations(this.registry), new RecordingSleeper(this.clock)));

		assertThat(get(client)).isEqualTo(200);

		assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("http.client.requests", 1)
			.hasNumberOfObservationsWithNameEqualTo(ATTEMPT, 0)
			.hasNumberOfObservationsWithNameEqualTo(WAIT, 0);
	}

	@Test
	void whenTheApplicationHasAConventionOfItsOwnThenItNamesTheAttempts() {
		this.server.on("/report", Reply.status(200));
		DefaultRetryAttemptObservationConvention custom = new DefaultRetryAttemptObservationConvention() {

			@Override
			public KeyValues getLowCardinalityKeyValues(dev.retryafter.observation.RetryAttemptContext context) {
				return super.getLowCardinalityKeyValues(context).and("team", "payments");
			}

		};
		RestClient client = observed(interceptor(SINGLE_ATTEMPT, new RetryAfterObservations(this.registry, custom, null, false),
				new RecordingSleeper(this.clock)));

		assertThat(get(client)).isEqualTo(200);

		assertThat(this.registry).hasObservationWithNameEqualTo(ATTEMPT)
			.that()
			.hasLowCardinalityKeyValue("team", "payments")
			.hasLowCardinalityKeyValue("status", "200")
			.hasLowCardinalityKeyValue("decision", "success");
	}

	@Test
	void whenNoListenerWatchesCallsThenTheFirstAttemptShortcutStays() {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(SINGLE_ATTEMPT);
		assertThat(new CallContext(clients, RetryListener.NONE, new LocalCooldownStore(new OriginProtection(100)),
				new RetryBudgets(clients, this.clock), OuterRetryDetector.NEVER, this.clock, this.clock, MIDDLE).watched())
			.isFalse();
		assertThat(new CallContext(clients, RetryListener.composite(java.util.List.of(RetryListener.NONE,
				everyCall())), new LocalCooldownStore(new OriginProtection(100)),
				new RetryBudgets(clients, this.clock), OuterRetryDetector.NEVER, this.clock, this.clock, MIDDLE).watched())
			.isTrue();
	}

}
