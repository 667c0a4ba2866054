package dev.retryafter.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's reconnection backoff and heartbeat timings, as the README promises them.
 */
class ConnectionHealthBackoffTests {

	@Test
	void whenAnOutageLastsThenAttemptsStartAfterOneSecondAndGrowToThirtySeconds() {
		assertThat(ConnectionHealth.FIRST_RETRY_DELAY).isEqualTo(Duration.ofSeconds(1));
		assertThat(ConnectionHealth.MAX_RETRY_DELAY).isEqualTo(Duration.ofSeconds(30));
		List<Long> delays = new ArrayList<>();
		Duration delay = ConnectionHealth.FIRST_RETRY_DELAY;
		for (int i = 0; i < 8; i++) {
			delays.add(delay.toSeconds());
			delay = ConnectionHealth.backOff(delay, ConnectionHealth.MAX_RETRY_DELAY);
		}
		assertThat(delays).containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L, 30L);
	}

	@Test
	void whenTheConnectionIsDroppedSilentlyThenTheHeartbeatNoticesItWithinThirtySeconds() {
		assertThat(RedisCooldownStore.HEARTBEAT_INTERVAL).isEqualTo(Duration.ofSeconds(10));
		assertThat(RedisCooldownStore.HEARTBEAT_TIMEOUT).isEqualTo(Duration.ofSeconds(25));
		assertThat(RedisCooldownStore.PROBE_TIMEOUT).isEqualTo(Duration.ofSeconds(2));
		// The watchdog looks every second at most: an outage is counted within 26 s of the last
		// heartbeat heard.
		assertThat(RedisCooldownStore.HEARTBEAT_TIMEOUT.plusSeconds(1)).isLessThanOrEqualTo(Duration.ofSeconds(30));
	}

}
