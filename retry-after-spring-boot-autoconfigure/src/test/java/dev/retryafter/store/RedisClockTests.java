package dev.retryafter.store;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis's time as this instance estimates it, on handed-in readings.
 */
class RedisClockTests {

	@Test
	void whenNeverReadThenUnknown() {
		RedisClock clock = new RedisClock();
		assertThat(clock.known()).isFalse();
		assertThat(clock.at(123_000_000L)).isEqualTo(RedisClock.UNKNOWN);
	}

	@Test
	void whenReadThenItRunsOnTheMonotonicClockFromTheMiddleOfTheRoundTrip() {
		RedisClock clock = new RedisClock();
		// Asked at 10 ms, answered at 30 ms: Redis said 1,000,000 ms at about 20 ms.
		clock.observe(1_000_000L, 10_000_000L, 30_000_000L);
		assertThat(clock.known()).isTrue();
		assertThat(clock.at(20_000_000L)).isEqualTo(1_000_000L);
		assertThat(clock.at(5_020_000_000L)).isEqualTo(1_005_000L);
		// A later reading replaces the estimate: Redis's clock may have been stepped.
		clock.observe(2_000_000L, 6_000_000_000L, 6_000_000_000L);
		assertThat(clock.at(6_001_000_000L)).isEqualTo(2_000_001L);
	}

	@Test
	void whenTheMonotonicClockIsNegativeThenTheEstimateStillHolds() {
		// System.nanoTime() may be any long, negative ones too.
		RedisClock clock = new RedisClock();
		clock.observe(1_000_000L, -50_000_000L, -50_000_000L);
		assertThat(clock.at(-49_000_000L)).isEqualTo(1_000_001L);
	}

}
