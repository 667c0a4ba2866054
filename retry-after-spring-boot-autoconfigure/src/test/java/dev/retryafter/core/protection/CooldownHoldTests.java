package dev.retryafter.core.protection;

import java.time.Duration;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.Origin;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The merge of two holds for one key, interleaved as concurrent callers interleave it: a
 * request that read a hold holds it until it counts itself, and a renewal may replace the
 * hold in between.
 */
class CooldownHoldTests {

	private static final long SECOND = Duration.ofSeconds(1).toNanos();

	private static final long MILLI = Duration.ofMillis(1).toNanos();

	@Test
	void whenARequestCountsItselfOnAHoldARenewalHasReplacedThenTheRenewalsWaveStillHeldIt() {
		// 0 ms: a 429 with Retry-After: 1; a first attempt reads the hold to be held by it.
		CooldownHold first = CooldownHold.merge(null, new CooldownHold(SECOND, SECOND), 0, null);
		CooldownHold read = first;
		// 2 ms: another 429 of the first wave renews the cooldown before the request counts.
		CooldownHold renewed = CooldownHold.merge(first, new CooldownHold(2 * MILLI + SECOND, SECOND), 2 * MILLI,
				first);
		assertThat(renewed).isNotSameAs(first);
		// 3 ms: the request counts itself on the hold it read.
		read.release(SECOND + 50 * MILLI);
		// 1.1 s: the held request is turned away; its 429 answers the renewal's wave.
		long answered = SECOND + 100 * MILLI;
		assertThat(renewed.waveAnswered(answered)).isTrue();
		CooldownHold afterWave = CooldownHold.merge(renewed, new CooldownHold(answered + SECOND, SECOND), answered,
				renewed);
		assertThat(afterWave.holds(retry(answered))).as("a follow-up holds retries").isFalse();
	}

	private static AdmissionRequest retry(long nowNanos) {
		return new AdmissionRequest(CooldownKey.of(Origin.of("http", "a.example", -1)), nowNanos,
				Duration.ofSeconds(10), Duration.ofMillis(500), CooldownMode.WAIT, 0.0, new FixedRandom(0.5), false);
	}

}
