package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.core.header.RateLimitFields;
import dev.retryafter.core.header.RateLimitReading;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Pacing: the rate a key's origin accepted between two of its rejections spaces the requests
 * held for it afterwards.
 */
class OriginProtectionPacingTests {

	private static final CooldownKey A = CooldownKey.of(Origin.of("http", "a.example", -1));

	private static final CooldownKey B = CooldownKey.of(Origin.of("http", "b.example", -1));

	private static final Duration BUDGET = Duration.ofSeconds(10);

	private static final Duration RESERVE = Duration.ofMillis(500);

	// 40 accepted in the 2 s between the rejections, 0.9 of it: 18 per second.
	private static final long INTERVAL_NANOS = (long) (1e9 / 18);

	private final FakeClock clock = new FakeClock();

	private final OriginProtection cooldowns = new OriginProtection(100);

	@Test
	void whenTheOriginRejectsTwiceADelayApartThenTheRateIsWhatItAcceptedBetween() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(this.cooldowns.learnedRates().own(A)).isNaN();
		learnEighteenPerSecond();
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(18.0, within(1e-9));
		assertThat(this.cooldowns.learnedRates().own(B)).isNaN();
	}

	@Test
	void whenRejectionsComeInABurstThenTheWindowStaysOpenUntilItIsADelayLong() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		accept(A, 10);
		this.clock.advance(Duration.ofMillis(500));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(this.cooldowns.learnedRates().own(A)).isNaN();
		accept(A, 10);
		this.clock.advance(Duration.ofMillis(500));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		// 20 accepted in the 1 s since the first rejection.
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(18.0, within(1e-9));
	}

	@Test
	void whenNothingWasAcceptedBetweenRejectionsThenNoRateIsLearned() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.clock.advance(Duration.ofSeconds(3));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(this.cooldowns.learnedRates().own(A)).isNaN();
		// Without a rate the cooldown alone decides: its instant plus jitter.
		assertThat(admit(A, 0.2, 0.5)).isEqualTo(new Admission.Wait(Duration.ofMillis(1100)));
	}

	@Test
	void whenPacedThenHeldRequestsLeaveOneIntervalApartFromTheInstant() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		// Cooling until 1 s from now: the first slot is the instant, then one every 1/18 s.
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(waitFor(1_000_000_000L));
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(waitFor(1_000_000_000L + INTERVAL_NANOS));
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(waitFor(1_000_000_000L + 2 * INTERVAL_NANOS));
		// Jitter spreads a slot over a share of its interval: 0.5 x 0.2 x 1/18 s.
		assertThat(admit(A, 0.2, 0.5)).isEqualTo(waitFor(1_000_000_000L + 3 * INTERVAL_NANOS + INTERVAL_NANOS / 10));
		// Another key is not paced.
		assertThat(admit(B, 0.2, 0.5)).isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenTheOriginAnnouncesItsQuotaThenAClientThatReadsItIsPacedByTheQuotaNotTheLearnedRate() {
		this.cooldowns.recordQuota(A, new RateLimitReading("day", 1000, Duration.ofSeconds(60), 1000,
				Duration.ofSeconds(60), RateLimitFields.IETF), true, now());
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(18.0, within(1e-9));

		// The quota's slots (1000 left for 60 s: 60 ms apart, the first at the cooldown's
		// instant, where the cooldown's own hold stands) hold the first attempts, not the
		// learned rate's.
		assertThat(admitReadingQuotas(A)).isEqualTo(cooldownFor(1_000_000_000L));
		assertThat(admitReadingQuotas(A)).isEqualTo(quotaFor(1_060_000_000L));
		assertThat(admitReadingQuotas(A)).isEqualTo(quotaFor(1_120_000_000L));
		// A client that does not read quotas is still paced at the learned rate.
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(waitFor(1_000_000_000L));
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(waitFor(1_000_000_000L + INTERVAL_NANOS));
	}

	@Test
	void whenARetryComesWhileRequestsAreQueuedThenOnlyTheCooldownHoldsIt() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(waitFor(1_000_000_000L));
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(waitFor(1_000_000_000L + INTERVAL_NANOS));
		// It has waited out the server's delay for its own request: no slot, only the instant.
		assertThat(retry()).isEqualTo(cooldownFor(1_000_000_000L));
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(retry()).isEqualTo(Admission.PROCEED);
		// The queue it skipped is still there for first attempts, and each retry took a slot
		// from it (the origin counts retries too): the next is two intervals further on.
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(waitFor(4 * INTERVAL_NANOS));
		assertThat(this.cooldowns.learnedRates().takeSpent(A)).isEqualTo(2);
		assertThat(this.cooldowns.learnedRates().takeSpent(A)).isZero();
	}

	@Test
	void whenARetryGoesWithNoFirstAttemptQueuedThenTheNextSlotIsAnIntervalAfterIt() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		// The retry is held to the instant; the first attempt after it gets the slot after.
		assertThat(retry()).isEqualTo(cooldownFor(1_000_000_000L));
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(waitFor(1_000_000_000L + INTERVAL_NANOS));
	}

	@Test
	void whenNoRateIsLearnedThenARetrySpendsNothing() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(retry()).isEqualTo(cooldownFor(1_000_000_000L));
		assertThat(this.cooldowns.learnedRates().takeSpent(A)).isZero();
	}

	private Admission retry() {
		return this.cooldowns.admit(new AdmissionRequest(A, now(), BUDGET, RESERVE, CooldownMode.WAIT, 0.0,
				new FixedRandom(0.5), false));
	}

	@Test
	void whenTheCooldownHasEndedAndNoPacedRequestIsStillLeavingThenRequestsGoAtOnce() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(this.cooldowns.remaining(A, now())).isEqualTo(Duration.ZERO);
		// A cooldown that has ended holds nobody: no queue, so no slot either, however close
		// together the requests come.
		for (int i = 0; i < 5; i++) {
			assertThat(admit(A, 0.0, 0.5)).isEqualTo(Admission.PROCEED);
		}
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(18.0, within(1e-9));
	}

	@Test
	void whenPacedRequestsAreStillLeavingAfterTheInstantThenANewOneTakesTheNextSlot() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		for (int i = 0; i < 3; i++) {
			admit(A, 0.0, 0.5);
		}
		// Past the instant, two of the three slots are still to come: the queue stands.
		this.clock.advance(Duration.ofSeconds(1).plusNanos(INTERVAL_NANOS / 2));
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(waitFor(3 * INTERVAL_NANOS - INTERVAL_NANOS / 2));
		// Once the last slot has come, it has drained: the next request goes at once.
		this.clock.advance(Duration.ofNanos(3 * INTERVAL_NANOS - INTERVAL_NANOS / 2));
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenASlotDoesNotFitTheBudgetThenTheCooldownAloneDecidesAndTheSlotStaysFree() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		for (int i = 0; i < 10; i++) {
			admit(A, 0.0, 0.5);
		}
		// The next slot is 1 s + 10 intervals away, which 1.6 s of budget less 0.5 s of reserve
		// cannot hold; the cooldown's instant (1 s away) fits, so the request waits for it.
		Admission tight = this.cooldowns.admit(new AdmissionRequest(A, now(), Duration.ofMillis(1600), RESERVE,
				CooldownMode.WAIT, 0.0, new FixedRandom(0.5), true));
		assertThat(tight).isEqualTo(cooldownFor(1_000_000_000L));
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(waitFor(1_000_000_000L + 10 * INTERVAL_NANOS));
		// When not even the instant fits, the cooldown refuses, as it always did.
		Admission refused = this.cooldowns.admit(new AdmissionRequest(A, now(), Duration.ofMillis(1200), RESERVE,
				CooldownMode.WAIT, 0.0, new FixedRandom(0.5), true));
		assertThat(refused).isEqualTo(new Admission.Refuse(Duration.ofSeconds(1)));
	}

	@Test
	void whenRequestsQueueThenTheRateGrowsWithEveryAcceptedOne() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		accept(A, 20);
		// Nothing queued yet: the rate is what the rejections measured.
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(18.0, within(1e-9));
		admit(A, 0.0, 0.5);
		accept(A, 20);
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(19.0, within(1e-9));
	}

	@Test
	void whenFailFastThenRequestsAreNotPaced() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(admit(A, CooldownMode.FAIL_FAST)).isEqualTo(Admission.PROCEED);
		assertThat(admit(A, CooldownMode.FAIL_FAST)).isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenNothingQueuesForTenSecondsThenThePacerIsForgotten() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(waitFor(1_000_000_000L));
		// The slot ended 1 s from now; ten quiet seconds after it the origin is forgotten.
		this.clock.advance(Duration.ofSeconds(11));
		assertThat(this.cooldowns.isEmpty()).isFalse();
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(Admission.PROCEED);
		this.clock.advance(Duration.ofNanos(1));
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.learnedRates().own(A)).isNaN();
		assertThat(this.cooldowns.isEmpty()).isTrue();
	}

	@Test
	void whenALongDelayWasAskedThenThePacerLastsTwoOfThem() {
		this.cooldowns.record(A, Duration.ofSeconds(8), now());
		this.clock.advance(Duration.ofSeconds(12));
		assertThat(this.cooldowns.activeCount(now())).isZero();
		this.cooldowns.purgeExpired(now());
		assertThat(this.cooldowns.isEmpty()).isFalse();
		this.clock.advance(Duration.ofSeconds(4).plusNanos(1));
		assertThat(this.cooldowns.activeCount(now())).isZero();
		this.cooldowns.purgeExpired(now());
		assertThat(this.cooldowns.isEmpty()).isTrue();
	}

	@Test
	void whenCooldownsAreEndedThenWhatWasLearnedIsForgottenToo() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		this.cooldowns.record(B, Duration.ofSeconds(1), now());
		this.cooldowns.endAll(A.origin());
		assertThat(this.cooldowns.learnedRates().own(A)).isNaN();
		assertThat(admit(A, 0.0, 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.end(B)).isTrue();
		assertThat(this.cooldowns.isEmpty()).isTrue();
	}

	@Test
	void whenTheOriginAcceptsRequestsForAKeyItNeverRejectedThenNothingIsKept() {
		accept(A, 100);
		assertThat(this.cooldowns.isEmpty()).isTrue();
		assertThat(this.cooldowns.learnedRates().own(A)).isNaN();
	}

	@Test
	void whenMoreKeysArePacedThanTheBoundThenThoseWithoutACooldownGoFirst() {
		OriginProtection two = new OriginProtection(2);
		CooldownKey c = CooldownKey.of(Origin.of("http", "c.example", -1));
		two.record(A, Duration.ofSeconds(1), now());
		this.clock.advance(Duration.ofSeconds(2));
		two.record(B, Duration.ofSeconds(5), now());
		two.record(c, Duration.ofSeconds(5), now());
		// A's cooldown has ended: its pacer is the one dropped to keep the bound.
		assertThat(two.pacedKeys()).isEqualTo(2);
		assertThat(two.size()).isEqualTo(2);
		assertThat(two.remaining(B, now())).isEqualTo(Duration.ofSeconds(5));
		assertThat(two.remaining(c, now())).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void whenManyThreadsAskAtOnceThenEachGetsItsOwnSlot() throws Exception {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		learnEighteenPerSecond();
		int threads = 8;
		int each = 50;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<List<Long>>> results = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				results.add(pool.submit(() -> {
					start.await();
					List<Long> waits = new ArrayList<>();
					for (int i = 0; i < each; i++) {
						Admission admission = this.cooldowns.admit(new AdmissionRequest(A, now(),
								Duration.ofSeconds(100), RESERVE, CooldownMode.WAIT, 0.0, new FixedRandom(0.5),
								true));
						waits.add(((Admission.Wait) admission).delay().toNanos());
					}
					return waits;
				}));
			}
			start.countDown();
			List<Long> all = new ArrayList<>();
			for (Future<List<Long>> result : results) {
				all.addAll(result.get(10, TimeUnit.SECONDS));
			}
			Collections.sort(all);
			List<Long> expected = new ArrayList<>();
			for (int i = 0; i < threads * each; i++) {
				expected.add(1_000_000_000L + i * INTERVAL_NANOS);
			}
			assertThat(all).isEqualTo(expected);
		}
		finally {
			pool.shutdownNow();
		}
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

	private void accept(CooldownKey key, int count) {
		for (int i = 0; i < count; i++) {
			this.cooldowns.accepted(key, now());
		}
	}

	private Admission admit(CooldownKey key, double jitter, double random) {
		return this.cooldowns.admit(new AdmissionRequest(key, now(), BUDGET, RESERVE, CooldownMode.WAIT, jitter,
				new FixedRandom(random), true));
	}

	private Admission admitReadingQuotas(CooldownKey key) {
		return this.cooldowns.admit(new AdmissionRequest(key, now(), BUDGET, RESERVE, CooldownMode.WAIT, 0.0,
				new FixedRandom(0.5), true, true));
	}

	private Admission admit(CooldownKey key, CooldownMode mode) {
		return this.cooldowns.admit(new AdmissionRequest(key, now(), BUDGET, RESERVE, mode, 0.2,
				new FixedRandom(0.5), true));
	}

	private static Admission waitFor(long nanos) {
		return new Admission.Wait(Duration.ofNanos(nanos), HoldReason.PACING);
	}

	private static Admission quotaFor(long nanos) {
		return new Admission.Wait(Duration.ofNanos(nanos), HoldReason.QUOTA);
	}

	private static Admission cooldownFor(long nanos) {
		return new Admission.Wait(Duration.ofNanos(nanos), HoldReason.COOLDOWN);
	}

	private long now() {
		return this.clock.nanoTime();
	}

	@Test
	void whenACooldownStartsUnderAKeyWithAQuotaThenItsSlotsAreSpreadNotLogged() {
		this.cooldowns.quotas().logWindows(true);
		long now = this.clock.nanoTime();
		this.cooldowns.recordQuota(A, new RateLimitReading("p", 0, Duration.ofSeconds(1), 4, Duration.ofSeconds(1),
				RateLimitFields.IETF), true, now);
		assertThat(this.cooldowns.quotas().spacing(A, now).logs()).isTrue();

		// Recorded under the route the request guessed: the quota is the whole origin's.
		this.cooldowns.record(A.withScope(CooldownScope.route("/v1/items")), Duration.ofSeconds(1), now);

		assertThat(this.cooldowns.quotas().spacing(A, now).logs()).isFalse();
	}

}
