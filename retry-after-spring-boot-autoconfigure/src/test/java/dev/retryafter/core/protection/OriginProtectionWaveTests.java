package dev.retryafter.core.protection;

import java.time.Duration;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which requests a later rejection may hold (rule 1 of {@link OriginProtection}): the
 * rejections that answer the wave a cooldown released start a follow-up, which holds first
 * attempts only. Neither the first wave's retries nor the wave's own are pushed back by them.
 */
class OriginProtectionWaveTests {

	private static final CooldownKey A = CooldownKey.of(Origin.of("http", "a.example", -1));

	private static final Duration BUDGET = Duration.ofSeconds(10);

	private static final Duration RESERVE = Duration.ofMillis(500);

	private final FakeClock clock = new FakeClock();

	private final OriginProtection cooldowns = new OriginProtection(100);

	@Test
	void whenTheReleasedWaveIsTurnedAwayThenTheFirstWavesRetriesAreNotPushedBack() {
		// 0 s: the first caller's 429 with Retry-After: 1.
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		// 10 ms: three callers arrive and are held to the instant plus 0.5 x 0.2 x 1 s.
		this.clock.advance(Duration.ofMillis(10));
		for (int i = 0; i < 3; i++) {
			assertThat(first(0.5)).isEqualTo(new Admission.Wait(Duration.ofMillis(1090)));
		}
		// 1.1 s: they leave together, and each is answered 429 with Retry-After: 1.
		this.clock.advance(Duration.ofMillis(1090));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.clock.advance(Duration.ofMillis(20));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		// 1.12 s: the first caller's retry, a second after its own 429, is not held for the
		// instant the wave's 429s asked for (2.12 s).
		assertThat(retry()).isEqualTo(Admission.PROCEED);
		// A first attempt arriving now is: the follow-up holds new arrivals, to its instant
		// plus jitter.
		assertThat(first(0.5)).isEqualTo(new Admission.Wait(Duration.ofMillis(1100)));
		// 2.1 s: a retry of the wave, a second after its own 429, is not held for its
		// neighbour's later one either.
		this.clock.advance(Duration.ofMillis(980));
		assertThat(retry()).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.remaining(A, now())).isEqualTo(Duration.ofMillis(20));
	}

	@Test
	void whenACooldownHeldNobodyThenALaterRejectionHoldsRetriesAsBefore() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.clock.advance(Duration.ofMillis(1100));
		// No wave was released: this 429 is a cooldown of its own, and holds a retry.
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(retry()).isEqualTo(new Admission.Wait(Duration.ofSeconds(1)));
	}

	@Test
	void whenTheWaveHasBeenAnsweredThenANewCooldownHoldsRetriesAgain() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(first(0.0)).isEqualTo(new Admission.Wait(Duration.ofSeconds(1)));
		// One server delay past the instant, the wave has been answered.
		this.clock.advance(Duration.ofSeconds(2));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(retry()).isEqualTo(new Admission.Wait(Duration.ofSeconds(1)));
	}

	@Test
	void whenARejectionRenewsACooldownBeforeItsInstantThenRetriesAreHeldAsBefore() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(first(0.0)).isEqualTo(new Admission.Wait(Duration.ofSeconds(1)));
		this.clock.advance(Duration.ofMillis(500));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.clock.advance(Duration.ofMillis(600));
		// The renewed instant (1.5 s) holds a retry, and the request held first keeps its slot.
		assertThat(retry()).isEqualTo(new Admission.Wait(Duration.ofMillis(400)));
	}

	@Test
	void whenARequestReleasedAtAnEarlierInstantIsTurnedAwayBeforeTheRenewedInstantThenItsRejectionAnswersTheWave() {
		// 0 s: the first caller's 429; a caller is held to its instant, 1 s.
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(first(0.0)).isEqualTo(new Admission.Wait(Duration.ofSeconds(1)));
		// 5 ms: a second caller of the first wave is answered 429 too, renewing the cooldown.
		this.clock.advance(Duration.ofMillis(5));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		// 1 s: the held caller leaves at the instant it was given; 1.002 s its 429, before the
		// renewed instant (1.005 s). It answers the wave: the first wave's retries are not
		// held for the instant it asks for.
		this.clock.advance(Duration.ofMillis(995));
		this.cooldowns.left(A, HoldReason.COOLDOWN, now());
		this.clock.advance(Duration.ofMillis(2));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.clock.advance(Duration.ofMillis(50));
		assertThat(retry()).isEqualTo(Admission.PROCEED);
		assertThat(first(0.0)).isEqualTo(new Admission.Wait(Duration.ofMillis(950)));
	}

	@Test
	void whenTheFollowUpIsRenewedThenItStillHoldsFirstAttemptsOnly() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		first(0.0);
		this.clock.advance(Duration.ofMillis(1100));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.clock.advance(Duration.ofMillis(100));
		this.cooldowns.record(A, Duration.ofSeconds(5), now());
		assertThat(retry()).isEqualTo(Admission.PROCEED);
		assertThat(first(0.0)).isEqualTo(new Admission.Wait(Duration.ofSeconds(5)));
	}

	@Test
	void whenAHeldRequestIsSentLateThenItsRejectionStillAnswersTheWave() {
		// 0 s: a 429 with Retry-After: 1; a caller is held to the instant plus 0.5 x 0.2 x 1 s.
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(first(0.5)).isEqualTo(new Admission.Wait(Duration.ofMillis(1100)));
		// 2.3 s: a busy machine lets it go 1.2 s after its release instant; 2.9 s: its 429,
		// past one server delay after the instant, but not after the request was sent.
		this.clock.advance(Duration.ofMillis(2300));
		this.cooldowns.left(A, HoldReason.COOLDOWN, now());
		this.clock.advance(Duration.ofMillis(600));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		// A follow-up: the first caller's retry is not held for it, a new arrival is.
		assertThat(retry()).isEqualTo(Admission.PROCEED);
		assertThat(first(0.0)).isEqualTo(new Admission.Wait(Duration.ofSeconds(1)));
	}

	@Test
	void whenTheWavesLastRequestIsSentAfterTheFollowUpsInstantThenItsRejectionStillAnswersTheWave() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		first(0.0);
		first(0.0);
		// 1 s: one held request is sent at its instant, 1.05 s its 429 starts the follow-up.
		this.clock.advance(Duration.ofSeconds(1));
		this.cooldowns.left(A, HoldReason.COOLDOWN, now());
		this.clock.advance(Duration.ofMillis(50));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		// 1.9 s: the other is sent late; 2.4 s its 429, after the follow-up's instant (2.05 s).
		this.clock.advance(Duration.ofMillis(850));
		this.cooldowns.left(A, HoldReason.COOLDOWN, now());
		this.clock.advance(Duration.ofMillis(500));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(retry()).isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenTheCooldownWasForgottenBeforeItsWaveWasSentThenTheWavesRejectionsStillStartAFollowUp() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		first(0.0);
		first(0.0);
		// 1.5 s: every planned release has passed, and a retry's admission ends the cooldown.
		this.clock.advance(Duration.ofMillis(1500));
		assertThat(retry()).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.size()).isZero();
		// 2.2 s: one held request is sent at last; 2.5 s: its 429 starts a follow-up.
		this.clock.advance(Duration.ofMillis(700));
		this.cooldowns.left(A, HoldReason.COOLDOWN, now());
		this.clock.advance(Duration.ofMillis(300));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(retry()).isEqualTo(Admission.PROCEED);
		// 3.2 s: the other is sent; 3.6 s: its 429, after the follow-up's instant (3.5 s), is
		// still the wave's: the follow-up goes on with the wave's releases.
		this.clock.advance(Duration.ofMillis(700));
		this.cooldowns.left(A, HoldReason.COOLDOWN, now());
		this.clock.advance(Duration.ofMillis(400));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(retry()).isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenTheWavesRequestsWereSentMoreThanOneDelayAgoThenANewCooldownHoldsRetriesAgain() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		first(0.0);
		this.clock.advance(Duration.ofMillis(1500));
		this.cooldowns.left(A, HoldReason.COOLDOWN, now());
		this.clock.advance(Duration.ofMillis(1100));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(retry()).isEqualTo(new Admission.Wait(Duration.ofSeconds(1)));
	}

	@Test
	void whenARequestAnotherRuleHeldIsSentThenTheWaveIsAnsweredAsBefore() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		first(0.0);
		// Sent late, but reported as held for a quota slot: not the cooldown's wave.
		this.clock.advance(Duration.ofMillis(2300));
		this.cooldowns.left(A, HoldReason.QUOTA, now());
		this.clock.advance(Duration.ofMillis(100));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(retry()).isEqualTo(new Admission.Wait(Duration.ofSeconds(1)));
	}

	private Admission first(double random) {
		return this.cooldowns.admit(new AdmissionRequest(A, now(), BUDGET, RESERVE, CooldownMode.WAIT, 0.2,
				new FixedRandom(random), true));
	}

	private Admission retry() {
		return this.cooldowns.admit(new AdmissionRequest(A, now(), BUDGET, RESERVE, CooldownMode.WAIT, 0.0,
				new FixedRandom(0.5), false));
	}

	private long now() {
		return this.clock.nanoTime();
	}

}
