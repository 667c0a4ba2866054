package dev.retryafter.core.protection;

import java.time.Duration;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.testsupport.FakeClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The pacer's sample window: a stretch in which nothing was accepted says nothing about the
 * rate an origin accepts once it accepts again, so the window restarts at the next
 * acceptance.
 */
class OriginProtectionSampleWindowTests {

	private static final CooldownKey A = CooldownKey.of(Origin.of("http", "a.example", -1));

	private final FakeClock clock = new FakeClock();

	private final OriginProtection cooldowns = new OriginProtection(100);

	@Test
	void whenTheOriginTurnedEverythingAwayForAWhileThenTheWindowRestartsAtTheNextAcceptance() {
		// 100 s of Retry-After: 1 rejections, one a second.
		for (int i = 0; i <= 100; i++) {
			this.cooldowns.record(A, Duration.ofSeconds(1), now());
			this.clock.advance(Duration.ofSeconds(1));
		}
		// Then 100 accepted in one second, and a 429 100 ms after the last.
		accept(100, Duration.ofMillis(10));
		this.clock.advance(Duration.ofMillis(100));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		// 0.9 x 100 over the 1.09 s since the first acceptance, not over the 102.1 s since the
		// first rejection (0.88 per second).
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(0.9 * 100 / 1.09, within(1e-6));
	}

	@Test
	void whenNoRequestCameForAWhileThenTheWindowRestartsAtTheNextAcceptance() {
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		// Quiet for 8 s (the pacer is kept for 10), then 50 accepted over a second.
		this.clock.advance(Duration.ofSeconds(8));
		accept(50, Duration.ofMillis(20));
		this.clock.advance(Duration.ofMillis(100));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(0.9 * 50 / 1.08, within(1e-6));
	}

	@Test
	void whenTheFirstAcceptanceComesWithinTwoDelaysThenTheWindowKeepsItsStart() {
		// A cooldown and its release window: the time they took is part of the cycle whose
		// throughput the window measures.
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.clock.advance(Duration.ofMillis(1990));
		accept(10, Duration.ofMillis(10));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(0.9 * 10 / 2.09, within(1e-6));
	}

	private void accept(int count, Duration apart) {
		for (int i = 0; i < count; i++) {
			this.clock.advance(apart);
			this.cooldowns.accepted(A, now());
		}
	}

	private long now() {
		return this.clock.nanoTime();
	}

}
