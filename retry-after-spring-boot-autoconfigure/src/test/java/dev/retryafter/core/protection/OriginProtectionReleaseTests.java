package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.List;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A cooldown that has ended holds and refuses nobody: past its instant a first attempt queues
 * only behind requests the cooldown really held that are still leaving, and only when that
 * queue fits its budget. Every hold says what held it, and {@link OriginProtection#protection}
 * shows the state behind it.
 */
class OriginProtectionReleaseTests {

	private static final CooldownKey A = CooldownKey.of(Origin.of("http", "a.example", -1));

	private static final CooldownKey B = CooldownKey.of(Origin.of("http", "b.example", -1));

	private static final Duration RESERVE = Duration.ofMillis(500);

	private final FakeClock clock = new FakeClock();

	private final OriginProtection cooldowns = new OriginProtection(100);

	@Test
	void whenACooldownHeldNobodyThenAFirstAttemptAfterItsInstantIsSentAtOnce() {
		// total-budget 2s and a 429 with Retry-After: 10: nothing fits, nothing is held.
		this.cooldowns.record(A, Duration.ofSeconds(10), now());
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(admit(A, Duration.ofSeconds(2), 0.5)).isEqualTo(new Admission.Refuse(Duration.ofSeconds(9)));
		this.clock.advance(Duration.ofMillis(9300));
		// 10.3 s after the 429: no held request is leaving, so nothing may refuse or hold it.
		assertThat(admit(A, Duration.ofSeconds(2), 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(admit(A, Duration.ofSeconds(2), 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.size()).isZero();
	}

	@Test
	void whenHeldRequestsAreStillLeavingThenAFirstAttemptQueuesBehindTheLastOfThem() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		// Held to the instant plus 0.25 x 0.2 x 2 s: it leaves at 2.1 s.
		assertThat(admit(A, Duration.ofSeconds(10), 0.25)).isEqualTo(new Admission.Wait(Duration.ofMillis(2100)));
		this.clock.advance(Duration.ofMillis(2050));
		// Behind it (50 ms), plus jitter of its own (0.5 x 0.2 x 2 s).
		assertThat(admit(A, Duration.ofSeconds(10), 0.5))
			.isEqualTo(new Admission.Wait(Duration.ofMillis(250), HoldReason.RELEASE_WINDOW));
		// Queued requests are not released by the cooldown: nobody queues behind them.
		this.clock.advance(Duration.ofMillis(51));
		assertThat(admit(A, Duration.ofSeconds(10), 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.size()).isZero();
	}

	@Test
	void whenTheQueueDoesNotFitTheBudgetThenTheRequestIsSentInsteadOfRefused() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		// Held to 2 s + 0.9 x 0.2 x 2 s: it leaves at 2.36 s.
		assertThat(admit(A, Duration.ofSeconds(10), 0.9)).isEqualTo(new Admission.Wait(Duration.ofMillis(2360)));
		this.clock.advance(Duration.ofMillis(2100));
		// 260 ms of queue and 500 ms of reserve do not fit 700 ms of budget.
		assertThat(admit(A, Duration.ofMillis(700), 0.5)).isEqualTo(Admission.PROCEED);
		// 760 ms fit exactly: the request queues, its jitter trimmed to the budget.
		assertThat(admit(A, Duration.ofMillis(760), 0.5))
			.isEqualTo(new Admission.Wait(Duration.ofMillis(260), HoldReason.RELEASE_WINDOW));
	}

	@Test
	void whenCooldownsAreCountedThenTheReleaseWindowOfHeldRequestsIsKept() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		admit(A, Duration.ofSeconds(10), 1.0);
		this.clock.advance(Duration.ofMillis(2100));
		// The gauge counts running cooldowns only, and its poll purges: the requests still
		// leaving must not be forgotten by that.
		assertThat(this.cooldowns.activeCount(now())).isZero();
		this.cooldowns.purgeExpired(now());
		assertThat(this.cooldowns.snapshot(now())).isEmpty();
		assertThat(this.cooldowns.remaining(A, now())).isEqualTo(Duration.ZERO);
		assertThat(admit(A, Duration.ofSeconds(10), 0.0))
			.isEqualTo(new Admission.Wait(Duration.ofMillis(300), HoldReason.RELEASE_WINDOW));
		this.clock.advance(Duration.ofMillis(300));
		assertThat(this.cooldowns.activeCount(now())).isZero();
		this.cooldowns.purgeExpired(now());
		assertThat(this.cooldowns.size()).isZero();
	}

	@Test
	void whenTheCooldownIsRenewedThenTheRequestsTheOldOneHeldStillCount() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		// Leaves at 2.4 s.
		admit(A, Duration.ofSeconds(10), 1.0);
		// A later instant, 2.1 s from the start, wins.
		this.clock.advance(Duration.ofMillis(100));
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		this.clock.advance(Duration.ofMillis(2100));
		// Past the new instant, the request the old cooldown held is still to leave.
		assertThat(admit(A, Duration.ofSeconds(10), 0.0))
			.isEqualTo(new Admission.Wait(Duration.ofMillis(200), HoldReason.RELEASE_WINDOW));
	}

	@Test
	void whenARetryWaitsOutTheCooldownThenAFirstAttemptAfterTheInstantQueuesBehindIt() {
		// A 429 with Retry-After: 1, its retry planned 1.15 s from now (the server's delay
		// plus the planner's jitter).
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.cooldowns.retryPlanned(A, Duration.ofMillis(1150), now());
		this.clock.advance(Duration.ofMillis(1050));
		// Past the instant, a caller let go would spend the allowance the retry waited for.
		assertThat(admit(A, Duration.ofSeconds(10), 0.0))
			.isEqualTo(new Admission.Wait(Duration.ofMillis(100), HoldReason.RELEASE_WINDOW));
		this.clock.advance(Duration.ofMillis(100));
		assertThat(admit(A, Duration.ofSeconds(10), 0.0)).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.size()).isZero();
	}

	@Test
	void whenARetryIsPlannedPastTheJitterWindowOrWithoutACooldownThenItHoldsNobody() {
		// Planned 2.5 s after a 1 s cooldown, more than one delay past its instant: the
		// planner's own backoff, which would hold first attempts far longer than the cooldown.
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.cooldowns.retryPlanned(A, Duration.ofMillis(2500), now());
		// No cooldown under B: a retry planned there (a 503 without Retry-After) holds nothing.
		this.cooldowns.retryPlanned(B, Duration.ofMillis(500), now());
		assertThat(admit(B, Duration.ofSeconds(10), 0.0)).isEqualTo(Admission.PROCEED);
		this.clock.advance(Duration.ofMillis(1001));
		assertThat(admit(A, Duration.ofSeconds(10), 0.0)).isEqualTo(Admission.PROCEED);
		// A delay too large for the clock saturates instead of wrapping to an early instant.
		this.cooldowns.record(B, Duration.ofSeconds(1), now());
		this.cooldowns.retryPlanned(B, Duration.ofSeconds(Long.MAX_VALUE), now());
		this.clock.advance(Duration.ofMillis(1001));
		assertThat(admit(B, Duration.ofSeconds(10), 0.0)).isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenARequestIsHeldThenItsWaitSaysWhatHeldIt() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		assertThat(admit(A, Duration.ofSeconds(10), 0.0)).isInstanceOfSatisfying(Admission.Wait.class,
				(wait) -> assertThat(wait.reason()).isEqualTo(HoldReason.COOLDOWN));
		assertThat(HoldReason.COOLDOWN.tagValue()).isEqualTo("cooldown");
		assertThat(HoldReason.RELEASE_WINDOW.tagValue()).isEqualTo("release-window");
		assertThat(HoldReason.PACING.tagValue()).isEqualTo("pacing");
	}

	@Test
	void whenAKeyCanHoldARequestThenItsProtectionShowsWhy() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		admit(A, Duration.ofSeconds(10), 0.5);
		admit(A, Duration.ofSeconds(10), 1.0);
		this.clock.advance(Duration.ofMillis(500));
		assertThat(this.cooldowns.protection(now())).containsExactly(new KeyProtection(A, Duration.ofMillis(1500),
				Duration.ofMillis(1900), 2, Double.NaN, null));
		this.clock.advance(Duration.ofMillis(1700));
		// Past the instant: one held request is still to leave, 200 ms from now.
		assertThat(this.cooldowns.protection(now())).containsExactly(new KeyProtection(A, Duration.ofMillis(-200),
				Duration.ofMillis(200), 1, Double.NaN, null));
		this.clock.advance(Duration.ofMillis(200));
		assertThat(this.cooldowns.protection(now())).isEmpty();
		assertThat(this.cooldowns.protection(now())).noneMatch((view) -> view.key().equals(B));
	}

	@Test
	void whenAKeyIsPacedThenItsProtectionShowsTheRateAndTheNextFreeSlot() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		long interval = (long) (1e9 / 18);
		admit(A, Duration.ofSeconds(10), 0.0);
		List<KeyProtection> views = this.cooldowns.protection(now());
		assertThat(views).hasSize(1);
		KeyProtection view = views.get(0);
		assertThat(view.instant()).isEqualTo(Duration.ofSeconds(1));
		assertThat(view.leaving()).isEqualTo(1);
		assertThat(view.pacedRate()).isEqualTo(18.0, within(1e-9));
		assertThat(view.nextSlot()).isEqualTo(Duration.ofNanos(1_000_000_000L + interval));
		// Once the queue has left, a request is not paced: there is no next slot to show.
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(this.cooldowns.protection(now())).singleElement()
			.satisfies((ended) -> assertThat(ended.nextSlot()).isNull())
			.satisfies((ended) -> assertThat(ended.instant()).isNull())
			.satisfies((ended) -> assertThat(ended.pacedRate()).isEqualTo(18.0, within(1e-9)));
	}

	/**
	 * 40 accepted over 2 s, then a second rejection of 1 s.
	 */
	private void learnEighteenPerSecond() {
		for (int i = 0; i < 40; i++) {
			this.clock.advance(Duration.ofMillis(50));
			this.cooldowns.accepted(A, now());
		}
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
	}

	private Admission admit(CooldownKey key, Duration budget, double random) {
		return this.cooldowns.admit(new AdmissionRequest(key, now(), budget, RESERVE, CooldownMode.WAIT, 0.2,
				new FixedRandom(random), true));
	}

	private long now() {
		return this.clock.nanoTime();
	}

}
