package dev.retryafter.core.protection;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SlotLog}: at most the policy's count in any span of its window, on a fake
 * monotonic clock near the end of the long range.
 */
class SlotLogTests {

	private static final long SECOND = 1_000_000_000L;

	private static final long T0 = Long.MAX_VALUE - 5 * SECOND;

	private static final long SPAN = (long) (2 * SECOND / RateLimitSchedule.SHARE);

	@Test
	void whenFewerThanTheQuotaWentThenARequestGoesWhenItWould() {
		SlotLog log = new SlotLog(3, 2 * SECOND);
		log.add(T0);
		log.add(T0);

		assertThat(log.earliest(T0)).isEqualTo(T0);
	}

	@Test
	void whenTheQuotaWentThenTheNextGoesOneSpanAfterTheOldestOfThem() {
		SlotLog log = new SlotLog(3, 2 * SECOND);
		log.add(T0);
		log.add(T0 + 100);
		log.add(T0 + 200);

		assertThat(log.earliest(T0)).isEqualTo(T0 + SPAN);
		assertThat(log.earliest(T0 + 3 * SECOND)).isEqualTo(T0 + 3 * SECOND);
		log.add(T0 + SPAN);
		assertThat(log.earliest(T0)).isEqualTo(T0 + 100 + SPAN);
	}

	@Test
	void whenAnEntryIsEarlierThanTheLastThenItCountsAtTheLast() {
		SlotLog log = new SlotLog(2, 2 * SECOND);
		log.add(T0 + SECOND);
		log.add(T0);

		// Both count at T0 + 1 s: the oldest of the two is never the earlier one.
		assertThat(log.earliest(T0)).isEqualTo(T0 + SECOND + SPAN);
	}

	@Test
	void whenTheQuotaIsLargeThenTheLogKeepsSixtyFourPerTheirShareOfTheWindow() {
		SlotLog log = new SlotLog(1000, 10 * SECOND);

		assertThat(log.entries()).isEqualTo(SlotLog.MAX_ENTRIES);
		assertThat(log.spanNanos()).isEqualTo((long) (10 * SECOND * (64 / 1000.0) / RateLimitSchedule.SHARE));
		for (int i = 0; i < 64; i++) {
			log.add(T0);
		}
		assertThat(log.earliest(T0)).isEqualTo(T0 + log.spanNanos());
		assertThat(log.counts(1000, 10 * SECOND)).isTrue();
		assertThat(log.counts(1000, SECOND)).isFalse();
	}

	@Test
	void whenTheClockWrapsPastTheLongRangeThenTheLogStillComparesByDifference() {
		SlotLog log = new SlotLog(1, SECOND);
		log.add(Long.MAX_VALUE - 10);

		long free = log.earliest(Long.MAX_VALUE - 20);
		assertThat(free - (Long.MAX_VALUE - 10)).isEqualTo((long) (SECOND / RateLimitSchedule.SHARE));
	}

}
