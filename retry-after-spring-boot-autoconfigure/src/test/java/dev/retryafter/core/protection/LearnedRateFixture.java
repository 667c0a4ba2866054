package dev.retryafter.core.protection;

import java.time.Duration;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.testsupport.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * One instance's origin protection on a fake clock, and the two rejections that teach a key
 * a learned rate of 18 requests per second.
 */
final class LearnedRateFixture {

	final FakeClock clock = new FakeClock();

	final OriginProtection protection = new OriginProtection(100);

	final LearnedRates rates = this.protection.learnedRates();

	private final CooldownKey key;

	LearnedRateFixture(CooldownKey key) {
		this.key = key;
	}

	// A cooldown of 1 s at the start, 40 accepted in 2 s, then a rejection of 1 s: cooling
	// until 1 s from now, 18 per second learned (0.9 x 40 / 2 s).
	void learnEighteenPerSecond() {
		this.protection.record(this.key, Duration.ofSeconds(1), this.clock.nanoTime());
		for (int i = 0; i < 40; i++) {
			this.clock.advance(Duration.ofMillis(50));
			this.protection.accepted(this.key, this.clock.nanoTime());
		}
		this.protection.record(this.key, Duration.ofSeconds(1), this.clock.nanoTime());
		assertThat(this.rates.own(this.key)).isCloseTo(18.0, within(1e-9));
	}

}
