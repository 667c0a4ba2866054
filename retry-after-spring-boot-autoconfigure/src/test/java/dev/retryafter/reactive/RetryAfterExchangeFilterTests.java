package dev.retryafter.reactive;

import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;

import dev.retryafter.api.RetryAfterAttributes;
import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.DelaySource;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.AttemptCompleted;
import dev.retryafter.testsupport.RecordingListener.Held;
import dev.retryafter.testsupport.RecordingListener.StoppedWithoutAttempt;
import dev.retryafter.testsupport.RecordingListener.Waited;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClientRequestException;

import static dev.retryafter.reactive.ScriptedExchange.response;
import static dev.retryafter.reactive.ScriptedExchange.responseWithBody;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RetryAfterExchangeFilter} on virtual time: every wait and hold is a timer on a
 * {@link VirtualTimeScheduler}, so these tests move time instead of sleeping, and see that
 * nothing happens a moment before a wait ends.
 */
class RetryAfterExchangeFilterTests {

	/** Real time a verification may take: virtual waits cost none of it. */
	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final URI URL = URI.create("http://127.0.0.1:8080/report");

	private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

	private static final RetrySettings NO_JITTER = RetrySettings.defaults().withJitter(0);

	private static final RetrySettings FAIL_FAST = NO_JITTER.withCooldown(new RetrySettings.Cooldown(true,
			CooldownMode.FAIL_FAST, RetrySettings.Cooldown.DEFAULT_STATUSES, List.of()));

	private static final CooldownKey KEY = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	private final VirtualTimeScheduler scheduler = VirtualTimeScheduler.create();

	/** Added to the virtual time, to play a wait that overran its plan (a paused VM). */
	private final AtomicLong skewNanos = new AtomicLong();

	private final MonotonicClock clock = () -> this.scheduler.now(TimeUnit.NANOSECONDS) + this.skewNanos.get();

	private final Clock wallClock = new Clock() {

		@Override
		public Instant instant() {
			return START.plusNanos(RetryAfterExchangeFilterTests.this.clock.nanoTime());
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

	private final CooldownStore cooldowns = new LocalCooldownStore(new OriginProtection(100));

	private final ScriptedExchange exchange = new ScriptedExchange();

	private RetryBudgets budgets;

	private RetryAfterExchangeFilter filter(RetrySettings settings) {
		// nextDouble() is 0: no jitter draws ever add anything.
		return filter(settings, () -> 0L);
	}

	private RetryAfterExchangeFilter filter(RetrySettings settings, RandomGenerator random) {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(settings);
		this.budgets = new RetryBudgets(clients, this.clock);
		return ExchangeFilters.create(clients, this.listener, this.cooldowns, this.budgets, this.scheduler,
				this.clock, this.wallClock, random);
	}

	private Mono<ClientResponse> call(RetrySettings settings, ClientRequest request) {
		RetryAfterExchangeFilter filter = filter(settings);
		return filter.filter(request, this.exchange);
	}

	private StepVerifier.FirstStep<ClientResponse> verify(RetrySettings settings, ClientRequest request) {
		return StepVerifier.withVirtualTime(() -> call(settings, request), () -> this.scheduler, Long.MAX_VALUE);
	}

	private static ClientRequest get() {
		return ClientRequest.create(HttpMethod.GET, URL).build();
	}

	@Test
	void whenA429AsksForOneSecondThenTheRetryLeavesExactlyOneSecondLaterAndNoThreadWaits() {
		ClientResponse ok = response(200);
		this.exchange.respond(response(429, "Retry-After", "1"), ok);
		verify(NO_JITTER, get()).expectSubscription()
			.expectNoEvent(Duration.ofMillis(999))
			.then(() -> assertThat(this.exchange.sent()).hasSize(1))
			.thenAwait(Duration.ofMillis(1))
			.expectNext(ok)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).hasSize(2);
		assertThat(this.listener.events()).containsExactly(
				new AttemptCompleted("default", "GET", 1,
						new AttemptOutcome.Response(429, new RetryAfter.Delay(Duration.ofSeconds(1),
								RetryAfter.Form.SECONDS)),
						new RetryDecision.Retry(Duration.ofSeconds(1), Duration.ofSeconds(1),
								DelaySource.RETRY_AFTER_SECONDS)),
				new Waited("default", Duration.ofSeconds(1), Duration.ofSeconds(1)),
				new AttemptCompleted("default", "GET", 2, new AttemptOutcome.Response(200, RetryAfter.ABSENT),
						new RetryDecision.Stop(StopReason.SUCCESS)));
	}

	@Test
	void whenA429AsksForADateThenTheRetryWaitsUntilItAgainstTheServersDate() {
		DateTimeFormatter http = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
			.withZone(ZoneOffset.UTC);
		Instant serverNow = Instant.parse("2026-03-01T09:00:00Z");
		ClientResponse ok = response(200);
		this.exchange.respond(response(429, "Date", http.format(serverNow), "Retry-After",
				http.format(serverNow.plusSeconds(3))), ok);
		verify(NO_JITTER, get()).expectSubscription()
			.expectNoEvent(Duration.ofMillis(2999))
			.thenAwait(Duration.ofMillis(1))
			.expectNext(ok)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.listener.events())
			.contains(new Waited("default", Duration.ofSeconds(3), Duration.ofSeconds(3)));
		assertThat(this.listener.attempts().get(0).decision()).isEqualTo(new RetryDecision.Retry(
				Duration.ofSeconds(3), Duration.ofSeconds(3), DelaySource.RETRY_AFTER_DATE));
	}

