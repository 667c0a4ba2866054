package dev.retryafter.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.client.HttpCaller.Kind;
import dev.retryafter.client.HttpCaller.Result;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.DelaySource;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.Sleeper;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.AttemptCompleted;
import dev.retryafter.testsupport.RecordingListener.Held;
import dev.retryafter.testsupport.RecordingListener.StoppedWithoutAttempt;
import dev.retryafter.testsupport.RecordingListener.Waited;
import dev.retryafter.testsupport.RecordingSleeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;

/**
 * Origin protection in {@link RetryAfterInterceptor}: host cooldowns held or
 * refused before each attempt, recorded from every retryable response, and the retry budget.
 * Real requests to a loopback server, with a fake clock and a recording sleeper.
 */
class RetryAfterInterceptorProtectionTests {

	private static final RetrySettings NO_JITTER = RetrySettings.defaults().withJitter(0);

	/** One attempt only: a 429 comes straight back, leaving its cooldown behind. */
	private static final RetrySettings SINGLE_ATTEMPT = NO_JITTER.withMaxAttempts(1);

	/** Always the middle of the range: {@code nextDouble()} is 0.5. */
	private static final RandomGenerator MIDDLE = () -> Long.MIN_VALUE;

	private final FakeClock clock = new FakeClock();

	private final RecordingSleeper sleeper = new RecordingSleeper(this.clock);

	private final RecordingListener listener = new RecordingListener();

	private final CooldownStore cooldowns = new LocalCooldownStore(new OriginProtection(100));

	private LoopbackHttpServer server;

	@BeforeEach
	void startServer() throws IOException {
		this.server = LoopbackHttpServer.start();
	}

