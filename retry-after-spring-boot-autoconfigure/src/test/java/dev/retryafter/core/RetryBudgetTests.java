package dev.retryafter.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.testsupport.FakeClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RetryBudgetTests {

	private final FakeClock clock = new FakeClock();

	@Test
	void whenNoRequestsThenTheReserveAllowsMinPerSecondTimesWindowSeconds() {
		RetryBudget budget = RetryBudget.of(RetrySettings.defaults().budget(), this.clock);
		assertThat(withdrawAll(budget)).isEqualTo(100);
		assertThat(budget.tryWithdraw()).isFalse();
	}

	@Test
	void whenRequestsAreMadeThenEachAddsTheRatio() {
		RetryBudget budget = new RetryBudget(0.2, 0, Duration.ofSeconds(10), this.clock);
		recordRequests(budget, 4);
		assertThat(budget.tryWithdraw()).isFalse();
		recordRequests(budget, 1);
		assertThat(withdrawAll(budget)).isEqualTo(1);
		recordRequests(budget, 9);
		assertThat(withdrawAll(budget)).isEqualTo(1);
	}

	@Test
	void whenRatioHasDecimalsThenCountIsExact() {
		RetryBudget budget = new RetryBudget(0.29, 0, Duration.ofSeconds(10), this.clock);
		recordRequests(budget, 100);
		assertThat(withdrawAll(budget)).isEqualTo(29);
	}

	@Test
	void whenReserveAndRatioCombineThenTheyAdd() {
		RetryBudget budget = RetryBudget.of(RetrySettings.defaults().budget(), this.clock);
		recordRequests(budget, 1_000);
		assertThat(withdrawAll(budget)).isEqualTo(300);
	}

	@Test
	void whenWindowHasFractionalSecondsThenReserveFollows() {
		RetryBudget budget = new RetryBudget(0, 10, Duration.ofMillis(1500), this.clock);
		assertThat(withdrawAll(budget)).isEqualTo(15);
	}

	@Test
	void whenWindowSlidesThenOldRequestsStopCounting() {
		RetryBudget budget = new RetryBudget(1.0, 0, Duration.ofSeconds(10), this.clock);
		recordRequests(budget, 5);
		this.clock.advance(Duration.ofSeconds(5));
		recordRequests(budget, 3);
		assertThat(budget.snapshot()).isEqualTo(new RetryBudget.Snapshot(8, 0, 8, Duration.ofSeconds(10)));
		this.clock.advance(Duration.ofMillis(4999));
		assertThat(budget.snapshot().requests()).isEqualTo(8);
		this.clock.advance(Duration.ofMillis(1));
		assertThat(budget.snapshot()).isEqualTo(new RetryBudget.Snapshot(3, 0, 3, Duration.ofSeconds(10)));
		this.clock.advance(Duration.ofSeconds(5));
		assertThat(budget.snapshot()).isEqualTo(new RetryBudget.Snapshot(0, 0, 0, Duration.ofSeconds(10)));
	}

	@Test
	void whenWindowSlidesThenSpentRetriesComeBack() {
		RetryBudget budget = new RetryBudget(0, 1, Duration.ofSeconds(10), this.clock);
		assertThat(withdrawAll(budget)).isEqualTo(10);
		this.clock.advance(Duration.ofSeconds(9));
		assertThat(budget.tryWithdraw()).isFalse();
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(withdrawAll(budget)).isEqualTo(10);
	}

	@Test
	void whenIdleForManyWindowsThenNothingOldCounts() {
		RetryBudget budget = new RetryBudget(1.0, 0, Duration.ofSeconds(10), this.clock);
		recordRequests(budget, 7);
		this.clock.advance(Duration.ofDays(3));
		assertThat(budget.snapshot()).isEqualTo(new RetryBudget.Snapshot(0, 0, 0, Duration.ofSeconds(10)));
		recordRequests(budget, 2);
		assertThat(withdrawAll(budget)).isEqualTo(2);
	}

	@Test
	void whenRefundedThenTheRetryIsAvailableAgain() {
		RetryBudget budget = new RetryBudget(0, 1, Duration.ofSeconds(2), this.clock);
		RetryPermits permits = budget.permits();
		assertThat(permits.tryAcquire()).isTrue();
		assertThat(permits.tryAcquire()).isTrue();
		assertThat(permits.tryAcquire()).isFalse();
		permits.refund();
		assertThat(budget.snapshot()).isEqualTo(new RetryBudget.Snapshot(0, 1, 1, Duration.ofSeconds(2)));
		assertThat(permits.tryAcquire()).isTrue();
		assertThat(permits.tryAcquire()).isFalse();
	}

	@Test
	void whenARefundComesAfterItsRetryLeftTheWindowThenNothingIsGivenBack() {
		RetryBudget budget = new RetryBudget(0, 1, Duration.ofSeconds(2), this.clock);
		RetryPermits permits = budget.permits();
		assertThat(permits.tryAcquire()).isTrue();
		this.clock.advance(Duration.ofSeconds(5));
		permits.refund();
		// Crediting the current slot would count -1 retries and allow 3 in a window of 2.
		assertThat(budget.snapshot()).isEqualTo(new RetryBudget.Snapshot(0, 0, 2, Duration.ofSeconds(2)));
		assertThat(withdrawAll(budget)).isEqualTo(2);
	}

	@Test
	void whenARefundComesInALaterSlotOfTheSameWindowThenItsOwnSlotIsCredited() {
		RetryBudget budget = new RetryBudget(0, 1, Duration.ofSeconds(10), this.clock);
		RetryPermits permits = budget.permits();
		assertThat(permits.tryAcquire()).isTrue();
		this.clock.advance(Duration.ofSeconds(9));
		permits.refund();
		assertThat(budget.snapshot()).isEqualTo(new RetryBudget.Snapshot(0, 0, 10, Duration.ofSeconds(10)));
		// Had the current slot been credited, the retry taken 9 s ago would leave the window in
		// 1 s and give one retry too many from then on.
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(withdrawAll(budget)).isEqualTo(10);
	}

	@Test
	void whenRefundedTwiceThenOnlyTheLastRetryTakenIsGivenBack() {
		RetryBudget budget = new RetryBudget(0, 1, Duration.ofSeconds(2), this.clock);
		RetryPermits permits = budget.permits();
		assertThat(permits.tryAcquire()).isTrue();
		permits.refund();
		permits.refund();
		assertThat(budget.snapshot()).isEqualTo(new RetryBudget.Snapshot(0, 0, 2, Duration.ofSeconds(2)));
	}

	@Test
	void whenSnapshotThenRequestsRetriesAndAvailable() {
		RetryBudget budget = RetryBudget.of(RetrySettings.defaults().budget(), this.clock);
		recordRequests(budget, 10);
		budget.tryWithdraw();
		budget.tryWithdraw();
		assertThat(budget.snapshot()).isEqualTo(new RetryBudget.Snapshot(10, 2, 100, Duration.ofSeconds(10)));
	}

	@Test
	void whenValuesAreHugeThenTheySaturate() {
		RetryBudget budget = new RetryBudget(1e300, Integer.MAX_VALUE, RetryAfter.MAX_DELAY, this.clock);
		recordRequests(budget, 3);
		assertThat(budget.tryWithdraw()).isTrue();
		assertThat(budget.snapshot().available()).isEqualTo(Long.MAX_VALUE / 1_000_000 - 1);
	}

	@Test
	void whenManyThreadsWithdrawFromTheReserveThenExactlyTheReserveIsGranted() throws Exception {
		RetryBudget budget = RetryBudget.of(RetrySettings.defaults().budget(), this.clock);
		AtomicLong granted = new AtomicLong();
		runConcurrently(8, () -> {
			for (int i = 0; i < 1_000; i++) {
				if (budget.tryWithdraw()) {
					granted.incrementAndGet();
				}
			}
		});
		assertThat(granted).hasValue(100);
	}

	@Test
	void whenManyThreadsRequestAndRetryThenGrantedNeverExceedsTheFormula() throws Exception {
		RetryBudget budget = RetryBudget.of(RetrySettings.defaults().budget(), this.clock);
		AtomicLong granted = new AtomicLong();
		runConcurrently(8, () -> {
			for (int i = 0; i < 10_000; i++) {
				budget.recordRequest();
				if (budget.tryWithdraw()) {
					granted.incrementAndGet();
				}
			}
		});
		// 100 (reserve) + 0.2 x 80,000 requests
		assertThat(granted.get()).isLessThanOrEqualTo(16_100);
		assertThat(granted.get() + withdrawAll(budget)).isEqualTo(16_100);
		assertThat(budget.snapshot()).isEqualTo(new RetryBudget.Snapshot(80_000, 16_100, 0, Duration.ofSeconds(10)));
	}

	@Test
	void whenArgumentsAreOutOfRangeThenClearErrors() {
		Duration window = Duration.ofSeconds(10);
		assertThatIllegalArgumentException().isThrownBy(() -> new RetryBudget(-0.1, 10, window, this.clock))
			.withMessage("budget ratio must be a finite number >= 0: -0.1");
		assertThatIllegalArgumentException().isThrownBy(() -> new RetryBudget(Double.NaN, 10, window, this.clock))
			.withMessage("budget ratio must be a finite number >= 0: NaN");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetryBudget(Double.POSITIVE_INFINITY, 10, window, this.clock))
			.withMessage("budget ratio must be a finite number >= 0: Infinity");
		assertThatIllegalArgumentException().isThrownBy(() -> new RetryBudget(0.2, -1, window, this.clock))
			.withMessage("budget min-per-second must not be negative: -1");
		assertThatIllegalArgumentException().isThrownBy(() -> new RetryBudget(0.2, 10, Duration.ZERO, this.clock))
			.withMessage("budget window must be positive and at most PT876000H: PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RetryBudget(0.2, 10, RetryAfter.MAX_DELAY.plusNanos(1), this.clock))
			.withMessage("budget window must be positive and at most PT876000H: PT876000H0.000000001S");
	}

	@Test
	void whenRequestsAreRecordedAtReadingsThenTheyCountAsIfRecordedWhenRead() {
		FakeClock other = new FakeClock();
		RetryBudget byReading = new RetryBudget(1.0, 0, Duration.ofSeconds(10), this.clock);
		RetryBudget byClock = new RetryBudget(1.0, 0, Duration.ofSeconds(10), other);
		// Within a slot, into the next, across several, beyond the window, and back to one slot.
		long[] stepsMillis = { 0, 1, 998, 1, 1, 2500, 999, 12_000, 0, 400, 20_000, 1, 9_999, 1 };
		for (long step : stepsMillis) {
			this.clock.advance(Duration.ofMillis(step));
			other.advance(Duration.ofMillis(step));
			byReading.recordRequest(this.clock.nanoTime());
			byClock.recordRequest();
			assertThat(byReading.snapshot()).isEqualTo(byClock.snapshot());
		}
		assertThat(byReading.snapshot()).isEqualTo(new RetryBudget.Snapshot(2, 0, 2, Duration.ofSeconds(10)));
	}

	@Test
	void whenAReadingPrecedesTheBudgetThenItCountsInTheFirstSlot() {
		long before = this.clock.nanoTime() - Duration.ofSeconds(3).toNanos();
		RetryBudget budget = new RetryBudget(1.0, 0, Duration.ofSeconds(10), this.clock);

		budget.recordRequest(before);
		budget.recordRequest(before);

		assertThat(budget.snapshot()).isEqualTo(new RetryBudget.Snapshot(2, 0, 2, Duration.ofSeconds(10)));
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(budget.snapshot()).isEqualTo(new RetryBudget.Snapshot(0, 0, 0, Duration.ofSeconds(10)));
	}

	@Test
	void whenAskedWhichClockItSlidesOnThenOnlyItsOwnIsNamed() {
		RetryBudget budget = new RetryBudget(1.0, 0, Duration.ofSeconds(10), this.clock);

		assertThat(budget.ticksOn(this.clock)).isTrue();
		assertThat(budget.ticksOn(new FakeClock())).isFalse();
		assertThat(budget.ticksOn(MonotonicClock.SYSTEM)).isFalse();
	}

	private static void recordRequests(RetryBudget budget, int count) {
		for (int i = 0; i < count; i++) {
			budget.recordRequest();
		}
	}

	private static long withdrawAll(RetryBudget budget) {
		long count = 0;
		while (budget.tryWithdraw()) {
			count++;
		}
		return count;
	}

	private static void runConcurrently(int threads, Runnable work) throws Exception {
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				futures.add(pool.submit(() -> {
					start.await();
					work.run();
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : futures) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

}
