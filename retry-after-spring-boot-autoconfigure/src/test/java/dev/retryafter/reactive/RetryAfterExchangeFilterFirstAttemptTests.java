package dev.retryafter.reactive;

import java.net.ConnectException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.StreamSupport;

import dev.retryafter.call.CallContext;
import dev.retryafter.call.RecordedBytes;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.DelaySource;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.metrics.RetryAfterMetrics;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.AttemptCompleted;
import dev.retryafter.testsupport.RecordingListener.StoppedWithoutAttempt;
import dev.retryafter.testsupport.RecordingListener.Waited;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import org.springframework.web.reactive.function.client.WebClientRequestException;

import static dev.retryafter.reactive.ScriptedExchange.response;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of the first attempt the filter sends before it builds any {@link ExchangeCall}: a
 * call settled by its first response is reported as before with no call built, and a call
 * handed over decides, waits, counts and replays exactly as one built from the start. Each
 * scenario runs twice on virtual time, once through the shortcut and once through a whole
 * call (the same settings with a partition header, which keeps the filter off the shortcut),
 * and the two must report the same events, meters and budget.
 */
class RetryAfterExchangeFilterFirstAttemptTests {

	/** Real time a verification may take: virtual waits cost none of it. */
	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final URI URL = URI.create("http://127.0.0.1:8080/report");

	private static final RetrySettings NO_JITTER = RetrySettings.defaults().withJitter(0);

	/** The same settings, but the cooldown key is read from the request as sent: a whole call. */
	private static final RetrySettings WHOLE = partitioned(NO_JITTER);

	private static final RetrySettings NO_COOLDOWN = NO_JITTER.withCooldown(
			new RetrySettings.Cooldown(false, NO_JITTER.cooldown().mode()));

