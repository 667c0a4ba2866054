package dev.retryafter.core.protection;

import java.time.Duration;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.Origin;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * How fast a learned rate grows while requests queue for its slots: a twentieth per second
 * until the pacer has gone its quiet period (10 s, or two delays) without a rejection, then
 * doubling every server delay, until the next rejection measures it anew. A rate learned low
 * from a rejection that other clients' load caused would otherwise take tens of seconds to
 * find an origin that has room again.
 */
class LearnedRateQuietGrowthTests {

	private static final CooldownKey A = CooldownKey.of(Origin.of("http", "a.example", -1));

	private static final double EARLY_GROWTH = 0.05;

	// Doubling every delay of 1 s: ln 2 per accepted request, as acceptances come at the rate.
	private static final double QUIET_GROWTH = Math.log(2);

	private final LearnedRateFixture fixture = new LearnedRateFixture(A);

	@Test
	void whenNoRejectionCameForTheQuietPeriodWhileRequestsQueueThenEachAcceptanceAddsADoublingPerDelay() {
		this.fixture.learnEighteenPerSecond();
		long rejectedAt = now();
		queueSlots(150);

		this.fixture.clock.advance(Duration.ofSeconds(5));
		assertThat(growthOfOneAcceptance()).isCloseTo(EARLY_GROWTH, within(1e-9));
		queueSlots(30);

		this.fixture.clock.advance(Duration.ofNanos(rejectedAt + 10_000_000_000L - now()));
		assertThat(growthOfOneAcceptance()).isCloseTo(EARLY_GROWTH, within(1e-9));
		this.fixture.clock.advance(Duration.ofMillis(1));
		assertThat(growthOfOneAcceptance()).isCloseTo(QUIET_GROWTH, within(1e-9));

		// The next rejection starts the quiet period again.
		this.fixture.protection.record(A, Duration.ofSeconds(1), now());
		assertThat(growthOfOneAcceptance()).isCloseTo(EARLY_GROWTH, within(1e-9));
	}

	@Test
	void whenTheServersDelayIsLongThenTheQuietPeriodIsTwoDelaysAndTheRateDoublesOncePerDelay() {
		this.fixture.protection.record(A, Duration.ofSeconds(8), now());
		for (int i = 0; i < 40; i++) {
			this.fixture.clock.advance(Duration.ofMillis(200));
			this.fixture.protection.accepted(A, now());
		}
		this.fixture.protection.record(A, Duration.ofSeconds(8), now());
		long rejectedAt = now();
		assertThat(this.fixture.rates.own(A)).isCloseTo(0.9 * 40 / 8, within(1e-9));
		// Slots from the cooldown's instant on, and again as the budget lets later slots fit.
		for (int second = 0; second <= 16; second++) {
			queueSlots(5);
			if (second < 16) {
				this.fixture.clock.advance(Duration.ofSeconds(1));
			}
		}
		this.fixture.clock.advance(Duration.ofNanos(rejectedAt + 16_000_000_000L - now()));
		assertThat(growthOfOneAcceptance()).isCloseTo(EARLY_GROWTH, within(1e-9));
		this.fixture.clock.advance(Duration.ofMillis(1));
		assertThat(growthOfOneAcceptance()).isCloseTo(QUIET_GROWTH / 8, within(1e-9));
	}

	@Test
	void whenNoRequestQueuesThenTheRateDoesNotGrowHoweverQuiet() {
		this.fixture.learnEighteenPerSecond();
		this.fixture.clock.advance(Duration.ofSeconds(11));
		assertThat(growthOfOneAcceptance()).isZero();
	}

	private void queueSlots(int count) {
		for (int i = 0; i < count; i++) {
			this.fixture.protection.admit(new AdmissionRequest(A, now(), Duration.ofSeconds(10), Duration.ofMillis(500),
					CooldownMode.WAIT, 0.0, new FixedRandom(0.5), true, false));
		}
	}

	private double growthOfOneAcceptance() {
		double before = this.fixture.rates.own(A);
		this.fixture.protection.accepted(A, now());
		return this.fixture.rates.own(A) - before;
	}

	private long now() {
		return this.fixture.clock.nanoTime();
	}

}
