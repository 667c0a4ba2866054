package dev.retryafter.core.protection;

import java.time.Duration;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A first rejection's rate: what the host accepted in the seconds before it, over that time
 * plus the delay the server asked for. A fixed window of 20 per 2 s, filled in 50 ms and
 * answered {@code Retry-After: 2}, accepts about 0.9 x 20 / 2.05 s; paced at that from the
 * instant, the next window is not spent at once.
 */
class OriginProtectionFirstRejectionTests {

	private static final CooldownKey A = CooldownKey.of(Origin.of("http", "a.example", -1));

	private static final CooldownKey B = CooldownKey.of(Origin.of("http", "b.example", -1));

	private static final Duration BUDGET = Duration.ofSeconds(10);

	private static final Duration RESERVE = Duration.ofMillis(500);

	private final FakeClock clock = new FakeClock();

	private final OriginProtection cooldowns = new OriginProtection(100);

	@Test
	void whenTheHostAcceptedAWindowBeforeTheFirstRejectionThenThatRatePacesFromTheInstant() {
		this.clock.advance(Duration.ofSeconds(5));
		long first = now() + 2_500_000;
		acceptAtOnce("A.example", 20, Duration.ofNanos(2_500_000));
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		// The count's oldest bucket began at the first acceptance: 47.5 ms, plus the 2 s delay.
		double rate = 0.9 * 20 / ((now() - first + 2e9) / 1e9);
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(rate, within(1e-9));
		assertThat(this.cooldowns.learnedRates().fleetShare(A)).isEqualTo(rate, within(1e-9));
		long interval = (long) (1e9 / rate);
		assertThat(admit(A)).isEqualTo(pacedFor(2_000_000_000L));
		assertThat(admit(A)).isEqualTo(pacedFor(2_000_000_000L + interval));
		// Another host accepted nothing: its first rejection paces nobody.
		this.cooldowns.record(B, Duration.ofSeconds(2), now());
		assertThat(this.cooldowns.learnedRates().own(B)).isNaN();
	}

	@Test
	void whenTheHostAcceptedOneRequestOrNoneBeforeTheFirstRejectionThenNoRateIsKnownYet() {
		acceptAtOnce("a.example", 1, Duration.ofMillis(10));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(this.cooldowns.learnedRates().own(A)).isNaN();
		assertThat(admit(A)).isEqualTo(new Admission.Wait(Duration.ofSeconds(1)));
	}

	@Test
	void whenTheAcceptancesAreOlderThanTheSpanThenTheyTellNothing() {
		// A delay of 1 s reads the last second; these ended 1.5 s before the rejection.
		acceptAtOnce("a.example", 10, Duration.ofMillis(10));
		this.clock.advance(Duration.ofMillis(1500));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		assertThat(this.cooldowns.learnedRates().own(A)).isNaN();
	}

	@Test
	void whenAcceptancesCameThroughTheCallPathBeforeAnyPacerThenTheyCountAsTheHosts() {
		// A call built whole (a tracer watches it) reports its acceptance under its key.
		acceptUnderKey(10, Duration.ofMillis(10));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		// The first at 10 ms, the rejection at 100 ms: 90 ms, plus the 1 s delay.
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(0.9 * 10 / 1.09, within(1e-9));
	}

	@Test
	void whenASampleWindowClosesThenItsRateReplacesTheFirstRejections() {
		acceptAtOnce("a.example", 20, Duration.ofNanos(2_500_000));
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		this.clock.advance(Duration.ofSeconds(2));
		acceptUnderKey(10, Duration.ofMillis(10));
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		// 10 accepted in the 2.1 s window since the first rejection.
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(0.9 * 10 / 2.1, within(1e-9));
	}

	@Test
	void whenRetriesSpendTheSlotsPastTheInstantThenAFirstAttemptWaitsBehindThem() {
		acceptAtOnce("a.example", 20, Duration.ofNanos(2_500_000));
		this.cooldowns.record(A, Duration.ofSeconds(2), now());
		long interval = (long) (1e9 / this.cooldowns.learnedRates().own(A));
		this.clock.advance(Duration.ofSeconds(2));
		// Three retries leave at the instant: not held, but each spends a slot.
		for (int i = 0; i < 3; i++) {
			assertThat(admitRetry(A)).isEqualTo(Admission.PROCEED);
		}
		// The origin counts them: the first attempt that follows takes the slot after theirs.
		this.clock.advance(Duration.ofMillis(1));
		assertThat(admit(A)).isEqualTo(pacedFor(3 * interval - 1_000_000));
		// Once their slots and the held one have passed, nothing stands: requests go at once.
		this.clock.advance(Duration.ofNanos(4 * interval));
		assertThat(admit(A)).isEqualTo(Admission.PROCEED);
	}

