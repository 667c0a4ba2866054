package dev.retryafter.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's reconnection backoff and heartbeat timings, as the README promises them.
 */
class ReconnectBackoffTests {

	@Test
	void whenAnOutageLastsThenAttemptsStartAfterOneSecondAndGrowToThirtySeconds() {
		assertThat(ReconnectBackoff.FIRST_RETRY_DELAY).isEqualTo(Duration.ofSeconds(1));
		assertThat(ReconnectBackoff.MAX_RETRY_DELAY).isEqualTo(Duration.ofSeconds(30));
		List<Long> delays = new ArrayList<>();
		Duration delay = ReconnectBackoff.FIRST_RETRY_DELAY;
		for (int i = 0; i < 8; i++) {
			delays.add(delay.toSeconds());
			delay = ReconnectBackoff.backOff(delay, ReconnectBackoff.MAX_RETRY_DELAY);
		}
		assertThat(delays).containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L, 30L);
	}

	@Test
	void whenAFleetLosesRedisTogetherThenEachStepIsSpreadOverItsLaterHalf() {
		// 200 instances that lost Redis at the same instant: each attempt waits between half
		// its step and the whole step, so they no longer reconnect and scan in step.
		List<RandomGenerator> fleet = new ArrayList<>();
		SplittableRandom seeds = new SplittableRandom(20261202L);
		for (int i = 0; i < 200; i++) {
			fleet.add(seeds.split());
		}
		Duration step = ReconnectBackoff.FIRST_RETRY_DELAY;
		for (int attempt = 0; attempt < 8; attempt++) {
			TreeSet<Duration> waits = new TreeSet<>();
			for (RandomGenerator random : fleet) {
				Duration wait = ReconnectBackoff.retryWait(step, random);
				assertThat(wait).isBetween(step.dividedBy(2), step);
				waits.add(wait);
			}
			assertThat(waits).hasSizeGreaterThan(190);
			assertThat(waits.last().minus(waits.first())).isGreaterThan(step.multipliedBy(2).dividedBy(5));
			step = ReconnectBackoff.backOff(step, ReconnectBackoff.MAX_RETRY_DELAY);
		}
	}

	@Test
	void whenTheRandomSourceIsSeededAlikeThenTheWaitsAreTheSame() {
		SplittableRandom first = new SplittableRandom(42);
		SplittableRandom second = new SplittableRandom(42);
		Duration step = ReconnectBackoff.FIRST_RETRY_DELAY;
		for (int attempt = 0; attempt < 8; attempt++) {
			assertThat(ReconnectBackoff.retryWait(step, first)).isEqualTo(ReconnectBackoff.retryWait(step, second));
			step = ReconnectBackoff.backOff(step, ReconnectBackoff.MAX_RETRY_DELAY);
		}
		// The extremes of the random source stay inside the step.
		assertThat(ReconnectBackoff.retryWait(Duration.ofSeconds(30), fixed(0.0))).isEqualTo(Duration.ofSeconds(15));
		assertThat(ReconnectBackoff.retryWait(Duration.ofSeconds(30), fixed(Math.nextDown(1.0))))
			.isBetween(Duration.ofSeconds(15), Duration.ofSeconds(30));
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

	private static RandomGenerator fixed(double value) {
		return new RandomGenerator() {

			@Override
			public long nextLong() {
				throw new UnsupportedOperationException();
			}

			@Override
			public double nextDouble() {
				return value;
			}

		};
	}

}
