package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.core.header.RateLimitFields;
import dev.retryafter.core.header.RateLimitReading;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * What a fleet's schedule of learned-pace slots tells an instance's pacer: the fleet's rate
 * spaces its own slots while the answer holds, and the fleet's queue keeps its requests in
 * line after its own slots ran out; without an answer nothing changes.
 */
class LearnedRatesTests {

	private static final CooldownKey A = CooldownKey.of(Origin.of("http", "a.example", -1));

	private static final Duration BUDGET = Duration.ofSeconds(10);

	private static final Duration RESERVE = Duration.ofMillis(500);

	// 40 accepted in the 2 s between the rejections, 0.9 of it: 18 per second.
	private static final long OWN_INTERVAL_NANOS = (long) (1e9 / 18);

	// Three instances of 18 per second each.
	private static final long FLEET_INTERVAL_NANOS = (long) (1e9 / 54);

	private static final long SECOND = 1_000_000_000L;

	private final LearnedRateFixture fixture = new LearnedRateFixture(A);

	private final FakeClock clock = this.fixture.clock;

	private final OriginProtection protection = this.fixture.protection;

	private final LearnedRates rates = this.fixture.rates;

	@Test
	void whenTheFleetAnsweredThenItsRateSpacesThisInstancesSlotsUntilTheAnswerRunsOut() {
		this.fixture.learnEighteenPerSecond();
		assertThat(this.rates.own(A)).isEqualTo(18.0, within(1e-9));
		assertThat(admit()).isEqualTo(paced(SECOND));
		this.rates.fleetPaced(A, 54.0, now() + 5 * SECOND, now());
		// The next slot was set by the own rate; the one after it by the fleet's.
		assertThat(admit()).isEqualTo(paced(SECOND + OWN_INTERVAL_NANOS));
		assertThat(admit()).isEqualTo(paced(SECOND + OWN_INTERVAL_NANOS + FLEET_INTERVAL_NANOS));
		// The own rate is what this instance measured, whatever spaces its slots.
		assertThat(this.rates.own(A)).isEqualTo(18.0, within(1e-9));

		// Once the answer has run out, the own rate spaces the slots again.
		this.clock.advance(Duration.ofMillis(900));
		this.rates.fleetPaced(A, 54.0, now(), now());
		long next = SECOND + OWN_INTERVAL_NANOS + 2 * FLEET_INTERVAL_NANOS - Duration.ofMillis(900).toNanos();
		assertThat(admit()).isEqualTo(paced(next));
		assertThat(admit()).isEqualTo(paced(next + OWN_INTERVAL_NANOS));
	}

	@Test
	void whenTheFleetsQueueStandsThenARequestTheOwnSlotsLetGoBelongsToIt() {
		this.fixture.learnEighteenPerSecond();
		assertThat(this.rates.fleetQueueStands(request(CooldownMode.WAIT, true, false), A)).isFalse();
		admit();
		// The fleet's next free slot is 3 s away, though this instance's own slots end at 1 s.
		this.rates.fleetPaced(A, 54.0, now() + 10 * SECOND, now() + 3 * SECOND);
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(admit()).isEqualTo(Admission.PROCEED);
		assertThat(this.rates.fleetQueueStands(request(CooldownMode.WAIT, true, false), A)).isTrue();
		// A retry, fail-fast, and a client reading the origin's announced quota are not paced.
		assertThat(this.rates.fleetQueueStands(request(CooldownMode.WAIT, false, false), A)).isFalse();
		assertThat(this.rates.fleetQueueStands(request(CooldownMode.FAIL_FAST, true, false), A)).isFalse();
		this.protection.recordQuota(A.declared(), new RateLimitReading("p", 10, Duration.ofSeconds(10), 100,
				Duration.ofSeconds(10), RateLimitFields.IETF), true, now());
		assertThat(this.rates.fleetQueueStands(request(CooldownMode.WAIT, true, true), A)).isFalse();
		assertThat(this.rates.fleetQueueStands(request(CooldownMode.WAIT, true, false), A)).isTrue();
		// For one server delay (1 s) after the fleet's queue as last answered, a first attempt
		// still asks the fleet (others may have moved it on); after that nothing belongs to it.
		this.clock.advance(Duration.ofMillis(1500));
		assertThat(this.rates.fleetQueueStands(request(CooldownMode.WAIT, true, false), A)).isTrue();
		this.clock.advance(Duration.ofMillis(600));
		assertThat(this.rates.fleetQueueStands(request(CooldownMode.WAIT, true, false), A)).isFalse();
	}

