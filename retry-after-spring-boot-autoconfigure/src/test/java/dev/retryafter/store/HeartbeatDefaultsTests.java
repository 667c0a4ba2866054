package dev.retryafter.store;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's default heartbeat timings, held to what the documentation promises: a
 * connection dropped without a word (no command in flight, Lettuce told nothing) is noticed
 * within 30 s. The last heartbeat may have been heard just before the drop; the watchdog then
 * counts the outage once the timeout has passed, at its next tick.
 */
class HeartbeatDefaultsTests {

	private static final Duration PROMISED = Duration.ofSeconds(30);

	@Test
	void theDefaultsAreThoseTheDocumentationNames() {
		assertThat(RedisCooldownStore.HEARTBEAT_INTERVAL).isEqualTo(Duration.ofSeconds(10));
		assertThat(RedisCooldownStore.HEARTBEAT_TIMEOUT).isEqualTo(Duration.ofSeconds(25));
		assertThat(RedisCooldownStore.PROBE_TIMEOUT).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void aSilentlyDroppedConnectionIsNoticedWithinThePromisedThirtySeconds() {
		// The watchdog ticks every quarter interval, at most every second (ConnectionHealth.start).
		Duration tick = RedisCooldownStore.HEARTBEAT_INTERVAL.dividedBy(4);
		if (tick.compareTo(Duration.ofSeconds(1)) > 0) {
			tick = Duration.ofSeconds(1);
		}

		assertThat(RedisCooldownStore.HEARTBEAT_TIMEOUT.plus(tick)).isLessThanOrEqualTo(PROMISED);
	}

	@Test
	void aHeartbeatIsSentSeveralTimesBeforeOneIsMissed() {
		// Two heartbeats lost in a row are not yet an outage: one late reply must not count.
		assertThat(RedisCooldownStore.HEARTBEAT_TIMEOUT)
			.isGreaterThan(RedisCooldownStore.HEARTBEAT_INTERVAL.multipliedBy(2));
	}

}