	@Test
	void whenThreadsCountAtOnceThenTheCountStaysAnEstimateAndNothingBreaks() throws Exception {
		// Counted without a lock: a race may lose a count, never more than were made.
		long start = now();
		Thread[] threads = new Thread[4];
		for (int t = 0; t < threads.length; t++) {
			threads[t] = new Thread(() -> {
				for (int i = 0; i < 1000; i++) {
					this.cooldowns.acceptedAtOnce("a.example", start + i * 50_000L);
				}
			});
			threads[t].start();
		}
		for (Thread thread : threads) {
			thread.join();
		}
		this.clock.advance(Duration.ofMillis(50));
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		// At most 4,000 over the 50 ms since the first, plus the 1 s asked for.
		assertThat(this.cooldowns.learnedRates().own(A)).isGreaterThan(0).isLessThanOrEqualTo(0.9 * 4000 / 1.05 + 1e-6);
	}

	@Test
	void whenCallsAlternateBetweenHostsThenEachCountsItsOwn() {
		for (int i = 0; i < 10; i++) {
			this.clock.advance(Duration.ofMillis(10));
			this.cooldowns.acceptedAtOnce("a.example", now());
			if (i % 2 == 0) {
				this.cooldowns.acceptedAtOnce("B.EXAMPLE", now());
			}
		}
		this.cooldowns.record(A, Duration.ofSeconds(1), now());
		this.cooldowns.record(B, Duration.ofSeconds(1), now());
		// Both began 90 ms before the rejections: 10 and 5 accepted over 1.09 s.
		assertThat(this.cooldowns.learnedRates().own(A)).isEqualTo(0.9 * 10 / 1.09, within(1e-9));
		assertThat(this.cooldowns.learnedRates().own(B)).isEqualTo(0.9 * 5 / 1.09, within(1e-9));
	}

	@Test
	void whenAsManyHostsAsTheBoundAreCountedThenANewOneWaitsUntilOneIsQuiet() {
		OriginProtection one = new OriginProtection(1);
		for (int i = 0; i < 5; i++) {
			this.clock.advance(Duration.ofMillis(10));
			one.acceptedAtOnce("a.example", now());
			one.acceptedAtOnce("b.example", now());
		}
		one.record(B, Duration.ofSeconds(1), now());
		assertThat(one.learnedRates().own(B)).isNaN();
		// Ten seconds after its last acceptance, a.example's count is forgotten for b's.
		this.clock.advance(Duration.ofSeconds(11));
		for (int i = 0; i < 5; i++) {
			this.clock.advance(Duration.ofMillis(10));
			one.acceptedAtOnce("b.example", now());
		}
		one.end(B);
		one.record(B, Duration.ofSeconds(1), now());
		assertThat(one.learnedRates().own(B)).isGreaterThan(0);
	}

	private Admission admitRetry(CooldownKey key) {
		return this.cooldowns.admit(new AdmissionRequest(key, now(), BUDGET, RESERVE, CooldownMode.WAIT, 0.0,
				new FixedRandom(0.5), false));
	}

	private void acceptUnderKey(int count, Duration apart) {
		for (int i = 0; i < count; i++) {
			this.clock.advance(apart);
			this.cooldowns.accepted(A, now());
		}
	}

	private void acceptAtOnce(String host, int count, Duration apart) {
		for (int i = 0; i < count; i++) {
			this.clock.advance(apart);
			this.cooldowns.acceptedAtOnce(host, now());
		}
	}

	private Admission admit(CooldownKey key) {
		return this.cooldowns.admit(new AdmissionRequest(key, now(), BUDGET, RESERVE, CooldownMode.WAIT, 0.0,
				new FixedRandom(0.5), true));
	}

	private static Admission pacedFor(long nanos) {
		return new Admission.Wait(Duration.ofNanos(nanos), HoldReason.PACING);
	}

	private long now() {
		return this.clock.nanoTime();
	}

}
