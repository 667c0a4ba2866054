package dev.retryafter.reactive;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;

import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.call.CallContext;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.spi.RetriedInvocation;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.AttemptCompleted;
import dev.retryafter.testsupport.RecordingListener.StoppedWithoutAttempt;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;

import static dev.retryafter.reactive.ScriptedExchange.response;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link RetryAfterExchangeFilter} inside an outer retry layer that puts a
 * {@link RetriedInvocation} in the Reactor context, on virtual time: one attempt per
 * subscription, handed back with its {@code Retry-After} instant, and a subscription that
 * comes earlier held until that instant or refused when the hold does not fit.
 */
class RetryAfterExchangeFilterOuterRetryTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final RetrySettings NO_JITTER = RetrySettings.defaults().withJitter(0);

	private final VirtualTimeScheduler scheduler = VirtualTimeScheduler.create();

	private final MonotonicClock clock = () -> this.scheduler.now(TimeUnit.NANOSECONDS);

	private final Clock wallClock = new Clock() {

		@Override
		public Instant instant() {
			return Instant.EPOCH.plusNanos(RetryAfterExchangeFilterOuterRetryTests.this.clock.nanoTime());
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

	};

	private final RecordingListener listener = new RecordingListener();

	private final ScriptedExchange exchange = new ScriptedExchange();

	private final RetriedInvocation invocation = new RetriedInvocation(0);

	private Mono<ClientResponse> call() {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(NO_JITTER);
		RetryAfterExchangeFilter filter = ExchangeFilters.create(clients, this.listener,
				new LocalCooldownStore(new OriginProtection(100)), new RetryBudgets(clients, this.clock), this.scheduler,
				this.clock, this.wallClock, () -> 0L);
		return filter.filter(ClientRequest.create(HttpMethod.GET, URI.create("http://127.0.0.1:8080/report")).build(),
				this.exchange)
			.contextWrite((context) -> context.put(RetriedInvocation.class, this.invocation));
	}

	@Test
	void whenInsideAnOuterLayerThenOneAttemptIsSentAndHandedBackWithItsInstant() {
		ClientResponse busy = response(503, "Retry-After", "1");
		this.exchange.respond(busy);

		StepVerifier.withVirtualTime(this::call, () -> this.scheduler, Long.MAX_VALUE)
			.expectNext(busy)
			.expectComplete()
			.verify(TIMEOUT);

		assertThat(this.exchange.sent()).hasSize(1);
		assertThat(this.listener.attempts()).extracting(AttemptCompleted::decision)
			.containsExactly(new RetryDecision.Stop(StopReason.OUTER_RETRY));
		assertThat(this.invocation.last().notBeforeNanos()).isEqualTo(Duration.ofSeconds(1).toNanos());
	}

	@Test
	void whenTheOuterLayerSubscribesBeforeTheInstantThenTheRequestIsHeldUntilIt() {
		ClientResponse ok = response(200);
		this.exchange.respond(ok);
		this.invocation.handedBack("default", "GET", serverAsked(Duration.ofSeconds(1)), 0);

		StepVerifier.withVirtualTime(this::call, () -> this.scheduler, Long.MAX_VALUE)
			.expectSubscription()
			.expectNoEvent(Duration.ofMillis(999))
			.then(() -> assertThat(this.exchange.sent()).isEmpty())
			.thenAwait(Duration.ofMillis(1))
			.expectNext(ok)
			.expectComplete()
			.verify(TIMEOUT);

		assertThat(this.exchange.sent()).hasSize(1);
	}

	@Test
	void whenTheHoldIsLongerThanMaxWaitThenNothingIsSentAndTheReasonIsGiven() {
		this.invocation.handedBack("default", "GET", serverAsked(Duration.ofSeconds(120)), 0);

		StepVerifier.withVirtualTime(this::call, () -> this.scheduler, Long.MAX_VALUE)
			.expectErrorSatisfies((error) -> assertThat(error).isInstanceOfSatisfying(RetryRefusedException.class,
					(refused) -> assertThat(refused.getReason()).isEqualTo(StopReason.RETRY_AFTER_TOO_LONG)))
			.verify(TIMEOUT);

		assertThat(this.exchange.sent()).isEmpty();
		assertThat(this.listener.events())
			.containsExactly(new StoppedWithoutAttempt("default", "GET", StopReason.RETRY_AFTER_TOO_LONG));
	}

	@Test
	void whenTheCallsWouldAskAnOuterRetryDetectorThemselvesThenTheFilterIsNotBuilt() {
		// A decision runs on whatever thread the response arrives on, where a thread-bound
		// outer layer is not to be found: only the filter asks, on the subscribing thread.
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(NO_JITTER);
		CallContext calls = new CallContext(clients, this.listener, new LocalCooldownStore(new OriginProtection(100)),
				new RetryBudgets(clients, this.clock), () -> true, this.clock, this.wallClock, () -> 0L);

		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetryAfterExchangeFilter(calls, this.scheduler, OuterRetryDetector.NEVER))
			.withMessageContaining("outerRetry");
	}

	private static AttemptOutcome serverAsked(Duration delay) {
		return new AttemptOutcome.Response(503, new RetryAfter.Delay(delay, RetryAfter.Form.SECONDS));
	}

}
