package dev.retryafter.store;

import org.junit.jupiter.api.Test;

import static dev.retryafter.store.ReplayGuard.Verdict.FRESH;
import static dev.retryafter.store.ReplayGuard.Verdict.REPLAYED;
import static dev.retryafter.store.ReplayGuard.Verdict.STALE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which signed messages are heard for the first time and recently, on handed-in times.
 */
class ReplayGuardTests {

	private static final long NOW = 1_796_000_000_000L;

	private final ReplayGuard guard = new ReplayGuard();

	@Test
	void whenAMessageIsHeardTwiceThenTheSecondIsAReplay() {
		assertThat(this.guard.check("a", NOW, 1, NOW)).isEqualTo(FRESH);
		assertThat(this.guard.check("a", NOW, 1, NOW + 10)).isEqualTo(REPLAYED);
		// Sequence numbers are per publisher.
		assertThat(this.guard.check("b", NOW, 1, NOW)).isEqualTo(FRESH);
		assertThat(this.guard.check("a", NOW, 2, NOW)).isEqualTo(FRESH);
		assertThat(this.guard.check("a", NOW, 2, NOW)).isEqualTo(REPLAYED);
	}

	@Test
	void whenMessagesArriveOutOfOrderThenEachIsFreshOnce() {
		// A cluster may deliver what one instance published through two nodes out of order.
		for (long sequence : new long[] { 5, 3, 4, 1, 2, 9, 6 }) {
			assertThat(this.guard.check("a", NOW, sequence, NOW)).isEqualTo(FRESH);
		}
		for (long sequence = 1; sequence <= 6; sequence++) {
			assertThat(this.guard.check("a", NOW, sequence, NOW)).isEqualTo(REPLAYED);
		}
		assertThat(this.guard.check("a", NOW, 7, NOW)).isEqualTo(FRESH);
		assertThat(this.guard.check("a", NOW, 8, NOW)).isEqualTo(FRESH);
	}

	@Test
	void whenAMessageIsFurtherBehindThanTheWindowThenItIsTakenForAReplay() {
		assertThat(this.guard.check("a", NOW, 1, NOW)).isEqualTo(FRESH);
		assertThat(this.guard.check("a", NOW, 1 + ReplayGuard.WINDOW, NOW)).isEqualTo(FRESH);
		// Never seen, but as far behind as the window reaches: it cannot be told from a replay.
		assertThat(this.guard.check("a", NOW, 1, NOW)).isEqualTo(REPLAYED);
		assertThat(this.guard.check("a", NOW, 2, NOW)).isEqualTo(FRESH);
		// A jump past the whole window forgets what was seen below it.
		assertThat(this.guard.check("a", NOW, 10_000, NOW)).isEqualTo(FRESH);
		assertThat(this.guard.check("a", NOW, 10_000 - ReplayGuard.WINDOW + 1, NOW)).isEqualTo(FRESH);
		assertThat(this.guard.check("a", NOW, 10_000 - ReplayGuard.WINDOW, NOW)).isEqualTo(REPLAYED);
	}

	@Test
	void whenAMessageIsStampedOverThirtySecondsFromNowThenItIsStale() {
		long limit = ReplayGuard.MAX_AGE.toMillis();
		assertThat(this.guard.check("a", NOW - limit - 1, 1, NOW)).isEqualTo(STALE);
		assertThat(this.guard.check("a", NOW + limit + 1, 2, NOW)).isEqualTo(STALE);
		assertThat(this.guard.check("a", NOW - limit, 3, NOW)).isEqualTo(FRESH);
		assertThat(this.guard.check("a", NOW + limit, 4, NOW)).isEqualTo(FRESH);
		// A stale message is not remembered: sequence 1 was never taken.
		assertThat(this.guard.check("a", NOW, 1, NOW)).isEqualTo(FRESH);
		// Before Redis's time is known, nothing is fresh.
		assertThat(this.guard.check("a", NOW, 5, RedisClock.UNKNOWN)).isEqualTo(STALE);
		assertThat(this.guard.check("a", Long.MAX_VALUE, 6, NOW)).isEqualTo(STALE);
	}

	@Test
	void whenMorePublishersAreHeardThanRememberedThenTheLeastRecentIsForgotten() {
		for (int i = 0; i <= ReplayGuard.PUBLISHERS; i++) {
			assertThat(this.guard.check("instance-" + i, NOW, 1, NOW)).isEqualTo(FRESH);
		}
		// The most recent ones are still remembered; the first is not.
		assertThat(this.guard.check("instance-" + ReplayGuard.PUBLISHERS, NOW, 1, NOW)).isEqualTo(REPLAYED);
		assertThat(this.guard.check("instance-0", NOW, 1, NOW)).isEqualTo(FRESH);
	}

}