	@ParameterizedTest
	@ValueSource(ints = { 200, 201, 404 })
	void whenTheFirstResponseSettlesTheCallThenNoCallIsBuiltAndTheSameEventsAndMetersAreReported(int status) {
		Run shortcut = new Run(NO_JITTER);
		Run whole = new Run(WHOLE);
		for (Run run : List.of(shortcut, whole)) {
			ClientResponse answer = response(status);
			run.exchange.respond(answer);
			run.verify(get()).expectNextMatches((received) -> received == answer).expectComplete().verify(TIMEOUT);
		}

		assertThat(shortcut.gates).singleElement().isInstanceOf(FirstExchange.class);
		assertThat(whole.gates).singleElement().isInstanceOf(ExchangeCall.class);
		assertThat(shortcut.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				new AttemptOutcome.Response(status, RetryAfter.ABSENT),
				new RetryDecision.Stop((status == 404) ? StopReason.NOT_RETRYABLE : StopReason.SUCCESS)));
		shortcut.assertReportsAs(whole);
	}

	@Test
	void whenCooldownsAreOffAndTheRequestHasNoBodyThenTheFirstAttemptSendsTheRequestAsReceived() {
		Run run = new Run(NO_COOLDOWN);
		ClientResponse ok = response(200);
		run.exchange.respond(ok);
		ClientRequest request = get();

		run.verify(request).expectNext(ok).expectComplete().verify(TIMEOUT);

		// Not even a copy of the request: nothing was built for the call.
		assertThat(run.sent).singleElement().isSameAs(request);
		assertThat(run.budget().requests()).isEqualTo(1);
	}

	@Test
	void whenAPutIsSettledByItsFirstResponseThenItsRecordedBodyGoesBackToTheApplicationsTotal() {
		Run shortcut = new Run(NO_JITTER);
		Run whole = new Run(WHOLE);
		for (Run run : List.of(shortcut, whole)) {
			run.exchange.respond(response(200));
			run.verify(put(oneShot(new AtomicInteger()))).expectNextCount(1).expectComplete().verify(TIMEOUT);
			assertThat(run.recordedBytes.held()).isZero();
		}
		shortcut.assertReportsAs(whole);
	}

	@Test
	void whenA503AsksForOneSecondThenTheHandedOverCallRetriesOnceNoEarlierThanOneSecondLater() {
		Run shortcut = new Run(NO_JITTER);
		Run whole = new Run(WHOLE);
		for (Run run : List.of(shortcut, whole)) {
			ClientResponse ok = response(200);
			run.exchange.respond(response(503, "Retry-After", "1"), ok);
			run.verify(get())
				.expectSubscription()
				.expectNoEvent(Duration.ofMillis(999))
				.then(() -> assertThat(run.exchange.sent()).hasSize(1))
				.thenAwait(Duration.ofMillis(1))
				.expectNext(ok)
				.expectComplete()
				.verify(TIMEOUT);
			assertThat(run.exchange.sent()).hasSize(2);
		}

		// The shortcut sent the first attempt; the call that took over sent the retry.
		assertThat(shortcut.gates).hasSize(2);
		assertThat(shortcut.gates.get(0)).isInstanceOf(FirstExchange.class);
		assertThat(shortcut.gates.get(1)).isInstanceOf(ExchangeCall.class);
		assertThat(shortcut.listener.events()).containsExactly(
				new AttemptCompleted("default", "GET", 1,
						new AttemptOutcome.Response(503,
								new RetryAfter.Delay(Duration.ofSeconds(1), RetryAfter.Form.SECONDS)),
						new RetryDecision.Retry(Duration.ofSeconds(1), Duration.ofSeconds(1),
								DelaySource.RETRY_AFTER_SECONDS)),
				new Waited("default", Duration.ofSeconds(1), Duration.ofSeconds(1)),
				new AttemptCompleted("default", "GET", 2, new AttemptOutcome.Response(200, RetryAfter.ABSENT),
						new RetryDecision.Stop(StopReason.SUCCESS)));
		assertThat(shortcut.budget().requests()).isEqualTo(2);
		shortcut.assertReportsAs(whole);
	}

	@Test
	void whenAPostWithoutAnIdempotencyKeyIsAnswered503ThenItIsNotRetried() {
		Run shortcut = new Run(NO_JITTER);
		Run whole = new Run(WHOLE);
		for (Run run : List.of(shortcut, whole)) {
			ClientResponse busy = response(503, "Retry-After", "1");
			run.exchange.respond(busy, response(201));
			ClientRequest post = ClientRequest.create(HttpMethod.POST, URL)
				.body(BodyInserters.fromValue("order"))
				.build();
			run.verify(post).expectNext(busy).expectComplete().verify(TIMEOUT);
			run.scheduler.advanceTimeBy(Duration.ofSeconds(30));
			assertThat(run.exchange.sent()).extracting(ScriptedExchange.Sent::body).containsExactly("order");
			assertThat(run.recordedBytes.held()).isZero();
		}

		assertThat(shortcut.gates).singleElement().isInstanceOf(FirstExchange.class);
		assertThat(shortcut.listener.attempts()).singleElement()
			.extracting(AttemptCompleted::decision)
			.isEqualTo(new RetryDecision.Stop(StopReason.NON_IDEMPOTENT));
		shortcut.assertReportsAs(whole);
	}

	@Test
	void whenTheFirstAttemptsConnectionIsRefusedThenTheHandedOverCallRetriesAfterTheBackoff() {
		Run shortcut = new Run(NO_JITTER);
		Run whole = new Run(WHOLE);
		for (Run run : List.of(shortcut, whole)) {
			ClientResponse ok = response(200);
			run.exchange.refuse(new WebClientRequestException(new ConnectException("Connection refused"),
					HttpMethod.GET, URL, new HttpHeaders())).respond(ok);
			run.verify(get())
				.expectSubscription()
				.expectNoEvent(Duration.ofMillis(999))
				.thenAwait(Duration.ofMillis(1))
				.expectNext(ok)
				.expectComplete()
				.verify(TIMEOUT);
		}

		assertThat(shortcut.gates).hasSize(2);
		assertThat(shortcut.gates.get(0)).isInstanceOf(FirstExchange.class);
		assertThat(shortcut.gates.get(1)).isInstanceOf(ExchangeCall.class);
		assertThat(shortcut.listener.attempts()).extracting(AttemptCompleted::outcome)
			.containsExactly(new AttemptOutcome.IoFailure(IoFailureKind.CONNECT_REFUSED),
					new AttemptOutcome.Response(200, RetryAfter.ABSENT));
		// A backoff retry takes a permit from the budget, as it does from the start.
		assertThat(shortcut.budget().retries()).isEqualTo(1);
		shortcut.assertReportsAs(whole);
	}

	@Test
	void whenABodyCarryingPutIsHandedOverThenTheRetrySendsTheSameBytesWithoutWritingTheBodyAgain() {
		Run shortcut = new Run(NO_JITTER);
		Run whole = new Run(WHOLE);
		for (Run run : List.of(shortcut, whole)) {
			AtomicInteger subscriptions = new AtomicInteger();
			run.exchange.respond(response(503, "Retry-After", "1"), response(200));
			run.verify(put(oneShot(subscriptions)))
				.expectSubscription()
				.thenAwait(Duration.ofSeconds(1))
				.expectNextCount(1)
				.expectComplete()
				.verify(TIMEOUT);
			assertThat(subscriptions).hasValue(1);
			assertThat(run.exchange.sent()).extracting(ScriptedExchange.Sent::body)
				.containsExactly("line 1\nline 2\n", "line 1\nline 2\n");
			assertThat(run.recordedBytes.held()).isZero();
		}

		assertThat(shortcut.gates.get(0)).isInstanceOf(FirstExchange.class);
		shortcut.assertReportsAs(whole);
	}

	@Test
	void whenCancelledDuringTheWaitOfAHandedOverCallThenThePermitGoesBackAndTheReasonIsCancelled() {
		Run shortcut = new Run(NO_JITTER);
		Run whole = new Run(WHOLE);
		for (Run run : List.of(shortcut, whole)) {
			run.exchange.respond(response(503), response(200));
			run.verify(get()).expectSubscription().thenAwait(Duration.ofMillis(500)).thenCancel().verify(TIMEOUT);
			run.scheduler.advanceTimeBy(Duration.ofSeconds(30));
			assertThat(run.exchange.sent()).hasSize(1);
			assertThat(run.budget().retries()).isZero();
		}

		assertThat(shortcut.listener.events()).last()
			.isEqualTo(new StoppedWithoutAttempt("default", "GET", StopReason.CANCELLED));
		shortcut.assertReportsAs(whole);
	}

	private static ClientRequest get() {
		return ClientRequest.create(HttpMethod.GET, URL).build();
	}

	private static ClientRequest put(Flux<DataBuffer> body) {
		return ClientRequest.create(HttpMethod.PUT, URL).body(BodyInserters.fromDataBuffers(body)).build();
	}

	/** A body that can be subscribed to once only, as an upload from a stream. */
	private static Flux<DataBuffer> oneShot(AtomicInteger subscriptions) {
		return Flux.defer(() -> (subscriptions.incrementAndGet() == 1) ? Flux.concat(body("line 1\n"), body("line 2\n"))
				: Flux.error(new IllegalStateException("already consumed")));
	}

	private static Flux<DataBuffer> body(String text) {
		return Flux.defer(() -> Flux
			.just(DefaultDataBufferFactory.sharedInstance.wrap(text.getBytes(StandardCharsets.UTF_8))));
	}

	private static RetrySettings partitioned(RetrySettings settings) {
		RetrySettings.Cooldown cooldown = settings.cooldown();
		return settings.withCooldown(new RetrySettings.Cooldown(true, cooldown.mode(), cooldown.statuses(),
				List.of("X-Tenant"), cooldown.scopes()));
	}

	/**
	 * One filter on its own virtual time, origin protection, budget and meters, with what each
	 * of its attempts handed the exchange.
	 */
	private static final class Run {

		private final VirtualTimeScheduler scheduler = VirtualTimeScheduler.create();

		private final MonotonicClock clock = () -> this.scheduler.now(TimeUnit.NANOSECONDS);

		private final RecordingListener listener = new RecordingListener();

		private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, new MockClock());

		private final RecordedBytes recordedBytes = new RecordedBytes(RecordedBytes.DEFAULT_MAX);

		private final ScriptedExchange exchange = new ScriptedExchange();

		/** Each attempt's request, as the exchange received it. */
		private final List<ClientRequest> sent = new ArrayList<>();

		/** Each attempt's connector gate: what sent it ({@code null} when there is none). */
		private final List<@Nullable Object> gates = new ArrayList<>();

		private final RetryBudgets budgets;

		private final RetryAfterExchangeFilter filter;

		Run(RetrySettings settings) {
			ClientSettingsCatalog clients = ClientSettingsCatalog.of(settings);
			this.budgets = new RetryBudgets(clients, this.clock);
			RetryListener listener = RetryListener
				.composite(List.of(this.listener, new RetryAfterMetrics(this.registry)));
			Clock wallClock = Clock.fixed(Instant.parse("2026-03-01T10:00:00Z"), ZoneOffset.UTC);
			this.filter = new RetryAfterExchangeFilter(new CallContext(clients, listener,
					new LocalCooldownStore(new OriginProtection(100)), this.budgets, OuterRetryDetector.NEVER,
					this.clock, wallClock, () -> 0L, this.recordedBytes), this.scheduler, OuterRetryDetector.NEVER);
		}

		StepVerifier.FirstStep<ClientResponse> verify(ClientRequest request) {
			ExchangeFunction recording = (attempt) -> {
				this.sent.add(attempt);
				this.gates.add(attempt.attribute(SentGate.ATTRIBUTE).orElse(null));
				return this.exchange.exchange(attempt);
			};
			return StepVerifier.withVirtualTime(() -> this.filter.filter(request, recording), () -> this.scheduler,
					Long.MAX_VALUE);
		}

		RetryBudget.Snapshot budget() {
			return this.budgets.budget("default").snapshot();
		}

		/** The same listener events, meters and budget as the other run reported. */
		void assertReportsAs(Run other) {
			assertThat(this.listener.events()).isEqualTo(other.listener.events());
			assertThat(meters(this.registry)).isEqualTo(meters(other.registry));
			assertThat(budget().requests()).isEqualTo(other.budget().requests());
			assertThat(budget().retries()).isEqualTo(other.budget().retries());
		}

		private static List<String> meters(SimpleMeterRegistry registry) {
			Function<Iterable<Measurement>, List<Double>> values = (measurements) -> StreamSupport
				.stream(measurements.spliterator(), false)
				.map(Measurement::getValue)
				.toList();
			return registry.getMeters()
				.stream()
				.map((meter) -> meter.getId().getName() + meter.getId().getTags() + values.apply(meter.measure()))
				.sorted()
				.toList();
		}

	}

}