	@Test
	void whenTheFleetIsOutOfReachThenTheOwnRateSpacesTheSlotsAgain() {
		this.fixture.learnEighteenPerSecond();
		this.rates.fleetPaced(A, 54.0, now() + 10 * SECOND, now() + 3 * SECOND);
		admit();
		this.rates.fleetPaced(A, Double.NaN, now(), now());
		assertThat(admit()).isEqualTo(paced(SECOND + FLEET_INTERVAL_NANOS));
		assertThat(admit()).isEqualTo(paced(SECOND + FLEET_INTERVAL_NANOS + OWN_INTERVAL_NANOS));
		assertThat(this.rates.fleetQueueStands(request(CooldownMode.WAIT, true, false), A)).isFalse();
	}

	@Test
	void whenNoRateIsLearnedThenAFleetAnswerQueuesFirstAttemptsInTheFleetsButChangesNoLocalHold() {
		this.protection.record(A, Duration.ofSeconds(1), now());
		this.rates.fleetPaced(A, 54.0, now() + 10 * SECOND, now() + 3 * SECOND);
		CooldownKey unknown = CooldownKey.of(Origin.of("http", "b.example", -1));
		this.rates.fleetPaced(unknown, 54.0, now() + 10 * SECOND, now() + 3 * SECOND);
		assertThat(this.rates.own(A)).isNaN();
		// Its requests got no share of the fleet's sample, yet it sends into the fleet's queue.
		assertThat(this.rates.fleetQueueStands(request(CooldownMode.WAIT, true, false), A)).isTrue();
		assertThat(this.rates.fleetQueueStands(request(CooldownMode.WAIT, false, false), A)).isFalse();
		assertThat(this.rates.fleetQueueStands(request(CooldownMode.WAIT, true, false), unknown)).isFalse();
		assertThat(this.protection.admit(request(CooldownMode.WAIT, true, false)))
			.isEqualTo(new Admission.Wait(Duration.ofSeconds(1), HoldReason.COOLDOWN));
	}

	@Test
	void whenARejectionStartsABurstThenTheShareIsWhatWasAcceptedOverTwoServerDelays() {
		List<Long> told = new ArrayList<>();
		this.rates.onSample((key, nowNanos) -> told.add(nowNanos));
		this.protection.record(A, Duration.ofSeconds(1), now());
		// Nothing counted before the first rejection: a share of nothing.
		assertThat(this.rates.fleetShare(A)).isZero();
		assertThat(this.rates.serverDelayNanos(A)).isEqualTo(SECOND);
		// 40 accepted over the next 2 s, 10 more in the third, then a rejection: the last two
		// server delays (2 s) held 20 of the first 40 and the last 10, in 100 ms buckets.
		for (int i = 0; i < 40; i++) {
			this.clock.advance(Duration.ofMillis(50));
			this.protection.accepted(A, now());
		}
		for (int i = 0; i < 10; i++) {
			this.clock.advance(Duration.ofMillis(100));
			this.protection.accepted(A, now());
		}
		this.protection.record(A, Duration.ofSeconds(1), now());
		assertThat(this.rates.fleetShare(A)).isCloseTo(0.9 * 30 / 2, within(0.9 / 2));
		assertThat(this.rates.fleetShareAgoNanos(A, now())).isZero();
		// The rest of the burst takes no new share: one server delay must pass.
		double share = this.rates.fleetShare(A);
		this.clock.advance(Duration.ofMillis(400));
		this.protection.record(A, Duration.ofSeconds(1), now());
		assertThat(this.rates.fleetShare(A)).isEqualTo(share);
		assertThat(this.rates.fleetShareAgoNanos(A, now())).isEqualTo(Duration.ofMillis(400).toNanos());
		assertThat(told).hasSize(2);
		// A later burst, after 5 s with nothing accepted: its buckets are long cleared.
		this.clock.advance(Duration.ofSeconds(5));
		this.protection.record(A, Duration.ofSeconds(1), now());
		assertThat(this.rates.fleetShare(A)).isZero();
		assertThat(told).hasSize(3);
		// A key that was never turned away has none.
		assertThat(this.rates.fleetShare(CooldownKey.of(Origin.of("http", "b.example", -1)))).isNaN();
	}

