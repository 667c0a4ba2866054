package dev.retryafter.core.protection;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.entry;

class OriginProtectionTests {

	private static final CooldownKey A = CooldownKey.of(Origin.of("http", "a.example", -1));

	private static final CooldownKey B = CooldownKey.of(Origin.of("http", "b.example", -1));

	private static final CooldownKey C = CooldownKey.of(Origin.of("https", "c.example", -1));

	private static final Duration BUDGET = Duration.ofSeconds(10);

	private static final Duration RESERVE = Duration.ofMillis(500);

	private final FakeClock clock = new FakeClock();

	private final OriginProtection cooldowns = new OriginProtection(100);

	@Test
	void whenNothingRecordedThenProceed() {
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.remaining(A, now())).isEqualTo(Duration.ZERO);
	}

	@Test
	void whenACooldownIsRecordedThenNotEmptyUntilItEndsAndIsPurged() {
		assertThat(this.cooldowns.isEmpty()).isTrue();
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		assertThat(this.cooldowns.isEmpty()).isFalse();
		this.clock.advance(Duration.ofMillis(2400));
		// An ended cooldown (instant and release window past) still counts until a read purges
		// it, and the origin stays watched for its rate for 10 s more.
		assertThat(this.cooldowns.isEmpty()).isFalse();
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.size()).isZero();
		assertThat(this.cooldowns.isEmpty()).isFalse();
		this.clock.advance(Duration.ofMillis(7601));
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.isEmpty()).isTrue();
	}

	@Test
	void whenTheViewsAreReadAfterACooldownEndedThenTheyShowNothingAndPurgeNothing() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		this.clock.advance(Duration.ofSeconds(3));

		assertThat(this.cooldowns.snapshot(now())).isEmpty();
		assertThat(this.cooldowns.protection(now())).isEmpty();
		assertThat(this.cooldowns.activeCount(now())).isZero();
		assertThat(this.cooldowns.remaining(A, now())).isEqualTo(Duration.ZERO);
		assertThat(this.cooldowns.size()).isOne();

		this.cooldowns.purgeExpired(now());
		assertThat(this.cooldowns.size()).isZero();
	}

	@Test
	void whenLaterDelayRecordedThenLaterWins() {
		assertThat(this.cooldowns.record(A, Duration.ofSeconds(2), now())).isTrue();
		assertThat(this.cooldowns.record(A, Duration.ofSeconds(5), now())).isTrue();
		assertThat(this.cooldowns.remaining(A, now())).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void whenEarlierDelayRecordedThenHeldOneStays() {
		this.cooldowns.record(A, Duration.ofSeconds(5), now());
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.cooldowns.record(A, Duration.ofSeconds(3), now())).isFalse();
		assertThat(this.cooldowns.remaining(A, now())).isEqualTo(Duration.ofSeconds(4));
	}

	@Test
	void whenDelayIsZeroOrNegativeThenNothingRecorded() {
		assertThat(this.cooldowns.record(A, Duration.ZERO, now())).isFalse();
		assertThat(this.cooldowns.record(A, Duration.ofSeconds(-3), now())).isFalse();
		assertThat(this.cooldowns.size()).isZero();
	}

	@Test
	void whenCooldownEndsThenProceedAndEntryPurged() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		// The instant plus the release window (0.2 x 2 s) in which held requests leave.
		this.clock.advance(Duration.ofMillis(2400));
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.size()).isZero();
	}

	@Test
	void whenARequestArrivesWhileHeldOnesAreStillLeavingThenItQueuesBehindThem() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		// Held to the end of the release window: it leaves at 2.4 s.
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 1.0)).isEqualTo(new Admission.Wait(Duration.ofMillis(2400)));
		// 100 ms past the instant, while it is still to leave: wait until it has (300 ms),
		// plus jitter of its own (0.5 x 0.2 x 2 s).
		this.clock.advance(Duration.ofMillis(2100));
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5))
			.isEqualTo(new Admission.Wait(Duration.ofMillis(500), HoldReason.RELEASE_WINDOW));
		// Fail-fast mode never refuses a request for the release window.
		assertThat(admit(A, CooldownMode.FAIL_FAST, 0.2, 0.5)).isEqualTo(Admission.PROCEED);
		// A retry has waited out the server's delay already: it does not queue.
		assertThat(this.cooldowns.admit(new AdmissionRequest(A, now(), BUDGET, RESERVE, CooldownMode.WAIT, 0.2,
				new FixedRandom(0.5), false)))
			.isEqualTo(Admission.PROCEED);
		// Once the held request has left, the cooldown has ended for everyone.
		this.clock.advance(Duration.ofMillis(300));
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(this.cooldowns.size()).isZero();
	}

	@Test
	void whenTheOriginTurnedAwayMoreThanOneRequestThenAFirstAttemptInTheWindowSpreadsOverTheWholeDelay() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		admit(A, CooldownMode.WAIT, 0.2, 1.0);
		// The next wave: until the held request has left (300 ms), plus a random part of the
		// whole delay (0.5 x 2 s) instead of the jitter window.
		this.clock.advance(Duration.ofMillis(2100));
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5))
			.isEqualTo(new Admission.Wait(Duration.ofMillis(1300), HoldReason.RELEASE_WINDOW));
		// A retry still does not queue.
		assertThat(this.cooldowns.admit(new AdmissionRequest(A, now(), BUDGET, RESERVE, CooldownMode.WAIT, 0.2,
				new FixedRandom(0.5), false)))
			.isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenWaitModeThenWaitUntilNotBeforePlusJitter() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		this.clock.advance(Duration.ofMillis(500));
		// time left 1.5 s; jitter scaled by the whole 2 s delay: 0.5 x 0.2 x 2 s = 200 ms
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(new Admission.Wait(Duration.ofMillis(1700)));
	}

	@Test
	void whenHeldJustBeforeNotBeforeThenJitterStillSpansTheServerDelay() {
		// Requests held a moment before the instant must not all leave together.
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.clock.advance(Duration.ofMillis(990));
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.0)).isEqualTo(new Admission.Wait(Duration.ofMillis(10)));
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(new Admission.Wait(Duration.ofMillis(110)));
	}

	@Test
	void whenALaterCooldownWinsThenItsDelaySetsTheJitterWindow() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.cooldowns.record(A, Duration.ofSeconds(5), now());
		this.cooldowns.record(A, Duration.ofSeconds(3), now());
		// not-before 5 s away, set by the 5 s delay: extra 0.5 x 0.2 x 5 s = 500 ms
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(new Admission.Wait(Duration.ofMillis(5500)));
	}

	@Test
	void whenJitterIsZeroThenWaitExactlyUntilNotBefore() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		assertThat(admit(A, CooldownMode.WAIT, 0.0, 0.9)).isEqualTo(new Admission.Wait(Duration.ofSeconds(2)));
	}

	@Test
	void whenJitterWouldOverrunBudgetThenItIsTrimmedButWaitNeverBelowNotBefore() {
		this.cooldowns.record(A, Duration.ofSeconds(9), now());
		// 9 s + 0.5 s reserve leaves 0.5 s of 10 s for jitter, not the 0.9 x 0.2 x 9 s = 1.62 s drawn
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.9)).isEqualTo(new Admission.Wait(Duration.ofMillis(9500)));
	}

	@Test
	void whenWaitPlusReserveExactlyFitsThenWait() {
		this.cooldowns.record(A, Duration.ofMillis(9500), now());
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(new Admission.Wait(Duration.ofMillis(9500)));
	}

	@Test
	void whenWaitDoesNotFitBudgetThenRefuseWithTimeLeft() {
		this.cooldowns.record(A, Duration.ofMillis(9501), now());
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(new Admission.Refuse(Duration.ofMillis(9501)));
	}

	@Test
	void whenBudgetAlreadyNegativeThenRefuse() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(this.cooldowns.admit(new AdmissionRequest(A, now(), Duration.ofSeconds(-1), RESERVE,
				CooldownMode.WAIT, 0.2, new FixedRandom(0.5), true)))
			.isEqualTo(new Admission.Refuse(Duration.ofSeconds(1)));
	}

	@Test
	void whenFailFastModeThenRefuseWithTimeLeftEvenIfItWouldFit() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		this.clock.advance(Duration.ofMillis(250));
		assertThat(admit(A, CooldownMode.FAIL_FAST, 0.2, 0.5))
			.isEqualTo(new Admission.Refuse(Duration.ofMillis(1750)));
	}

	@Test
	void whenAnotherOriginIsCoolingThenProceed() {
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		assertThat(admit(B, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(admit(CooldownKey.of(Origin.of("https", "a.example", -1)), CooldownMode.WAIT, 0.2, 0.5))
			.isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenDelayIsHugeThenItSaturatesWithoutOverflow() {
		OriginProtection uncapped = new OriginProtection(100, Duration.ofSeconds(Long.MAX_VALUE));
		assertThat(uncapped.maxDuration()).isEqualTo(RetryAfter.MAX_DELAY);
		Duration huge = Duration.ofSeconds(Long.MAX_VALUE);
		assertThat(uncapped.record(A, huge, now())).isTrue();
		assertThat(uncapped.remaining(A, now())).isEqualTo(RetryAfter.MAX_DELAY);
		assertThat(uncapped.admit(new AdmissionRequest(A, now(), BUDGET, RESERVE, CooldownMode.WAIT, 1.0,
				new FixedRandom(0.999_999), true)))
			.isEqualTo(new Admission.Refuse(RetryAfter.MAX_DELAY));
		assertThat(uncapped.admit(new AdmissionRequest(A, now(), Duration.ofSeconds(Long.MAX_VALUE), Duration.ZERO,
				CooldownMode.WAIT, 0.2, new FixedRandom(0.0), true)))
			.isEqualTo(new Admission.Wait(RetryAfter.MAX_DELAY));
		this.clock.advance(Duration.ofDays(36_499));
		assertThat(uncapped.remaining(A, now())).isEqualTo(Duration.ofDays(1));
	}

	@Test
	void whenDelayExceedsMaxDurationThenTheCooldownIsCutToIt() {
		assertThat(this.cooldowns.maxDuration()).isEqualTo(Duration.ofSeconds(60));
		assertThat(this.cooldowns.record(A, Duration.ofDays(1), now())).isTrue();
		assertThat(this.cooldowns.remaining(A, now())).isEqualTo(Duration.ofSeconds(60));
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(new Admission.Refuse(Duration.ofSeconds(60)));
		// A held request's jitter spreads over the capped delay (5 s), not the 8 s asked for.
		OriginProtection tight = new OriginProtection(100, Duration.ofSeconds(5));
		tight.record(A, Duration.ofSeconds(8), now());
		assertThat(tight.admit(new AdmissionRequest(A, now(), BUDGET, RESERVE, CooldownMode.WAIT, 0.5,
				new FixedRandom(0.5), true)))
			.isEqualTo(new Admission.Wait(Duration.ofMillis(6250)));
		tight.record(B, Duration.ofSeconds(5).plusNanos(1), now());
		assertThat(tight.remaining(B, now())).isEqualTo(Duration.ofSeconds(5));
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(this.cooldowns.remaining(A, now())).isEqualTo(Duration.ZERO);
	}

	@Test
	void whenALearnedInstantIsFarAheadThenItIsCutToMaxDurationToo() {
		Instant wallNow = this.clock.instant();
		assertThat(this.cooldowns.record(A, Duration.between(wallNow, wallNow.plus(Duration.ofDays(365))), now())).isTrue();
		assertThat(this.cooldowns.remaining(A, now())).isEqualTo(Duration.ofSeconds(60));
	}

	@Test
	void whenPartitionsOfOneOriginCoolDownThenEachIsItsOwnKey() {
		CooldownKey tenantA = new CooldownKey(A.origin(), "0".repeat(32));
		CooldownKey tenantB = new CooldownKey(A.origin(), "f".repeat(32));
		this.cooldowns.record(tenantA, Duration.ofSeconds(3), now());
		assertThat(admit(tenantB, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(admit(A, CooldownMode.WAIT, 0.2, 0.5)).isEqualTo(Admission.PROCEED);
		assertThat(admit(tenantA, CooldownMode.FAIL_FAST, 0.2, 0.5))
			.isEqualTo(new Admission.Refuse(Duration.ofSeconds(3)));
	}

	@Test
	void whenCooldownsAreEndedThenOneOriginWithEveryPartitionOrAllEnd() {
		CooldownKey tenantA = new CooldownKey(A.origin(), "0".repeat(32));
		this.cooldowns.record(A, Duration.ofSeconds(3), now());
		this.cooldowns.record(tenantA, Duration.ofSeconds(3), now());
		this.cooldowns.record(B, Duration.ofSeconds(3), now());
		this.cooldowns.record(C, Duration.ofSeconds(3), now());
		assertThat(this.cooldowns.endAll(A.origin())).containsExactlyInAnyOrder(A, tenantA);
		assertThat(this.cooldowns.snapshot(now())).containsOnlyKeys(B, C);
		assertThat(this.cooldowns.end(B)).isTrue();
		assertThat(this.cooldowns.end(B)).isFalse();
		assertThat(this.cooldowns.endAll(null)).containsExactly(C);
		assertThat(this.cooldowns.isEmpty()).isTrue();
		assertThat(admit(A, CooldownMode.FAIL_FAST, 0.2, 0.5)).isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenMonotonicReadingsWrapThenDifferencesStillHold() {
		long nearWrap = Long.MAX_VALUE - 1_000_000_000L;
		this.cooldowns.record(A, Duration.ofSeconds(5), nearWrap);
		long twoSecondsLater = nearWrap + 2_000_000_000L;
		assertThat(twoSecondsLater).isNegative();
		assertThat(this.cooldowns.remaining(A, twoSecondsLater)).isEqualTo(Duration.ofSeconds(3));
		this.cooldowns.record(A, Duration.ofSeconds(1), twoSecondsLater);
		assertThat(this.cooldowns.remaining(A, twoSecondsLater)).isEqualTo(Duration.ofSeconds(3));
	}

	@Test
	void whenWallClockNotBeforeRecordedThenConvertedToMonotonic() {
		OriginProtection uncapped = new OriginProtection(100, RetryAfter.MAX_DELAY);
		Instant wallNow = this.clock.instant();
		assertThat(uncapped.record(A, Duration.between(wallNow, wallNow.plusSeconds(30)), now())).isTrue();
		assertThat(uncapped.remaining(A, now())).isEqualTo(Duration.ofSeconds(30));
		assertThat(uncapped.record(B, Duration.between(wallNow, wallNow.minusSeconds(1)), now())).isFalse();
		assertThat(uncapped.record(B, Duration.between(wallNow, wallNow), now())).isFalse();
		assertThat(uncapped.record(C, Duration.between(Instant.MIN, Instant.MAX), now())).isTrue();
		assertThat(uncapped.remaining(C, now())).isEqualTo(RetryAfter.MAX_DELAY);
		assertThat(uncapped.size()).isEqualTo(2);
	}

	@Test
	void whenExpiredThenLeftOutOfTheViewsAndPurgedByPurgeExpired() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.cooldowns.record(B, Duration.ofSeconds(5), now());
		this.cooldowns.record(C, Duration.ofSeconds(3), now());
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(this.cooldowns.size()).isEqualTo(3);
		assertThat(this.cooldowns.activeCount(now())).isEqualTo(2);
		this.cooldowns.purgeExpired(now());
		assertThat(this.cooldowns.size()).isEqualTo(2);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.cooldowns.snapshot(now())).containsExactly(entry(B, Duration.ofSeconds(2)));
		this.cooldowns.purgeExpired(now());
		assertThat(this.cooldowns.size()).isEqualTo(1);
	}

	@Test
	void whenSnapshotThenOrderedByOriginWithTimeLeft() {
		this.cooldowns.record(C, Duration.ofSeconds(3), now());
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.cooldowns.record(B, Duration.ofMillis(2500), now());
		assertThat(this.cooldowns.snapshot(now())).containsExactly(entry(A, Duration.ofSeconds(1)),
				entry(B, Duration.ofMillis(2500)), entry(C, Duration.ofSeconds(3)));
	}

	@Test
	void whenRecordsRepeatThenExpiredEntriesArePurgedWithoutAnyRead() {
		OriginProtection small = new OriginProtection(10_000);
		for (int i = 0; i < 200; i++) {
			small.record(CooldownKey.of(Origin.of("http", "h" + i, -1)), Duration.ofSeconds(1), now());
		}
		this.clock.advance(Duration.ofSeconds(1));
		for (int i = 0; i < 56; i++) {
			small.record(A, Duration.ofSeconds(1), now());
		}
		assertThat(small.size()).isEqualTo(1);
	}

	@Test
	void whenOverBoundThenExpiredEvictedFirst() {
		OriginProtection bounded = new OriginProtection(2);
		bounded.record(A, Duration.ofSeconds(1), now());
		bounded.record(B, Duration.ofSeconds(10), now());
		this.clock.advance(Duration.ofSeconds(2));
		bounded.record(C, Duration.ofSeconds(1), now());
		assertThat(bounded.snapshot(now())).containsExactly(entry(B, Duration.ofSeconds(8)),
				entry(C, Duration.ofSeconds(1)));
	}

	@Test
	void whenOverBoundThenSoonestEndingEvictedButNeverTheOneJustRecorded() {
		OriginProtection bounded = new OriginProtection(3);
		CooldownKey d = CooldownKey.of(Origin.of("http", "d.example", -1));
		bounded.record(A, Duration.ofSeconds(30), now());
		bounded.record(B, Duration.ofSeconds(10), now());
		bounded.record(C, Duration.ofSeconds(20), now());
		bounded.record(d, Duration.ofSeconds(1), now());
		assertThat(bounded.snapshot(now())).containsExactly(entry(A, Duration.ofSeconds(30)),
				entry(d, Duration.ofSeconds(1)), entry(C, Duration.ofSeconds(20)));
	}

	@Test
	void whenManyOriginsThenSizeNeverExceedsBoundForOneWriter() {
		OriginProtection bounded = new OriginProtection(1000);
		SplittableRandom random = new SplittableRandom(42);
		int largest = 0;
		for (int i = 0; i < 20_000; i++) {
			bounded.record(CooldownKey.of(Origin.of("http", "h" + random.nextInt(5_000), -1)),
					Duration.ofMillis(1 + random.nextInt(60_000)), now());
			largest = Math.max(largest, bounded.size());
			this.clock.advance(Duration.ofMillis(random.nextInt(3)));
		}
		assertThat(largest).isEqualTo(1000);
	}

	@Test
	void whenManyThreadsRecordThenLaterWinsAndBoundHolds() throws Exception {
		OriginProtection bounded = new OriginProtection(64);
		int threads = 8;
		long start = now();
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int thread = t;
				futures.add(pool.submit(() -> {
					go.await();
					for (int i = 0; i < 2_000; i++) {
						bounded.record(A, Duration.ofMillis(1 + i * threads + thread), start);
						bounded.record(CooldownKey.of(Origin.of("http", "t" + thread + "-" + i, -1)),
								Duration.ofSeconds(1), start);
					}
					return null;
				}));
			}
			go.countDown();
			for (Future<?> future : futures) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(bounded.size()).isLessThanOrEqualTo(64 + threads);
		bounded.record(B, Duration.ofSeconds(1), start);
		assertThat(bounded.size()).isLessThanOrEqualTo(64);
		// A ends last of all, so eviction (soonest ending first) never removed its highest value.
		assertThat(bounded.remaining(A, start)).isEqualTo(Duration.ofMillis(16_000));
	}

	@Test
	void whenArgumentsAreInvalidThenClearErrors() {
		assertThatIllegalArgumentException().isThrownBy(() -> new OriginProtection(0))
			.withMessage("maxHosts must be at least 1: 0");
		assertThatIllegalArgumentException().isThrownBy(() -> new OriginProtection(1, Duration.ZERO))
			.withMessage("maxDuration must be positive: PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.cooldowns.admit(new AdmissionRequest(A, now(), BUDGET, RESERVE, CooldownMode.WAIT,
					1.5, new FixedRandom(0.5), true)))
			.withMessage("jitter must be between 0 and 1: 1.5");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.cooldowns.admit(new AdmissionRequest(A, now(), BUDGET, RESERVE, CooldownMode.WAIT,
					Double.NaN, new FixedRandom(0.5), true)))
			.withMessage("jitter must be between 0 and 1: NaN");
	}

	private Admission admit(CooldownKey origin, CooldownMode mode, double jitter, double random) {
		return this.cooldowns.admit(new AdmissionRequest(origin, now(), BUDGET, RESERVE, mode, jitter,
				new FixedRandom(random), true));
	}

	private long now() {
		return this.clock.nanoTime();
	}

}
