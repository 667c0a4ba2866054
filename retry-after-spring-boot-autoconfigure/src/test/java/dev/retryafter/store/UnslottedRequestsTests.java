package dev.retryafter.store;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UnslottedRequests}: a count is told once, put back when it could not be,
 * and dropped once its window has long reset.
 */
class UnslottedRequestsTests {

	private static final CooldownKey KEY = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	private static final CooldownKey OTHER = CooldownKey.of(Origin.of("http", "127.0.0.1", 8081));

	// Near the end of the long range: every comparison is by difference.
	private static final long NOW = Long.MAX_VALUE - 1_000_000_000L;

	@Test
	void whenRequestsWentOutsideTheSlotsThenTheirCountIsToldOnceForTheirKeyAlone() {
		UnslottedRequests unslotted = new UnslottedRequests();
		unslotted.add(KEY, NOW);
		unslotted.add(KEY, NOW + 1);
		unslotted.add(OTHER, NOW);

		assertThat(unslotted.take(KEY, NOW + 2)).isEqualTo(2);
		assertThat(unslotted.take(KEY, NOW + 3)).isZero();
		assertThat(unslotted.take(OTHER, NOW + 3)).isEqualTo(1);
	}

	@Test
	void whenACountCouldNotBeToldThenItIsPutBack() {
		UnslottedRequests unslotted = new UnslottedRequests();
		unslotted.add(KEY, NOW);
		long taken = unslotted.take(KEY, NOW);
		unslotted.add(KEY, NOW);

		unslotted.restore(KEY, taken, NOW);

		assertThat(unslotted.take(KEY, NOW)).isEqualTo(2);
	}

	@Test
	void whenTheFirstOfACountWentLongAgoThenItIsDropped() {
		UnslottedRequests unslotted = new UnslottedRequests();
		unslotted.add(KEY, Long.MIN_VALUE + 5);

		assertThat(unslotted.take(KEY, Long.MIN_VALUE + 5 + UnslottedRequests.STALE_NANOS + 1)).isZero();
		// A new count after a stale one starts afresh.
		unslotted.add(KEY, NOW - 2 * UnslottedRequests.STALE_NANOS);
		unslotted.add(KEY, NOW);
		assertThat(unslotted.take(KEY, NOW)).isEqualTo(1);
	}

}
