package dev.retryafter.reactive;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;

import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.observation.RetryAfterObservations;
import dev.retryafter.store.LocalCooldownStore;
import io.micrometer.observation.Observation;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;

import static dev.retryafter.reactive.ScriptedExchange.response;
import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;

/**
 * The attempt and wait observations of the reactive adapter, on virtual time, under a parent
 * observation found in the subscriber context under Micrometer's key, where
 * {@code WebClient} puts its {@code http.client.requests} observation.
 */
class RetryAfterExchangeFilterObservationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final URI URL = URI.create("http://127.0.0.1:8080/report");

	private final VirtualTimeScheduler scheduler = VirtualTimeScheduler.create();

	private final MonotonicClock clock = () -> this.scheduler.now(TimeUnit.NANOSECONDS);

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	private final ScriptedExchange exchange = new ScriptedExchange();

	private final Observation parent = Observation.start("http.client.requests", this.registry);

	private Mono<ClientResponse> call() {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(RetrySettings.defaults().withJitter(0));
		RetryAfterExchangeFilter filter = ExchangeFilters.create(clients,
				new RetryAfterObservations(this.registry, null, null, false), new LocalCooldownStore(new OriginProtection(100)),
				new RetryBudgets(clients, this.clock), this.scheduler, this.clock,
				Clock.fixed(Instant.parse("2026-03-01T10:00:00Z"), ZoneOffset.UTC), () -> 0L);
		return filter.filter(ClientRequest.create(HttpMethod.GET, URL).build(), this.exchange)
			.contextWrite((context) -> context.put(ObservationThreadLocalAccessor.KEY, this.parent));
	}

	@Test
	void whenA429IsRetriedThenBothAttemptsAndTheWaitAreChildrenOfTheContextsObservation() {
		ClientResponse ok = response(200);
		this.exchange.respond(response(429, "Retry-After", "1"), ok);
		StepVerifier.withVirtualTime(this::call, () -> this.scheduler, Long.MAX_VALUE)
			.expectSubscription()
			.thenAwait(Duration.ofSeconds(1))
			.expectNext(ok)
			.expectComplete()
			.verify(TIMEOUT);
		this.parent.stop();

		assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("http.client.retry.attempt", 2)
			.forAllObservationsWithNameEqualTo("http.client.retry.attempt",
					(attempt) -> attempt.hasParentObservationEqualTo(this.parent));
		assertThat(this.registry).hasAnObservation((attempt) -> attempt.hasNameEqualTo("http.client.retry.attempt")
			.hasLowCardinalityKeyValue("status", "429")
			.hasLowCardinalityKeyValue("decision", "retry")
			.hasHighCardinalityKeyValue("retry.after", "PT1S")
			.doesNotHaveHighCardinalityKeyValueWithKey("http.request.resend_count"));
		assertThat(this.registry).hasAnObservation((attempt) -> attempt.hasNameEqualTo("http.client.retry.attempt")
			.hasLowCardinalityKeyValue("status", "200")
			.hasLowCardinalityKeyValue("decision", "success")
			.hasHighCardinalityKeyValue("http.request.resend_count", "1"));
		assertThat(this.registry).hasObservationWithNameEqualTo("http.client.retry.wait")
			.that()
			.hasParentObservationEqualTo(this.parent)
			.hasLowCardinalityKeyValue("kind", "retry")
			.hasLowCardinalityKeyValue("outcome", "completed")
			.hasHighCardinalityKeyValue("retry.delay.planned", "PT1S")
			.hasHighCardinalityKeyValue("retry.delay.actual", "PT1S")
			.hasBeenStopped();
	}

	@Test
	void whenCancelledDuringAWaitThenTheWaitEndsWithReasonCancelled() {
		this.exchange.respond(response(503), response(200));
		StepVerifier.withVirtualTime(this::call, () -> this.scheduler, Long.MAX_VALUE)
			.expectSubscription()
			.thenAwait(Duration.ofMillis(500))
			.thenCancel()
			.verify(TIMEOUT);
		this.parent.stop();

		assertThat(this.registry).hasObservationWithNameEqualTo("http.client.retry.wait")
			.that()
			.hasLowCardinalityKeyValue("outcome", "cancelled")
			.doesNotHaveHighCardinalityKeyValueWithKey("retry.delay.actual")
			.hasBeenStopped();
		assertThat(this.registry).hasNumberOfObservationsWithNameEqualTo("http.client.retry.attempt", 1);
	}

	@Test
	void whenCancelledWhileAnAttemptIsUnderWayThenTheAttemptEnds() {
		this.exchange.reply(Mono::never);
		StepVerifier.withVirtualTime(this::call, () -> this.scheduler, Long.MAX_VALUE)
			.expectSubscription()
			.thenAwait(Duration.ofSeconds(5))
			.thenCancel()
			.verify(TIMEOUT);
		this.parent.stop();

		assertThat(this.registry).hasObservationWithNameEqualTo("http.client.retry.attempt")
			.that()
			.hasLowCardinalityKeyValue("decision", "unknown")
			.hasBeenStopped();
	}

}