	@Test
	void whenRetriedThenTheRetriedResponsesBodyIsReadSoItsConnectionIsReleasedAndTheLastIsHandedOverUnread() {
		AtomicInteger firstBodyDone = new AtomicInteger();
		AtomicInteger lastBodySubscribed = new AtomicInteger();
		ClientResponse last = responseWithBody(200,
				Flux.<DataBuffer>empty().doOnSubscribe((subscription) -> lastBodySubscribed.incrementAndGet()));
		this.exchange.respond(responseWithBody(503, body("busy").doOnComplete(firstBodyDone::incrementAndGet),
				"Retry-After", "1"), last);
		verify(NO_JITTER, get()).expectSubscription()
			.then(() -> assertThat(firstBodyDone).hasValue(1))
			.thenAwait(Duration.ofSeconds(1))
			.expectNext(last)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(lastBodySubscribed).hasValue(0);
	}

	@Test
	void whenAttemptsRunOutThenTheCallerGetsTheLastResponseUnchanged() {
		ClientResponse third = responseWithBody(503, "still busy", "Retry-After", "1");
		this.exchange.respond(response(503, "Retry-After", "1"), response(503, "Retry-After", "1"), third);
		// Waits of 1 s (the server's), then 2 s (the local backoff of the second retry).
		verify(NO_JITTER, get()).expectSubscription()
			.thenAwait(Duration.ofSeconds(1))
			.then(() -> assertThat(this.exchange.sent()).hasSize(2))
			.expectNoEvent(Duration.ofMillis(1999))
			.thenAwait(Duration.ofMillis(1))
			.expectNext(third)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).hasSize(3);
		assertThat(this.listener.attempts().get(2).decision())
			.isEqualTo(new RetryDecision.Stop(StopReason.MAX_ATTEMPTS));
	}

	@Test
	void whenAnUnknownHostThenTheCallerGetsThatErrorUnchangedAfterOneAttempt() {
		WebClientRequestException error = new WebClientRequestException(new UnknownHostException("nowhere"),
				HttpMethod.GET, URL, new HttpHeaders());
		this.exchange.fail(error);
		verify(NO_JITTER, get()).expectSubscription().expectErrorSatisfies((ex) -> assertThat(ex).isSameAs(error))
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).hasSize(1);
		assertThat(this.listener.attempts().get(0).outcome())
			.isEqualTo(new AttemptOutcome.IoFailure(IoFailureKind.UNKNOWN_HOST));
	}

	@Test
	void whenTheConnectionIsRefusedThenEvenAPostIsRetriedAfterTheBackoff() {
		ClientResponse ok = response(201);
		this.exchange.refuse(new WebClientRequestException(new ConnectException("Connection refused"),
				HttpMethod.POST, URL, new HttpHeaders())).respond(ok);
		ClientRequest post = ClientRequest.create(HttpMethod.POST, URL).body(BodyInserters.fromValue("order")).build();
		verify(NO_JITTER, post).expectSubscription()
			.expectNoEvent(Duration.ofMillis(999))
			.thenAwait(Duration.ofMillis(1))
			.expectNext(ok)
			.expectComplete()
			.verify(TIMEOUT);
		// The refused attempt never wrote the body, so the retry writes it for the first time.
		assertThat(this.exchange.sent()).extracting(ScriptedExchange.Sent::body).containsExactly("order");
	}

	@Test
	void whenTheExchangeFailsWithoutAnIoErrorThenTheErrorPassesThroughAndNothingIsReported() {
		IllegalStateException error = new IllegalStateException("codec");
		this.exchange.fail(error);
		verify(NO_JITTER, get()).expectSubscription().expectErrorSatisfies((ex) -> assertThat(ex).isSameAs(error))
			.verify(TIMEOUT);
		assertThat(this.listener.events()).isEmpty();
	}

	@Test
	void whenTheOriginCoolsDownInFailFastModeThenTheFirstAttemptErrorsWithRetryRefusedAndNothingIsSent() {
		this.cooldowns.record(KEY, Duration.ofSeconds(5), 0);
		RetrySettings settings = FAIL_FAST;
		verify(settings, get()).expectSubscription().expectErrorSatisfies((ex) -> {
			assertThat(ex).isInstanceOf(RetryRefusedException.class);
			RetryRefusedException refused = (RetryRefusedException) ex;
			assertThat(refused.getReason()).isEqualTo(StopReason.COOLDOWN);
			assertThat(refused.getTimeLeft()).isEqualTo(Duration.ofSeconds(5));
			assertThat(refused.getOrigin()).isEqualTo("http://127.0.0.1:8080");
		})
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).isEmpty();
		assertThat(this.listener.events())
			.containsExactly(new StoppedWithoutAttempt("default", "GET", StopReason.COOLDOWN));
	}

	@Test
	void whenTheOriginCoolsDownThenTheFirstAttemptIsHeldOnATimerUntilTheCooldownEnds() {
		this.cooldowns.record(KEY, Duration.ofSeconds(2), 0);
		ClientResponse ok = response(200);
		this.exchange.respond(ok);
		verify(NO_JITTER, get()).expectSubscription()
			.expectNoEvent(Duration.ofMillis(1999))
			.then(() -> assertThat(this.exchange.sent()).isEmpty())
			.thenAwait(Duration.ofMillis(1))
			.expectNext(ok)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.listener.events().get(0)).isEqualTo(new Held("default", "GET", KEY, Duration.ofSeconds(2)));
		assertThat(this.budgets.budget("default").snapshot().requests()).isEqualTo(1);
	}

	@Test
	void whenAnotherRoutesProbeIsRefusedDuringTheHoldThenTheHeldFirstAttemptErrorsWithoutBeingSent() {
		routeCoolsWithProbeOut();
		verify(NO_JITTER, get()).expectSubscription()
			.then(() -> this.scheduler.schedule(
					() -> this.cooldowns.record(KEY, Duration.ofSeconds(30), this.clock.nanoTime()), 200,
					TimeUnit.MILLISECONDS))
			.thenAwait(Duration.ofMillis(500))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(RetryRefusedException.class)
				.hasFieldOrPropertyWithValue("reason", StopReason.COOLDOWN))
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).isEmpty();
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.PROBE);
	}

	@Test
	void whenAnotherRoutesProbeIsAcceptedDuringTheHoldThenTheHeldFirstAttemptIsSent() {
		CooldownKey items = routeCoolsWithProbeOut();
		ClientResponse ok = response(200);
		this.exchange.respond(ok);
		verify(NO_JITTER, get()).expectSubscription()
			.then(() -> this.scheduler.schedule(() -> this.cooldowns.accepted(items, this.clock.nanoTime()), 200,
					TimeUnit.MILLISECONDS))
			.expectNoEvent(Duration.ofMillis(499))
			.thenAwait(Duration.ofMillis(1))
			.expectNext(ok)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.PROBE);
	}

	@Test
	void whenARejectionStartsACooldownWhileAFirstAttemptWaitsForItsPacedSlotThenItIsHeldAgainOnce() {
		// Ten acceptances 10 ms apart, then a 429 asking for 1 s: the route is paced at once.
		for (int i = 0; i < 10; i++) {
			this.scheduler.advanceTimeBy(Duration.ofMillis(10));
			this.cooldowns.acceptedAtOnce("127.0.0.1", this.clock.nanoTime());
		}
		RetrySettings singleAttempt = NO_JITTER.withMaxAttempts(1);
		ClientResponse ok = response(200);
		this.exchange.respond(response(429, "Retry-After", "1"), ok);
		// Answered at once: no timer, so the virtual time of the verification below is still unused.
		assertThat(call(singleAttempt, get()).block(TIMEOUT).statusCode().value()).isEqualTo(429);
		CooldownKey route = KEY.withScope(CooldownScope.route("/report"));
		assertThat(this.cooldowns.protection().protection(this.clock.nanoTime())).singleElement()
			.satisfies((paced) -> assertThat(paced.key()).isEqualTo(route));
		// Its slot is the cooldown's instant, 1 s away; half-way there another caller's request
		// meets a 429 asking for 2 s, so the slot falls inside the new cooldown.
		StepVerifier.withVirtualTime(() -> call(singleAttempt, get()), () -> this.scheduler, Long.MAX_VALUE)
			.expectSubscription()
			.then(() -> this.scheduler.schedule(
					() -> this.cooldowns.record(route, Duration.ofSeconds(2), this.clock.nanoTime()), 500,
					TimeUnit.MILLISECONDS))
			.expectNoEvent(Duration.ofMillis(2499))
			.then(() -> assertThat(this.exchange.sent()).hasSize(1))
			.thenAwait(Duration.ofMillis(1))
			.expectNext(ok)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.PACING, HoldReason.PACING);
	}

	// /search was refused for 30 s; a first request to /items took the probe and is still out.
	private CooldownKey routeCoolsWithProbeOut() {
		this.cooldowns.record(KEY.withScope(CooldownScope.route("/search")), Duration.ofSeconds(30), 0);
		CooldownKey items = KEY.withScope(CooldownScope.route("/items"));
		assertThat(this.cooldowns.admit(new AdmissionRequest(items, 0, Duration.ofSeconds(10), Duration.ofMillis(500),
				CooldownMode.WAIT, 0.0, () -> 0L, true)))
			.isEqualTo(Admission.PROCEED);
		return items;
	}

	@Test
	void whenARetryWaitsOutItsJitterThenAFirstAttemptPastTheInstantQueuesBehindIt() {
		ClientResponse ok = response(200);
		this.exchange.respond(response(429, "Retry-After", "1"), ok);
		// nextDouble() is 0.5: the retry leaves at 1 s plus 0.5 x 0.2 x 1 s.
		RetryAfterExchangeFilter filter = filter(RetrySettings.defaults(), () -> Long.MIN_VALUE);
		// The refusal's cooldown is its route's: the origin has not refused a second route.
		CooldownKey route = KEY.withScope(CooldownScope.route("/report"));
		StepVerifier.withVirtualTime(() -> filter.filter(get(), this.exchange), () -> this.scheduler, Long.MAX_VALUE)
			.expectSubscription()
			.thenAwait(Duration.ofMillis(1050))
			// Past the cooldown's instant, another caller's first attempt queues behind the retry.
			.then(() -> assertThat(this.cooldowns.admit(new AdmissionRequest(route, this.clock.nanoTime(),
					Duration.ofSeconds(10), Duration.ofMillis(500), CooldownMode.WAIT, 0.0, () -> 0L, true)))
				.isEqualTo(new Admission.Wait(Duration.ofMillis(50), HoldReason.RELEASE_WINDOW)))
			.thenAwait(Duration.ofMillis(50))
			.expectNext(ok)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.cooldowns.admit(new AdmissionRequest(route, this.clock.nanoTime(), Duration.ofSeconds(10),
				Duration.ofMillis(500), CooldownMode.WAIT, 0.0, () -> 0L, true)))
			.isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenACooldownThatHeldNobodyHasEndedThenTheFirstAttemptIsSentAtOnce() {
		// total-budget 2s against a 10 s cooldown: nothing was held, so nothing is leaving.
		this.cooldowns.record(KEY, Duration.ofSeconds(10), 0);
		this.scheduler.advanceTimeBy(Duration.ofMillis(10_300));
		ClientResponse ok = response(200);
		this.exchange.respond(ok);
		verify(RetrySettings.defaults().withTotalBudget(Duration.ofSeconds(2)), get()).expectSubscription()
			.expectNext(ok)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).hasSize(1);
		assertThat(this.listener.events()).noneMatch(Held.class::isInstance);
	}

	@Test
	void whenHeldThenTheListenerLearnsWhatHeldTheRequest() {
		this.cooldowns.record(KEY, Duration.ofSeconds(2), 0);
		ClientResponse ok = response(200);
		this.exchange.respond(ok);
		verify(NO_JITTER, get()).expectSubscription()
			.thenAwait(Duration.ofSeconds(2))
			.expectNext(ok)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.COOLDOWN);
	}

	@Test
	void whenCancelledDuringARetrysWaitThenTheTimerStopsThePermitGoesBackAndTheReasonIsCancelled() {
		this.exchange.respond(response(503), response(200));
		verify(NO_JITTER, get()).expectSubscription()
			.thenAwait(Duration.ofMillis(500))
			.thenCancel()
			.verify(TIMEOUT);
		RetryBudget.Snapshot budget = this.budgets.budget("default").snapshot();
		assertThat(budget.requests()).isEqualTo(1);
		assertThat(budget.retries()).isEqualTo(0);
		this.scheduler.advanceTimeBy(Duration.ofSeconds(30));
		assertThat(this.exchange.sent()).hasSize(1);
		assertThat(this.listener.events()).last()
			.isEqualTo(new StoppedWithoutAttempt("default", "GET", StopReason.CANCELLED));
		assertThat(this.listener.events()).hasSize(2);
	}

	@Test
	void whenCancelledBetweenTheDecisionAndTheWaitThenThePermitGoesBackAndTheReasonIsCancelled() {
		this.exchange.respond(response(503), response(200));
		AtomicReference<Subscription> subscription = new AtomicReference<>();
		// The subscriber goes away the moment the retry is decided, before its wait begins.
		RetryListener cancelling = new RetryListener() {

			@Override
			public void attemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
					RetryDecision decision) {
				if (decision instanceof RetryDecision.Retry) {
					subscription.get().cancel();
				}
			}

		};
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(NO_JITTER);
		this.budgets = new RetryBudgets(clients, this.clock);
		RetryAfterExchangeFilter filter = ExchangeFilters.create(clients,
				RetryListener.composite(List.of(this.listener, cancelling)), this.cooldowns, this.budgets,
				this.scheduler, this.clock, this.wallClock, () -> 0L);

		filter.filter(get(), this.exchange).doOnSubscribe(subscription::set).subscribe();
		this.scheduler.advanceTimeBy(Duration.ofSeconds(30));

		assertThat(this.exchange.sent()).hasSize(1);
		assertThat(this.listener.events()).last()
			.isEqualTo(new StoppedWithoutAttempt("default", "GET", StopReason.CANCELLED));
		assertThat(this.budgets.budget("default").snapshot().retries()).isEqualTo(0);
	}

	@Test
	void whenCancelledDuringAHoldThenNothingIsSentAndTheReasonIsCancelled() {
		this.cooldowns.record(KEY, Duration.ofSeconds(2), 0);
		this.exchange.respond(response(200));
		verify(NO_JITTER, get()).expectSubscription().thenAwait(Duration.ofSeconds(1)).thenCancel().verify(TIMEOUT);
		this.scheduler.advanceTimeBy(Duration.ofSeconds(30));
		assertThat(this.exchange.sent()).isEmpty();
		assertThat(this.listener.events())
			.containsExactly(new StoppedWithoutAttempt("default", "GET", StopReason.CANCELLED));
		assertThat(this.budgets.budget("default").snapshot().requests()).isEqualTo(0);
	}

	@Test
	void whenCancelledDuringAnExchangeThenNoAbandonmentIsReported() {
		this.exchange.reply(Mono::never);
		verify(NO_JITTER, get()).expectSubscription().thenAwait(Duration.ofSeconds(1)).thenCancel().verify(TIMEOUT);
		assertThat(this.exchange.sent()).hasSize(1);
		assertThat(this.listener.events()).isEmpty();
	}

	@Test
	void whenTheWaitOverranTheWholeBudgetThenTheRetryIsCalledOffAndTheCallerGetsACopyOfTheLastResponse() {
		this.exchange.respond(responseWithBody(503, "busy", "Retry-After", "1", "X-Trace", "t1"), response(200));
		verify(NO_JITTER, get()).expectSubscription()
			.then(() -> this.scheduler.schedule(() -> this.skewNanos.set(Duration.ofSeconds(20).toNanos()), 500,
					TimeUnit.MILLISECONDS))
			.thenAwait(Duration.ofSeconds(1))
			.assertNext((copy) -> {
				assertThat(copy.statusCode().value()).isEqualTo(503);
				assertThat(copy.headers().header("X-Trace")).containsExactly("t1");
				assertThat(copy.bodyToMono(String.class).block()).isEqualTo("busy");
			})
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).hasSize(1);
		assertThat(this.listener.events()).last()
			.isEqualTo(new StoppedWithoutAttempt("default", "GET", StopReason.BUDGET_EXHAUSTED));
		assertThat(this.budgets.budget("default").snapshot().retries()).isEqualTo(0);
	}

	@Test
	void whenACooldownRefusesTheRetryAfterItsWaitThenTheCallerGetsTheLastResponse() {
		RetrySettings settings = FAIL_FAST;
		this.exchange.respond(responseWithBody(503, "busy"), response(200));
		verify(settings, get()).expectSubscription()
			.then(() -> this.scheduler.schedule(
					() -> this.cooldowns.record(KEY, Duration.ofSeconds(10), this.clock.nanoTime()), 500,
					TimeUnit.MILLISECONDS))
			.thenAwait(Duration.ofSeconds(1))
			.assertNext((copy) -> assertThat(copy.bodyToMono(String.class).block()).isEqualTo("busy"))
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).hasSize(1);
		assertThat(this.listener.events()).last()
			.isEqualTo(new StoppedWithoutAttempt("default", "GET", StopReason.COOLDOWN));
	}

	@Test
	void whenARetriedBodyIsTooLongToKeepAndTheRetryIsCalledOffThenTheCallerLearnsWhy() {
		RetrySettings settings = FAIL_FAST;
		// One byte over the 64 KiB a retried response's body is kept up to.
		this.exchange.respond(responseWithBody(503, "x".repeat(65_537)),
				response(200));
		verify(settings, get()).expectSubscription()
			.then(() -> this.scheduler.schedule(
					() -> this.cooldowns.record(KEY, Duration.ofSeconds(10), this.clock.nanoTime()), 500,
					TimeUnit.MILLISECONDS))
			.thenAwait(Duration.ofSeconds(1))
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(RetryRefusedException.class)
				.hasFieldOrPropertyWithValue("reason", StopReason.COOLDOWN))
			.verify(TIMEOUT);
	}

	@Test
	void whenAServerPacedRetryIsSentThenItCountsAsARequestAndSpendsNoBudget() {
		this.exchange.respond(response(429, "Retry-After", "1"), response(200));
		verify(NO_JITTER, get()).expectSubscription().thenAwait(Duration.ofSeconds(1)).expectNextCount(1)
			.expectComplete()
			.verify(TIMEOUT);
		RetryBudget.Snapshot budget = this.budgets.budget("default").snapshot();
		assertThat(budget.requests()).isEqualTo(2);
		assertThat(budget.retries()).isEqualTo(0);
	}

	@Test
	void whenABackoffRetryIsSentThenItSpendsOnePermit() {
		this.exchange.respond(response(503), response(200));
		verify(NO_JITTER, get()).expectSubscription().thenAwait(Duration.ofSeconds(1)).expectNextCount(1)
			.expectComplete()
			.verify(TIMEOUT);
		RetryBudget.Snapshot budget = this.budgets.budget("default").snapshot();
		assertThat(budget.requests()).isEqualTo(1);
		assertThat(budget.retries()).isEqualTo(1);
	}

	@Test
	void whenAPostCarriesNoKeyThenItIsSentOnce() {
		ClientResponse busy = response(503, "Retry-After", "1");
		this.exchange.respond(busy, response(200));
		ClientRequest post = ClientRequest.create(HttpMethod.POST, URL).body(BodyInserters.fromValue("order")).build();
		verify(NO_JITTER, post).expectSubscription().expectNext(busy).expectComplete()
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).hasSize(1);
		assertThat(this.listener.attempts().get(0).decision())
			.isEqualTo(new RetryDecision.Stop(StopReason.NON_IDEMPOTENT));
	}

	@Test
	void whenAPostWithAKeyIsRetriedThenAValueBodyIsSentAgainWithTheSameBytesAndType() {
		this.exchange.respond(response(503, "Retry-After", "1"), response(201));
		ClientRequest post = ClientRequest.create(HttpMethod.POST, URL)
			.header("Idempotency-Key", "k-1")
			.header("Content-Type", "application/json")
			.body(BodyInserters.fromValue("{\"id\":\"o-7\",\"quantity\":3}"))
			.build();
		verify(NO_JITTER, post).expectSubscription().thenAwait(Duration.ofSeconds(1)).expectNextCount(1)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).containsExactly(
				new ScriptedExchange.Sent("POST", "{\"id\":\"o-7\",\"quantity\":3}", MediaType.APPLICATION_JSON),
				new ScriptedExchange.Sent("POST", "{\"id\":\"o-7\",\"quantity\":3}", MediaType.APPLICATION_JSON));
	}

	@Test
	void whenFormDataIsRetriedThenTheSameFormIsSentAgain() {
		this.exchange.respond(response(503, "Retry-After", "1"), response(200));
		MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
		form.add("name", "a b");
		form.add("size", "2");
		ClientRequest put = ClientRequest.create(HttpMethod.PUT, URL).body(BodyInserters.fromFormData(form)).build();
		verify(NO_JITTER, put).expectSubscription().thenAwait(Duration.ofSeconds(1)).expectNextCount(1)
			.expectComplete()
			.verify(TIMEOUT);
		MediaType formType = MediaType.APPLICATION_FORM_URLENCODED;
		assertThat(this.exchange.sent()).containsExactly(new ScriptedExchange.Sent("PUT", "name=a+b&size=2", formType),
				new ScriptedExchange.Sent("PUT", "name=a+b&size=2", formType));
	}

	@Test
	void whenAOneShotFluxBodyIsRetriedThenItIsSubscribedOnceAndItsRecordedBytesAreSentAgain() {
		this.exchange.respond(response(503, "Retry-After", "1"), response(200));
		AtomicInteger subscriptions = new AtomicInteger();
		Flux<DataBuffer> oneShot = Flux.defer(() -> (subscriptions.incrementAndGet() == 1)
				? Flux.concat(body("line 1\n"), body("line 2\n"))
				: Flux.error(new IllegalStateException("already consumed")));
		ClientRequest put = ClientRequest.create(HttpMethod.PUT, URL)
			.body(BodyInserters.fromDataBuffers(oneShot))
			.build();
		verify(NO_JITTER, put).expectSubscription().thenAwait(Duration.ofSeconds(1)).expectNextCount(1)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(subscriptions).hasValue(1);
		assertThat(this.exchange.sent()).extracting(ScriptedExchange.Sent::body)
			.containsExactly("line 1\nline 2\n", "line 1\nline 2\n");
	}

	@Test
	void whenABodyIs256KiBThenItIsRecordedAndSentAgain() {
		this.exchange.respond(response(503, "Retry-After", "1"), response(200));
		ClientRequest put = ClientRequest.create(HttpMethod.PUT, URL)
			.body(BodyInserters.fromValue("x".repeat(262_144)))
			.build();
		verify(NO_JITTER, put).expectSubscription().thenAwait(Duration.ofSeconds(1)).expectNextCount(1)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).extracting((sent) -> sent.body().length()).containsExactly(262_144, 262_144);
	}

	@Test
	void whenABodyIsTooLongToRecordThenTheRequestIsNotRetried() {
		ClientResponse busy = response(503, "Retry-After", "1");
		this.exchange.respond(busy, response(200));
		// One byte over 256 KiB, the default in-memory limit of Spring's codecs.
		ClientRequest put = ClientRequest.create(HttpMethod.PUT, URL)
			.body(BodyInserters.fromValue("x".repeat(262_145)))
			.build();
		verify(NO_JITTER, put).expectSubscription().expectNext(busy).expectComplete()
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).hasSize(1);
		assertThat(this.listener.attempts().get(0).decision())
			.isEqualTo(new RetryDecision.Stop(StopReason.NON_IDEMPOTENT));
	}

	@Test
	void whenAGetIsMarkedNotIdempotentThenItIsSentOnce() {
		ClientResponse busy = response(503, "Retry-After", "1");
		this.exchange.respond(busy, response(200));
		ClientRequest request = ClientRequest.create(HttpMethod.GET, URL)
			.attribute(RetryAfterAttributes.IDEMPOTENT, false)
			.build();
		verify(NO_JITTER, request).expectSubscription().expectNext(busy).expectComplete()
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).hasSize(1);
	}

	@Test
	void whenAPostIsMarkedIdempotentThenItIsRetried() {
		this.exchange.respond(response(503, "Retry-After", "1"), response(200));
		ClientRequest request = ClientRequest.create(HttpMethod.POST, URL)
			.attribute(RetryAfterAttributes.IDEMPOTENT, true)
			.body(BodyInserters.fromValue("x"))
			.build();
		verify(NO_JITTER, request).expectSubscription().thenAwait(Duration.ofSeconds(1)).expectNextCount(1)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.exchange.sent()).hasSize(2);
	}

	@Test
	void whenSubscribedTwiceThenEachSubscriptionIsItsOwnCall() {
		this.exchange.respond(response(200), response(200));
		Mono<ClientResponse> call = call(NO_JITTER, get());
		StepVerifier.create(call).expectNextCount(1).expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(call).expectNextCount(1).expectComplete()
			.verify(TIMEOUT);
		assertThat(this.listener.attempts()).extracting(AttemptCompleted::attempt).containsExactly(1, 1);
	}

	private static Flux<DataBuffer> body(String text) {
		return Flux.defer(() -> Flux
			.just(DefaultDataBufferFactory.sharedInstance.wrap(text.getBytes(StandardCharsets.UTF_8))));
	}

	@Test
	void whenTheOriginAnnouncesNothingIsLeftThenTheNextFirstAttemptIsHeldOnATimerForItsSlot() {
		ClientResponse limited = limited();
		ClientResponse ok = response(200);
		this.exchange.respond(limited, ok);
		RetryAfterExchangeFilter filter = filter(NO_JITTER);
		// Nothing to wait for: no timer is asked for, so the virtual scheduler is kept for the next.
		assertThat(filter.filter(get(), this.exchange).block(TIMEOUT)).isSameAs(limited);
		// Nothing left for 2 s, then 10 per second a little under the quota: one interval past it.
		Duration slot = Duration.ofSeconds(2).plusNanos((long) (1e9 / 10 / 0.99));
		StepVerifier.withVirtualTime(() -> filter.filter(get(), this.exchange), () -> this.scheduler, Long.MAX_VALUE)
			.expectSubscription()
			.expectNoEvent(slot.minusNanos(1))
			.then(() -> assertThat(this.exchange.sent()).hasSize(1))
			.thenAwait(Duration.ofNanos(1))
			.expectNext(ok)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.QUOTA);
	}

	/** A success saying nothing is left of a quota of 10 a second for 2 s. */
	private static ClientResponse limited() {
		return response(200, "RateLimit-Policy", "\"burst\";q=10;w=1", "RateLimit", "\"burst\";r=0;t=2");
	}

}