	@Test
	void whileTheFleetsQueueStandsThenEachRequestAcceptedGrowsTheShareAsTheOwnRateWouldGrow() {
		for (int i = 0; i < 10; i++) {
			this.clock.advance(Duration.ofMillis(10));
			this.protection.acceptedAtOnce("a.example", now());
		}
		this.protection.record(A, Duration.ofSeconds(1), now());
		double share = this.rates.fleetShare(A);
		assertThat(share).isPositive();
		// Before the fleet answered, no queue of its stands: nothing grows the share.
		this.protection.accepted(A, now());
		assertThat(this.rates.fleetShare(A)).isEqualTo(share);
		// The fleet's queue stands for 3 s: each acceptance adds a twentieth of a request per
		// second, the share keeps the date of its sample.
		this.rates.fleetPaced(A, 27.0, now() + 10 * SECOND, now() + 3 * SECOND);
		long sampledAgo = this.rates.fleetShareAgoNanos(A, now());
		for (int i = 0; i < 4; i++) {
			this.clock.advance(Duration.ofMillis(100));
			this.protection.accepted(A, now());
		}
		assertThat(this.rates.fleetShare(A)).isCloseTo(share + 4 * 0.05, within(1e-9));
		assertThat(this.rates.fleetShareAgoNanos(A, now())).isEqualTo(sampledAgo + 4 * SECOND / 10);
		// Once the queue has gone, an acceptance adds nothing; a rejection takes the share anew.
		this.clock.advance(Duration.ofSeconds(3));
		this.protection.accepted(A, now());
		assertThat(this.rates.fleetShare(A)).isCloseTo(share + 4 * 0.05, within(1e-9));
	}

	@Test
	void whenTheFleetSampledAtALaterRejectionThenTheShareIsTakenAgainAndDatedToThatSample() {
		// Before the first share there is nothing to join.
		assertThat(this.rates.joinShare(A, now(), now())).isFalse();
		this.protection.record(A, Duration.ofSeconds(1), now());
		assertThat(this.rates.fleetShare(A)).isZero();
		// 20 accepted over the next 2 s; the rest of the fleet took its shares at a rejection
		// 300 ms ago, which moved no cooldown here: this instance never heard it.
		for (int i = 0; i < 20; i++) {
			this.clock.advance(Duration.ofMillis(100));
			this.protection.accepted(A, now());
		}
		long sample = now() - Duration.ofMillis(300).toNanos();
		assertThat(this.rates.joinShare(A, now(), sample)).isTrue();
		// Over the last two server delays, ending now; dated to the fleet's sample.
		assertThat(this.rates.fleetShare(A)).isCloseTo(0.9 * 20 / 2, within(0.9 / 2));
		assertThat(this.rates.fleetShareAgoNanos(A, now())).isEqualTo(Duration.ofMillis(300).toNanos());
		// A key that was never turned away has no share to take again.
		assertThat(this.rates.joinShare(CooldownKey.of(Origin.of("http", "b.example", -1)), now(), now())).isFalse();
	}

	private Admission admit() {
		return this.protection.admit(request(CooldownMode.WAIT, true, false));
	}

	private AdmissionRequest request(CooldownMode mode, boolean firstAttempt, boolean readsQuotas) {
		return new AdmissionRequest(A, now(), BUDGET, RESERVE, mode, 0.0, new FixedRandom(0.5), firstAttempt,
				readsQuotas);
	}

	private static Admission paced(long nanos) {
		return new Admission.Wait(Duration.ofNanos(nanos), HoldReason.PACING);
	}

	private long now() {
		return this.clock.nanoTime();
	}

}