	@AfterEach
	void stopServer() throws IOException {
		this.server.close();
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenAnOriginAsksToWaitThenTheNextRequestIsHeldUntilTheCooldownEnds(Kind kind) {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3"), Reply.status(200).body("ready"));
		HttpCaller caller = kind.create(interceptor(SINGLE_ATTEMPT));

		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);
		Result second = caller.get(this.server.uri("/report"));

		assertThat(second.status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(3));
		assertThat(this.server.requests()).hasSize(2);
		// A hold is not a planned retry wait: no waited event, so the delay meters stay paired.
		assertThat(this.listener.events()).noneMatch(Waited.class::isInstance);
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenTheOriginTurnedRequestsAwayTwiceThenTheNextOnesArePacedAtTheRateItAcceptedBetween(Kind kind) {
		this.server.on("/report", okExceptRejectedAt(14, 0, 10));
		HttpCaller caller = kind.create(interceptor(SINGLE_ATTEMPT));

		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);
		// Held for the cooldown, then nine accepted within the first two seconds.
		for (int i = 0; i < 9; i++) {
			assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		}
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);
		// 0.9 x 9 accepted / 2 s: 4.05 per second. The first waits for its slot at the
		// instant. One caller's next requests come after that slot has passed: with no
		// request still waiting for a slot, the cooldown has ended for everyone and they go
		// at once (concurrent callers would queue behind it, see OriginProtectionPacingTests).
		for (int i = 0; i < 3; i++) {
			assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		}
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1));
		assertThat(this.server.requests()).hasSize(14);
		assertThat(this.listener.events()).filteredOn(Held.class::isInstance).hasSize(2);
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.COOLDOWN, HoldReason.PACING);
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenTheOriginAcceptedRequestsBeforeItsFirstRejectionThenThatRejectionAlreadyGivesTheRate(Kind kind) {
		this.server.on("/report", okExceptRejectedAt(11, 10));
		acceptedTenThenRejected(kind);
		// The cooldown is the guessed route's; 0.9 x 10 accepted over the 100 ms since the
		// first plus the 1 s asked for.
		Origin origin = Origin.of("http", "127.0.0.1", this.server.uri("/").getPort());
		assertThat(this.cooldowns.protection().protection(this.clock.nanoTime())).singleElement()
			.satisfies((paced) -> assertThat(paced.key().origin()).isEqualTo(origin))
			.satisfies((paced) -> assertThat(paced.pacedRate()).isCloseTo(0.9 * 10 / 1.1, within(1e-9)));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenARejectionStartsACooldownWhileARequestWaitsForItsPacedSlotThenItIsHeldAgainOnce(Kind kind) {
		// Every hold ends as another caller's request meets a 429 asking for 2 s.
		Result result = pacedThenOvertaken(kind, Duration.ofSeconds(2));

		assertThat(result.status()).isEqualTo(200);
		// Its slot at the first cooldown's instant, then the new cooldown's 2 s; the one after
		// that, which the second hold's end records, no longer holds it: once per call.
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.PACING, HoldReason.PACING);
		assertThat(this.server.requests()).hasSize(12);
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenTheCooldownThatOvertookAPacedSlotDoesNotFitTheBudgetThenTheRequestIsSentAsBefore(Kind kind) {
		// 30 s: past the 10 s budget, which a cooldown met at admission would refuse.
		Result result = pacedThenOvertaken(kind, Duration.ofSeconds(30));

		assertThat(result.status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(1));
		assertThat(this.listener.events()).noneMatch(StoppedWithoutAttempt.class::isInstance);
		assertThat(this.server.requests()).hasSize(12);
	}

	// Ten calls that nothing could hold, settled by their first response 10 ms apart, then a 429.
	private void acceptedTenThenRejected(Kind kind) {
		HttpCaller caller = kind.create(interceptor(SINGLE_ATTEMPT));
		for (int i = 0; i < 10; i++) {
			this.clock.advance(Duration.ofMillis(10));
			assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		}
		this.clock.advance(Duration.ofMillis(10));
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);
	}

	/**
	 * Ten calls accepted 10 ms apart, then a 429 asking for 1 s: its key is paced at once
	 * (0.9 x 10 / 1.1 s) and cools down for 1 s. Then a call (answered 200) whose every hold
	 * ends as another caller's request meets a 429 asking for {@code overtaking}.
	 * @return that call's result
	 */
	private Result pacedThenOvertaken(Kind kind, Duration overtaking) {
		this.server.on("/report", okExceptRejectedAt(12, 10));
		acceptedTenThenRejected(kind);
		CooldownKey paced = this.cooldowns.protection().protection(this.clock.nanoTime()).get(0).key();
		Sleeper rejectedMeanwhile = (duration) -> {
			this.sleeper.sleep(duration);
			this.cooldowns.record(paced, overtaking, this.clock.nanoTime());
		};
		return kind.create(interceptor(SINGLE_ATTEMPT, rejectedMeanwhile)).get(this.server.uri("/report"));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenACooldownThatHeldNobodyHasEndedThenTheNextRequestIsSentAtOnce(Kind kind) {
		// total-budget 2s: a 10 s cooldown holds nobody, it refuses.
		this.server.on("/report", Reply.status(429).header("Retry-After", "10"), Reply.status(200).body("ready"));
		HttpCaller caller = kind.create(interceptor(RetrySettings.defaults().withTotalBudget(Duration.ofSeconds(2))));
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);
		this.clock.advance(Duration.ofSeconds(1));
		assertThatExceptionOfType(ResourceAccessException.class)
			.isThrownBy(() -> caller.get(this.server.uri("/report")))
			.havingRootCause()
			.isInstanceOf(RetryRefusedException.class);

		this.clock.advance(Duration.ofMillis(9300));
		Result later = caller.get(this.server.uri("/report"));

		assertThat(later.status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.server.requests()).hasSize(2);
		assertThat(this.listener.events()).noneMatch(Held.class::isInstance);
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenARetryStillWaitsOutItsJitterThenAnotherCallersFirstAttemptQueuesBehindIt(Kind kind) {
		this.server.on("/report", Reply.status(429).header("Retry-After", "1"), Reply.status(200), Reply.status(200));
		// The first caller's retry waits 1 s plus its jitter; 50 ms past the cooldown's instant,
		// while it still waits, a second caller calls the origin.
		SecondCaller second = new SecondCaller(kind, Duration.ofMillis(1050));

		assertThat(second.caller.get(this.server.uri("/report")).status()).isEqualTo(200);

		assertThat(second.status.get()).isEqualTo(200);
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.RELEASE_WINDOW);
		Duration retryWait = second.sleeps.get(0);
		assertThat(retryWait).isGreaterThan(Duration.ofMillis(1050));
		// Held past the retry's planned instant, plus jitter of its own (0.5 x 0.2 x 1 s).
		assertThat(second.sleeps.get(1)).isEqualTo(retryWait.minusMillis(1050).plusMillis(100));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenARefusalStartsNoCooldownThenItsRetryHoldsNoOtherCallersFirstAttempt(Kind kind) {
		// A 503 without Retry-After starts no cooldown: the retry its backoff plans holds nobody.
		this.server.on("/report", Reply.status(503), Reply.status(200), Reply.status(200));
		SecondCaller second = new SecondCaller(kind, Duration.ZERO);

		assertThat(second.caller.get(this.server.uri("/report")).status()).isEqualTo(200);

		assertThat(second.status.get()).isEqualTo(200);
		assertThat(second.sleeps).hasSize(1);
		assertThat(this.listener.holdReasons()).isEmpty();
	}

	/**
	 * A caller whose first sleep (its retry's wait) lets {@code into} of it pass, then has a
	 * second caller call the origin on the same client, then lets the rest pass.
	 */
	private final class SecondCaller {

		final List<Duration> sleeps = new java.util.ArrayList<>();

		final AtomicInteger status = new AtomicInteger();

		// Set once built; the sleeper reads it only while a call runs.
		HttpCaller caller;

		SecondCaller(Kind kind, Duration into) {
			Sleeper sleeper = (duration) -> {
				this.sleeps.add(duration);
				if (this.sleeps.size() == 1) {
					RetryAfterInterceptorProtectionTests.this.clock.advance(into);
					this.status.set(this.caller.get(RetryAfterInterceptorProtectionTests.this.server.uri("/report"))
						.status());
					RetryAfterInterceptorProtectionTests.this.clock.advance(duration.minus(into));
				}
				else {
					RetryAfterInterceptorProtectionTests.this.clock.advance(duration);
				}
			};
			this.caller = kind.create(interceptor(RetrySettings.defaults(), sleeper));
		}

	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenAPacedOriginsCooldownAndQueueAreOverThenAKeyedPostIsSentAtOnce(Kind kind) {
		this.server.on("/report", okExceptRejectedAt(14, 0, 10));
		HttpCaller caller = kind.create(interceptor(SINGLE_ATTEMPT));
		caller.get(this.server.uri("/report"));
		for (int i = 0; i < 9; i++) {
			caller.get(this.server.uri("/report"));
		}
		this.clock.advance(Duration.ofSeconds(1));
		// The second rejection teaches a rate of 4.05 per second; one request is held for
		// its slot at the cooldown's instant.
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.COOLDOWN, HoldReason.PACING);
		// Its slot has passed: neither the cooldown nor the pacer holds anyone now, however
		// close together requests come.
		this.clock.advance(Duration.ofMillis(100));
		HttpHeaders keyed = new HttpHeaders();
		keyed.set("Idempotency-Key", "order-17");
		assertThat(caller.call(HttpMethod.POST, this.server.uri("/report"), keyed, "{}".getBytes(), (attributes) -> {
		}).status()).isEqualTo(200);
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1));
		assertThat(this.listener.holdReasons()).hasSize(2);
	}

	@Test
	void whenJitterIsOnThenAHeldRequestLeavesAtTheBoundaryPlusJitter() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3"), Reply.status(200));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(RetrySettings.defaults().withMaxAttempts(1)));

		caller.get(this.server.uri("/report"));
		caller.get(this.server.uri("/report"));

		// 3 s + 0.5 x 0.2 x 3 s
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofMillis(3300));
	}

	@Test
	void whenInterruptedWhileHeldThenNotSentAndTheFlagRestored() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3"), Reply.status(200));
		Sleeper interrupted = (duration) -> {
			throw new InterruptedException("stop");
		};
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(SINGLE_ATTEMPT, interrupted));
		caller.get(this.server.uri("/report"));

		assertThatExceptionOfType(ResourceAccessException.class)
			.isThrownBy(() -> caller.get(this.server.uri("/report")))
			.havingRootCause()
			.isInstanceOf(InterruptedException.class);
		assertThat(Thread.interrupted()).isTrue();
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.listener.events())
			.endsWith(new StoppedWithoutAttempt("default", "GET", StopReason.INTERRUPTED));
	}

	@Test
	void whenInterruptedWhileHeldThenTheExceptionSaysItWasAHold() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3"), Reply.status(200));
		Sleeper interrupted = (duration) -> {
			throw new InterruptedException("stop");
		};
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(SINGLE_ATTEMPT, interrupted));
		caller.get(this.server.uri("/report"));

		try {
			assertThatExceptionOfType(ResourceAccessException.class)
				.isThrownBy(() -> caller.get(this.server.uri("/report")))
				.withCauseInstanceOf(InterruptedIOException.class)
				.havingCause()
				.withMessage("GET request to http://127.0.0.1:" + this.server.port()
						+ " interrupted while held 3.0s for the origin's cooldown");
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void whenAnotherOriginIsCoolingDownThenTheRequestIsNotHeld() throws IOException {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3"));
		try (LoopbackHttpServer other = LoopbackHttpServer.start()) {
			other.on("/report", Reply.status(200));
			HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(SINGLE_ATTEMPT));

			caller.get(this.server.uri("/report"));
			assertThat(caller.get(other.uri("/report")).status()).isEqualTo(200);
		}
		assertThat(this.sleeper.sleeps()).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenTheHoldDoesNotFitTheBudgetThenRefusedWithoutSending(Kind kind) {
		this.server.on("/report", Reply.status(429).header("Retry-After", "30"));
		HttpCaller caller = kind.create(interceptor(SINGLE_ATTEMPT));
		caller.get(this.server.uri("/report"));

		assertThatExceptionOfType(ResourceAccessException.class)
			.isThrownBy(() -> caller.get(this.server.uri("/report")))
			.havingRootCause()
			.isInstanceOf(RetryRefusedException.class)
			.withMessage("Request to http://127.0.0.1:" + this.server.port() + " not sent: cooldown, 30.0s left");
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.events()).endsWith(new StoppedWithoutAttempt("default", "GET", StopReason.COOLDOWN));
	}

	@Test
	void whenRetryAfterIsHugeThenLaterRequestsFailFastForAtMostTheMaxDuration() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "9".repeat(40)));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);
		for (int i = 0; i < 3; i++) {
			assertThatExceptionOfType(ResourceAccessException.class)
				.isThrownBy(() -> caller.get(this.server.uri("/report")))
				.havingRootCause()
				.isInstanceOfSatisfying(RetryRefusedException.class,
						(refused) -> assertThat(refused.getTimeLeft()).isEqualTo(Duration.ofSeconds(60)));
		}
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.listener.attempts()).extracting(AttemptCompleted::decision)
			.containsExactly(new RetryDecision.Stop(StopReason.RETRY_AFTER_TOO_LONG));
		// After the capped minute one request goes out and learns the state again.
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);
		assertThat(this.server.requests()).hasSize(2);
	}

	@Test
	void whenModeIsFailFastThenRefusedAtOnceEvenIfTheWaitWouldFit() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "2"));
		RetrySettings failFast = SINGLE_ATTEMPT
			.withCooldown(new RetrySettings.Cooldown(true, CooldownMode.FAIL_FAST));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(failFast));
		caller.get(this.server.uri("/report"));
		this.clock.advance(Duration.ofMillis(500));

		assertThatExceptionOfType(ResourceAccessException.class)
			.isThrownBy(() -> caller.get(this.server.uri("/report")))
			.havingRootCause()
			.isInstanceOfSatisfying(RetryRefusedException.class, (refused) -> {
				assertThat(refused.getReason()).isEqualTo(StopReason.COOLDOWN);
				assertThat(refused.getTimeLeft()).isEqualTo(Duration.ofMillis(1500));
			});
		assertThat(this.server.requests()).hasSize(1);
	}

	@Test
	void whenAConcurrentCooldownOutlastsARetrysOwnPlanThenTheRetryWaitsForIt() {
		this.server.on("/report", Reply.status(503), Reply.status(200).body("ready"));
		CooldownKey origin = CooldownKey.of(Origin.of("http", "127.0.0.1", this.server.port()));
		// While this request backs off, another one to the origin gets a 429 with 4 s.
		Sleeper meanwhile = (duration) -> {
			this.sleeper.sleep(duration);
			if (this.sleeper.sleeps().size() == 1) {
				this.cooldowns.record(origin, Duration.ofSeconds(4), this.clock.nanoTime());
			}
		};
		Result result = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER, meanwhile)).get(this.server.uri("/report"));

		assertThat(result.body()).isEqualTo("ready");
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(4));
		assertThat(this.server.requests()).hasSize(2);
	}

	@Test
	void whenARetryIsRefusedByACooldownThenTheLastResponseIsReturned() {
		this.server.on("/report", Reply.status(503).body("busy"), Reply.status(200));
		CooldownKey origin = CooldownKey.of(Origin.of("http", "127.0.0.1", this.server.port()));
		Sleeper meanwhile = (duration) -> {
			this.sleeper.sleep(duration);
			this.cooldowns.record(origin, Duration.ofSeconds(4), this.clock.nanoTime());
		};
		RetrySettings failFast = NO_JITTER.withCooldown(new RetrySettings.Cooldown(true, CooldownMode.FAIL_FAST));
		Result result = Kind.REST_CLIENT_JDK.create(interceptor(failFast, meanwhile)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(503);
		assertThat(result.body()).isEqualTo("busy");
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.listener.events()).endsWith(new StoppedWithoutAttempt("default", "GET", StopReason.COOLDOWN));
	}

	@Test
	void whenTheRequestGivesUpThenItsRetryAfterStillSetsTheCooldown() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "45"));
		Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER.withTotalBudget(Duration.ofSeconds(5))))
			.get(this.server.uri("/report"));

		assertThat(this.listener.attempts()).extracting(AttemptCompleted::decision)
			.containsExactly(new RetryDecision.Stop(StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
		// Kept for the request's route: one route's 429 does not hold the origin's others.
		assertThat(this.cooldowns.snapshot(this.clock.nanoTime()))
			.containsExactly(entry(CooldownKey.of(Origin.of("http", "127.0.0.1", this.server.port()))
				.withScope(CooldownScope.route("/report")), Duration.ofSeconds(45)));
	}

	@Test
	void whenTheStatusIsNotRetryableOrTheHeaderUnusableThenNoCooldown() {
		this.server.on("/error", Reply.status(500).header("Retry-After", "5"));
		this.server.on("/ok", Reply.status(200).header("Retry-After", "5"));
		this.server.on("/invalid", Reply.status(503).header("Retry-After", "soon"));
		this.server.on("/zero", Reply.status(429).header("Retry-After", "0"));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(SINGLE_ATTEMPT));

		for (String path : new String[] { "/error", "/ok", "/invalid", "/zero" }) {
			caller.get(this.server.uri(path));
		}
		assertThat(this.cooldowns.snapshot(this.clock.nanoTime())).isEmpty();
	}

	@Test
	void whenCooldownIsDisabledThenNeitherRecordedNorHeld() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3"), Reply.status(200));
		RetrySettings off = SINGLE_ATTEMPT.withCooldown(new RetrySettings.Cooldown(false, CooldownMode.WAIT));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(off));

		caller.get(this.server.uri("/report"));
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.cooldowns.snapshot(this.clock.nanoTime())).isEmpty();
	}

	@Test
	void whenTheRetryBudgetIsSpentThenTheLastResponseIsReturnedWithReasonRetryBudget() {
		this.server.on("/report", Reply.status(503).body("busy"), Reply.status(200));
		RetrySettings stingy = NO_JITTER.withBudget(new RetrySettings.Budget(true, 0, 0, Duration.ofSeconds(10)));

		Result result = Kind.REST_CLIENT_JDK.create(interceptor(stingy)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(503);
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				new AttemptOutcome.Response(503, RetryAfter.ABSENT), new RetryDecision.Stop(StopReason.RETRY_BUDGET)));
	}

	@Test
	void whenRequestsAreMadeThenEachCountsTowardsItsClientsBudgetAndRetriesSpendIt() {
		// ratio 0.5 and no reserve: the first request alone does not pay for a retry, two do
		this.server.on("/report", Reply.status(200), Reply.status(503), Reply.status(200));
		RetrySettings billing = NO_JITTER.withBudget(new RetrySettings.Budget(true, 0.5, 0, Duration.ofSeconds(10)));
		ClientSettingsCatalog clients = new ClientSettingsCatalog(NO_JITTER,
				Map.of("billing", new ClientSettingsCatalog.NamedClient(Set.of("127.0.0.1"), billing)));
		RetryBudgets budgets = new RetryBudgets(clients, this.clock);
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(Interceptors.create(clients, this.listener,
				this.cooldowns, budgets, this.sleeper, this.clock, this.clock, MIDDLE));

		caller.get(this.server.uri("/report"));
		caller.get(this.server.uri("/report"));

		assertThat(this.listener.attempts()).extracting(AttemptCompleted::decision)
			.containsExactly(new RetryDecision.Stop(StopReason.SUCCESS),
					new RetryDecision.Retry(Duration.ofSeconds(1), Duration.ofSeconds(1), DelaySource.BACKOFF),
					new RetryDecision.Stop(StopReason.SUCCESS));
		assertThat(budgets.snapshots())
			.containsExactly(entry("default", new RetryBudget.Snapshot(0, 0, 100, Duration.ofSeconds(10))),
					entry("billing", new RetryBudget.Snapshot(2, 1, 0, Duration.ofSeconds(10))));
	}

	@Test
	void whenAPlannedRetryIsCalledOffThenItsBudgetPermitIsGivenBack() {
		// The wait overruns the whole budget, so the deadline re-check calls the retry off.
		this.server.on("/report", Reply.status(503).body("busy"), Reply.status(200));
		RetrySettings settings = NO_JITTER.withBudget(new RetrySettings.Budget(true, 0.0, 1, Duration.ofSeconds(60)));
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(settings);
		RetryBudgets budgets = new RetryBudgets(clients, this.clock);
		Sleeper overrunning = (duration) -> this.sleeper.sleep(duration.plus(Duration.ofSeconds(10)));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(Interceptors.create(clients, this.listener,
				this.cooldowns, budgets, overrunning, this.clock, this.clock, MIDDLE));

		Result result = caller.get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(503);
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.listener.events())
			.endsWith(new StoppedWithoutAttempt("default", "GET", StopReason.BUDGET_EXHAUSTED));
		// one request, no retry spent: the reserve of 1 x 60 s is whole again
		assertThat(budgets.snapshots())
			.containsExactly(entry("default", new RetryBudget.Snapshot(1, 0, 60, Duration.ofSeconds(60))));
	}

	@Test
	void whenACooldownRefusesARequestThenItDoesNotCountTowardsTheRetryBudget() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "30"));
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(SINGLE_ATTEMPT);
		RetryBudgets budgets = new RetryBudgets(clients, this.clock);
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(Interceptors.create(clients, this.listener,
				this.cooldowns, budgets, this.sleeper, this.clock, this.clock, MIDDLE));

		caller.get(this.server.uri("/report"));
		for (int i = 0; i < 3; i++) {
			assertThatExceptionOfType(ResourceAccessException.class)
				.isThrownBy(() -> caller.get(this.server.uri("/report")))
				.havingRootCause()
				.isInstanceOf(RetryRefusedException.class);
		}

		assertThat(this.server.requests()).hasSize(1);
		assertThat(budgets.snapshots())
			.containsExactly(entry("default", new RetryBudget.Snapshot(1, 0, 100, Duration.ofSeconds(10))));
	}

	@Test
	void whenACooldownWasRecordedBeforeTheRequestThenTheRequestIsHeld() {
		this.server.on("/report", Reply.status(200).body("ready"));
		CooldownKey origin = CooldownKey.of(Origin.of("http", "127.0.0.1", this.server.port()));
		this.cooldowns.record(origin, Duration.ofSeconds(4), this.clock.nanoTime());
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(SINGLE_ATTEMPT));

		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(4));
		assertThat(this.listener.events()).startsWith(new Held("default", "GET", origin, Duration.ofSeconds(4)));
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(4));
		// The next request found the ended cooldown and purged it; the origin stays watched
		// for its rate until 10 s pass without a queue, and then the store is empty again.
		assertThat(this.cooldowns.remaining(origin, this.clock.nanoTime())).isEqualTo(Duration.ZERO);
		assertThat(this.cooldowns.protection().size()).isZero();
		this.clock.advance(Duration.ofSeconds(11));
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(4));
		assertThat(this.cooldowns.hasCooldowns()).isFalse();
	}

	@Test
	void whenNoOriginIsCoolingDownThenTheStoreIsNotAskedToAdmit() {
		this.server.on("/report", Reply.status(200), Reply.status(429).header("Retry-After", "3"), Reply.status(200));
		AtomicInteger admits = new AtomicInteger();
		CooldownStore counting = new CooldownStore() {

			@Override
			public String name() {
				return "counting";
			}

			@Override
			public void record(CooldownKey origin, Duration delay, long nowNanos) {
				RetryAfterInterceptorProtectionTests.this.cooldowns.record(origin, delay, nowNanos);
			}

			@Override
			public OriginProtection protection() {
				return RetryAfterInterceptorProtectionTests.this.cooldowns.protection();
			}

			@Override
			public Admission admit(AdmissionRequest request) {
				admits.incrementAndGet();
				return CooldownStore.super.admit(request);
			}

		};
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(SINGLE_ATTEMPT);
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(Interceptors.create(clients, this.listener, counting,
				new RetryBudgets(clients, this.clock), this.sleeper, this.clock, this.clock, MIDDLE));

		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(admits).hasValue(0);
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);
		assertThat(admits).hasValue(0);
		// Asked once: a request is held at most once, then sent.
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(admits).hasValue(1);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(3));
	}

	@Test
	void whenTheCooldownIsExtendedWhileARequestIsHeldThenItIsSentWhenItsHoldEnds() {
		this.server.on("/report", Reply.status(200).body("ready"));
		CooldownKey origin = CooldownKey.of(Origin.of("http", "127.0.0.1", this.server.port()));
		this.cooldowns.record(origin, Duration.ofSeconds(1), this.clock.nanoTime());
		// While this request is held, a released one meets a fresh 429 and extends the cooldown.
		Sleeper extending = (duration) -> {
			this.sleeper.sleep(duration);
			this.cooldowns.record(origin, Duration.ofSeconds(1), this.clock.nanoTime());
		};
		Result result = Kind.REST_CLIENT_JDK.create(interceptor(SINGLE_ATTEMPT, extending))
			.get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(1));
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.listener.events()).containsOnlyOnce(new Held("default", "GET", origin, Duration.ofSeconds(1)));
	}

	@Test
	void whenARetryIsHeldThenItIsHeldOnlyOnceBeforeItIsSent() {
		this.server.on("/report", Reply.status(503), Reply.status(200).body("ready"));
		CooldownKey origin = CooldownKey.of(Origin.of("http", "127.0.0.1", this.server.port()));
		// Every wait ends with the cooldown pushed 2 s further by other requests' 429s.
		Sleeper extending = (duration) -> {
			this.sleeper.sleep(duration);
			this.cooldowns.record(origin, Duration.ofSeconds(2), this.clock.nanoTime());
		};
		Result result = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER, extending)).get(this.server.uri("/report"));

		assertThat(result.body()).isEqualTo("ready");
		// The planned 1 s backoff, then one hold of 2 s, then the retry is sent.
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
		assertThat(this.server.requests()).hasSize(2);
	}

	@Test
	void whenA503CarriesRetryAfterThenItPacesItsOwnRequestButStartsNoCooldown() {
		this.server.on("/report", Reply.status(503).header("Retry-After", "2"), Reply.status(200),
				Reply.status(200));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(2));
		assertThat(this.cooldowns.hasCooldowns()).isFalse();
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(2));
	}

	@Test
	void whenTheUserLists503AsACooldownStatusThenA503StartsOne() {
		this.server.on("/report", Reply.status(503).header("Retry-After", "2"));
		RetrySettings with503 = SINGLE_ATTEMPT
			.withCooldown(new RetrySettings.Cooldown(true, CooldownMode.WAIT, Set.of(429, 503), List.of()));
		Kind.REST_CLIENT_JDK.create(interceptor(with503)).get(this.server.uri("/report"));

		assertThat(this.cooldowns.snapshot(this.clock.nanoTime())).containsExactly(
				entry(CooldownKey.of(Origin.of("http", "127.0.0.1", this.server.port()))
					.withScope(CooldownScope.route("/report")), Duration.ofSeconds(2)));
	}

	@Test
	void whenPartitionHeadersAreSetThenOneTenantsCooldownDoesNotHoldAnother() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3"), Reply.status(200), Reply.status(200));
		RetrySettings partitioned = SINGLE_ATTEMPT.withCooldown(
				new RetrySettings.Cooldown(true, CooldownMode.WAIT, Set.of(429), List.of("Authorization")));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(partitioned));

		assertThat(get(caller, "Bearer tenant-a-secret").status()).isEqualTo(429);
		assertThat(get(caller, "Bearer tenant-b-secret").status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(get(caller, "Bearer tenant-a-secret").status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(3));

		CooldownKey key = this.cooldowns.protection().snapshot(this.clock.nanoTime() - 1).keySet().iterator().next();
		assertThat(key.origin()).isEqualTo(Origin.of("http", "127.0.0.1", this.server.port()));
		assertThat(key.partition()).hasSize(32).doesNotContain("tenant");
		assertThat(key.toString()).doesNotContain("secret").doesNotContain("Bearer");
		assertThat(this.listener.events().toString()).doesNotContain("secret");
	}

	/**
	 * A held request that a busy machine wakes well after its release instant: its {@code 429}
	 * answers the wave the cooldown released (rule 1 counts from when it was really sent), so
	 * the cooldown it starts holds new first attempts only, not other callers' retries.
	 */
	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenAHeldRequestIsSentLateThenTheCooldownItsRejectionStartsHoldsNoRetry(Kind kind) {
		this.server.on("/report", Reply.status(429).header("Retry-After", "1"),
				Reply.status(429).header("Retry-After", "1"));
		Sleeper late = (duration) -> this.clock.advance(duration.plusMillis(1500));
		HttpCaller caller = kind.create(interceptor(SINGLE_ATTEMPT, late));

		// 0 s: a 429 starts a cooldown; the next request is held to 1 s, sent at 2.5 s, and
		// turned away in its turn.
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);

		// The route's key: the origin named no other scope.
		CooldownKey route = this.cooldowns.protection().snapshot(this.clock.nanoTime()).keySet().iterator().next();
		assertThat(this.cooldowns.admit(new AdmissionRequest(route, this.clock.nanoTime(), Duration.ofSeconds(10),
				Duration.ofMillis(500), CooldownMode.WAIT, 0.0, MIDDLE, false)))
			.isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.admit(new AdmissionRequest(route, this.clock.nanoTime(), Duration.ofSeconds(10),
				Duration.ofMillis(500), CooldownMode.WAIT, 0.0, MIDDLE, true)))
			.isEqualTo(new Admission.Wait(Duration.ofSeconds(1)));
	}

	@Test
	void whenTheServerPacesTheRetriesThenAnExhaustedBudgetStillLetsThemThrough() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "1"), Reply.status(200).body("ready"));
		RetrySettings stingy = NO_JITTER.withBudget(new RetrySettings.Budget(true, 0, 0, Duration.ofSeconds(10)));
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(stingy);
		RetryBudgets budgets = new RetryBudgets(clients, this.clock);
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(Interceptors.create(clients, this.listener,
				this.cooldowns, budgets, this.sleeper, this.clock, this.clock, MIDDLE));

		assertThat(caller.get(this.server.uri("/report")).body()).isEqualTo("ready");
		assertThat(this.server.requests()).hasSize(2);
		// Both sends count as requests; the server-paced retry spent nothing.
		assertThat(budgets.snapshots())
			.containsExactly(entry("default", new RetryBudget.Snapshot(2, 0, 0, Duration.ofSeconds(10))));
	}

	private Result get(HttpCaller caller, String authorization) {
		HttpHeaders headers = new HttpHeaders();
		headers.set("Authorization", authorization);
		return caller.call(HttpMethod.GET, this.server.uri("/report"), headers, new byte[0],
				(attributes) -> {
				});
	}

	/** {@code count} replies, each a 200 but those at {@code rejected}: 429 with Retry-After: 1. */
	private static Reply[] okExceptRejectedAt(int count, int... rejected) {
		Reply[] replies = new Reply[count];
		Arrays.fill(replies, Reply.status(200));
		for (int index : rejected) {
			replies[index] = Reply.status(429).header("Retry-After", "1");
		}
		return replies;
	}

	private RetryAfterInterceptor interceptor(RetrySettings settings) {
		return interceptor(settings, this.sleeper);
	}

	private RetryAfterInterceptor interceptor(RetrySettings settings, Sleeper sleeper) {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(settings);
		return Interceptors.create(clients, this.listener, this.cooldowns, new RetryBudgets(clients, this.clock),
				sleeper, this.clock, this.clock, MIDDLE);
	}

}
