package dev.retryafter.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.core.protection.OriginProtection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * Learned-pace slots shared by a fleet: stores ("instances") on one real Redis, each of which
 * learned its share of an origin's rate from the same rejections, take their paced slots from
 * one schedule spaced by the sum of their rates, and keep their own when Redis hangs.
 */
class FleetLearnedSlotsTests {

	private static final CooldownKey KEY = CooldownKey.of(Origin.of("http", "127.0.0.1", 8081));

	// Each instance learns 1 per second, and takes a share of 0.9 per second (four accepted in
	// the last two server delays, 4 s): the fleet of two is spaced by 1.8 per second, 0.56 s,
	// at least this.
	private static final Duration FLEET_INTERVAL = Duration.ofMillis(500);

	private static final Duration OWN_INTERVAL = Duration.ofSeconds(1);

	// The fleet's interval itself: 1 / 1.8 s.
	private static final Duration SHARED_INTERVAL = Duration.ofNanos(555_555_555);

	// The second rejection asks for this: the first slot is at its end.
	private static final Duration COOLDOWN = Duration.ofSeconds(2);

	private static final Duration AWAIT = Duration.ofSeconds(30);

	// A sanity bound for a busy machine: the bound itself is FleetRoundTrips.ROUND_TRIP_BOUND.
	private static final Duration CALLER_BOUND = Duration.ofSeconds(1);

	// Slots an interval apart, measured on this JVM's clock after two round trips.
	private static final Duration SPACING_SLACK = Duration.ofMillis(100);

	@RegisterExtension
	final RedisStoreExtension redis = new RedisStoreExtension();

	@Test
	void whenTwoInstancesLearnedTheirSharesThenTheirSlotsInterleaveAtTheFleetsRate() {
		long learnedAt = System.nanoTime();
		RedisCooldownStore[] fleet = fleetThatLearned(learnedAt);
		RedisCooldownStore first = fleet[0];
		RedisCooldownStore second = fleet[1];

		List<Long> instants = new ArrayList<>();
		List<RedisCooldownStore> owners = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			for (RedisCooldownStore store : List.of(first, second)) {
				instants.add(slotAt(store) - learnedAt);
				owners.add(store);
			}
		}
		// Each instance's own slots would be a second apart, both instances' on the same
		// instants; the fleet's are about half a second apart, taken in turn from the first: each
		// instance told the fleet its share when it learned it.
		assertThat(Duration.ofNanos(instants.get(0))).isGreaterThanOrEqualTo(COOLDOWN.minus(SPACING_SLACK));
		for (int i = 1; i < instants.size(); i++) {
			assertThat(owners.get(i)).isNotSameAs(owners.get(i - 1));
			assertThat(Duration.ofNanos(instants.get(i) - instants.get(i - 1)))
				.isGreaterThanOrEqualTo(FLEET_INTERVAL.minus(SPACING_SLACK))
				.isLessThan(OWN_INTERVAL);
		}
		assertThat(first.learnedSlots().takenCount()).isEqualTo(4);
		assertThat(second.learnedSlots().takenCount()).isEqualTo(4);
		assertThat(first.pacingFallbackCount() + second.pacingFallbackCount()).isZero();
		// What Redis keeps: the TAT and the interval it was spaced at, and each instance's rate,
		// when it learned it and when it last took a slot.
		StringRedisTemplate template = this.redis.fixture().template();
		assertThat(template.opsForHash().entries(first.learnedSlots().key(KEY))).hasSize(8).containsKeys("tat", "iv");
	}

	@Test
	void whenAnInstanceLearnsItsShareThenTheFleetCountsItThoughItTakesNoSlot() {
		long learnedAt = System.nanoTime();
		RedisCooldownStore[] fleet = fleetThatLearned(learnedAt);
		RedisCooldownStore first = fleet[0];
		long[] at = new long[3];
		for (int i = 0; i < at.length; i++) {
			at[i] = slotAt(first);
		}
		// Only this instance takes slots. Its second is its own interval after the first (its
		// own slots were handed out before the fleet answered); from then on they are spaced by
		// the fleet's rate, which counts the other's share though it never took a slot.
		assertThat(Duration.ofNanos(at[2] - at[1])).isGreaterThanOrEqualTo(FLEET_INTERVAL.minus(SPACING_SLACK))
			.isLessThan(OWN_INTERVAL.minus(SPACING_SLACK));
		assertThat(fleet[1].learnedSlots().takenCount()).isZero();
		assertThat(first.pacingFallbackCount()).isZero();
	}

	@Test
	void whenAnInstanceHasNoShareThenTheFirstAttemptsItsCooldownHoldsTakeTheFleetsSlots() {
		RedisCooldownStore learner = this.redis.fixture().store(new OriginProtection(100));
		RedisCooldownStore other = this.redis.fixture().store(new OriginProtection(100));
		await().atMost(AWAIT).until(() -> learner.state().connected() && other.state().connected());
		long learnedAt = System.nanoTime();
		learnOnePerSecond(learner, learnedAt);
		await().atMost(AWAIT).until(() -> shared(learner) == 1);
		// The other instance heard the same rejection, but its requests got nothing accepted
		// in the sample: no rate of its own, only the cooldown until 2 s.
		other.protection().record(KEY, COOLDOWN, learnedAt);
		assertThat(other.protection().learnedRates().own(KEY)).isNaN();
		// The learner takes the slots at 2 s and 3 s; the fleet's next is at 4.1 s (its share,
		// 0.9 per second, alone).
		paced(learner);
		paced(learner);
		long asked = System.nanoTime();
		Admission held = other.admit(request(asked));
		assertThat(held).isInstanceOfSatisfying(Admission.Wait.class, (wait) -> {
			assertThat(wait.reason()).isEqualTo(HoldReason.PACING);
			assertThat(Duration.ofNanos(asked + wait.delay().toNanos() - learnedAt))
				.isGreaterThanOrEqualTo(Duration.ofSeconds(4).minus(SPACING_SLACK));
		});
		assertThat(other.learnedSlots().takenCount()).isEqualTo(1);
		assertThat(other.pacingFallbackCount()).isZero();

		// Where no instance has a rate, the cooldown alone holds: no slot, and no fallback.
		CooldownKey unlearned = CooldownKey.of(Origin.of("http", "127.0.0.1", 8082));
		other.protection().record(unlearned, COOLDOWN, System.nanoTime());
		Admission cooled = other.admit(new AdmissionRequest(unlearned, System.nanoTime(), Duration.ofSeconds(60),
				Duration.ofMillis(100), CooldownMode.WAIT, 0.0, new SplittableRandom(1), true, false));
		assertThat(cooled).isInstanceOfSatisfying(Admission.Wait.class,
				(wait) -> assertThat(wait.reason()).isEqualTo(HoldReason.COOLDOWN));
		assertThat(other.learnedSlots().takenCount()).isEqualTo(1);
		assertThat(other.pacingFallbackCount()).isZero();
	}

	@Test
	void whenAnInstancesRetriesWentUnpacedThenTheFleetsScheduleMovesPastThem() {
		long learnedAt = System.nanoTime();
		RedisCooldownStore[] fleet = fleetThatLearned(learnedAt);
		RedisCooldownStore first = fleet[0];
		RedisCooldownStore second = fleet[1];
		// One instance takes three slots, 0.56 s apart from the cooldown's end at 2 s; the
		// fleet's next is at 3.67 s.
		for (int i = 0; i < 3; i++) {
			paced(first);
		}
		// The other lets two retries go at the cooldown's instant, unpaced: the fleet's next
		// slot, when it takes one, moves past two more intervals.
		for (int i = 0; i < 2; i++) {
			assertThat(second.admit(retry(System.nanoTime()))).isInstanceOfSatisfying(Admission.Wait.class,
					(wait) -> assertThat(wait.reason()).isEqualTo(HoldReason.COOLDOWN));
		}
		assertThat(Duration.ofNanos(slotAt(second) - learnedAt))
			.isGreaterThanOrEqualTo(COOLDOWN.plus(SHARED_INTERVAL.multipliedBy(5)).minus(SPACING_SLACK));
		assertThat(second.protection().learnedRates().takeSpent(KEY)).isZero();
	}

	@Test
	void whenAnInstancesOwnQueueRunsPastTheFleetsThenItsSlotsAreTheFleetsNextFreeOnes() {
		long learnedAt = System.nanoTime();
		RedisCooldownStore[] fleet = fleetThatLearned(learnedAt);
		// The first instance's own slots would be a second apart, at 2 s, 3 s and 4 s. Asked
		// for its slots that late, the fleet left its own between them empty; its slots are
		// the fleet's next free ones from the cooldown's end, 0.56 s apart.
		long[] at = new long[3];
		for (int i = 0; i < at.length; i++) {
			at[i] = slotAt(fleet[0]) - learnedAt;
		}
		assertThat(Duration.ofNanos(at[0])).isGreaterThanOrEqualTo(COOLDOWN.minus(SPACING_SLACK));
		assertThat(Duration.ofNanos(at[2] - at[0]))
			.isGreaterThanOrEqualTo(SHARED_INTERVAL.multipliedBy(2).minus(SPACING_SLACK))
			.isLessThan(OWN_INTERVAL.multipliedBy(2).minus(SPACING_SLACK));
		// The other instance's next slot follows them at the fleet's interval, before 4 s.
		assertThat(Duration.ofNanos(slotAt(fleet[1]) - learnedAt))
			.isLessThan(COOLDOWN.plus(OWN_INTERVAL.multipliedBy(2)));
		assertThat(fleet[0].pacingFallbackCount() + fleet[1].pacingFallbackCount()).isZero();
	}

	@Test
	void whenAnInstancesShareIsFromAnEarlierSampleThenTheFleetsRateLeavesItOut() {
		// One instance learned its share from a sample that closed 1.5 s ago, and took a slot
		// while its cooldown still held; it takes no more, so it never takes its share again.
		RedisCooldownStore stale = instanceThatLearned(Duration.ofMillis(1500), COOLDOWN);
		// The origin has turned requests away since; two instances learned from that newer
		// sample, the first has not: its share describes the origin before.
		long learnedAt = System.nanoTime();
		RedisCooldownStore[] fleet = fleetThatLearned(learnedAt);
		slotAt(fleet[0]);
		slotAt(fleet[1]);
		// The two fresh shares of 0.9 per second space the schedule at 1 / 1.8 s; with the
		// older one summed in, 1 / 2.7 s.
		Object interval = this.redis.fixture().template().opsForHash().get(fleet[0].learnedSlots().key(KEY), "iv");
		assertThat(Long.parseLong(String.valueOf(interval))).isCloseTo(Math.round(1e6 / 1.8), within(100L));
		assertThat(fleet[0].pacingFallbackCount() + fleet[1].pacingFallbackCount()).isZero();
	}

	@Test
	void whenAnInstancesShareIsFromAnEarlierSampleThenItsNextSlotTakesItAgainForTheFleetsNewest() {
		// This instance took its share at a rejection 2.5 s ago that asked for 3 s; the others
		// take theirs at a later one, which moved no cooldown, so this instance never hears it.
		RedisCooldownStore stale = instanceThatLearned(Duration.ofMillis(2500), Duration.ofSeconds(3));
		long learnedAt = System.nanoTime();
		fleetThatLearned(learnedAt);
		long asked = System.nanoTime();
		long before = stale.protection().learnedRates().fleetShareAgoNanos(KEY, asked);
		assertThat(Duration.ofNanos(before)).isGreaterThanOrEqualTo(Duration.ofMillis(2500));
		// Its next first attempt (held for its slot, or asking for one while the fleet's queue
		// stands) hears how old the fleet's newest share is, and it takes its own again, dated
		// to that sample (give or take the round trips): the sum no longer leaves it out.
		stale.admit(request(System.nanoTime()));
		long after = stale.protection().learnedRates().fleetShareAgoNanos(KEY, asked);
		assertThat(Duration.ofNanos(before - after)).isGreaterThan(Duration.ofMillis(1500));
		assertThat(stale.protection().learnedRates().fleetShare(KEY)).isPositive();
		assertThat(stale.pacingFallbackCount()).isZero();
	}

	@Test
	void whenTheFleetsRateRisesThenTheQueueStillAheadIsSpacedAtTheNewRate() {
		RedisCooldownStore first = this.redis.fixture().store(new OriginProtection(100));
		RedisCooldownStore second = this.redis.fixture().store(new OriginProtection(100));
		await().atMost(AWAIT).until(() -> first.state().connected() && second.state().connected());
		long learnedAt = System.nanoTime();
		learnOnePerSecond(first, learnedAt);
		await().atMost(AWAIT).until(() -> shared(first) == 1);
		// Alone, the first instance queues four slots at its share, 0.9 per second, from the
		// cooldown's end (2 s): the queue ends about 6.4 s after the rejection.
		for (int i = 0; i < 4; i++) {
			slotAt(first);
		}
		// The second's share of the same rejection arrives: the fleet's rate doubles, and the
		// queue still ahead is half as long. Unscaled, its slot would be at 6.4 s.
		learnOnePerSecond(second, learnedAt);
		await().atMost(AWAIT).until(() -> shared(first) == 2);
		long slot = slotAt(second);
		assertThat(Duration.ofNanos(slot - learnedAt)).isGreaterThanOrEqualTo(COOLDOWN.minus(SPACING_SLACK))
			.isLessThan(Duration.ofMillis(5000));
		assertThat(first.pacingFallbackCount() + second.pacingFallbackCount()).isZero();
	}

	@Test
	void whenTheFleetsQueueStillStandsThenARequestItsOwnSlotsLetGoTakesAFleetSlot() {
		long learnedAt = System.nanoTime();
		RedisCooldownStore[] fleet = fleetThatLearned(learnedAt);
		RedisCooldownStore first = fleet[0];
		RedisCooldownStore second = fleet[1];
		// The other instance takes five slots, 0.56 s apart from the cooldown's end at 2 s, then
		// this one the sixth: at 4.78 s, though its own slot is at the cooldown's end.
		for (int i = 0; i < 5; i++) {
			paced(second);
		}
		assertThat(Duration.ofNanos(slotAt(first) - learnedAt))
			.isGreaterThanOrEqualTo(COOLDOWN.plus(SHARED_INTERVAL.multipliedBy(5)).minus(SPACING_SLACK));

		// Later, past the cooldown and this instance's own next slot (3 s), its own pace would
		// let a request go at once; the fleet's queue, as last answered, stands until 5.33 s.
		long later = System.nanoTime() + Duration.ofMillis(3500).toNanos();
		Admission next = first.admit(request(later));
		assertThat(next).isInstanceOfSatisfying(Admission.Wait.class, (wait) -> {
			assertThat(wait.reason()).isEqualTo(HoldReason.PACING);
			assertThat(Duration.ofNanos(later + wait.delay().toNanos() - learnedAt))
				.isGreaterThanOrEqualTo(COOLDOWN.plus(SHARED_INTERVAL.multipliedBy(6)).minus(SPACING_SLACK));
		});
		assertThat(first.learnedSlots().takenCount()).isEqualTo(2);
		// Past the fleet's queue too, requests go at once, without a round trip.
		assertThat(first.admit(request(later + Duration.ofSeconds(10).toNanos()))).isEqualTo(Admission.PROCEED);
		assertThat(first.learnedSlots().takenCount() + first.pacingFallbackCount()).isEqualTo(2);
	}

	@Test
	void whenRedisHangsThenAPacedRequestKeepsItsLocalSlotWithinTheBoundAndTheFallbackIsCounted() {
		long learnedAt = System.nanoTime();
		RedisCooldownStore[] fleet = fleetThatLearned(learnedAt);
		RedisCooldownStore first = fleet[0];
		RedisCooldownStore second = fleet[1];
		paced(first);
		paced(second);
		assertThat(first.learnedSlots().takenCount()).isEqualTo(1);

		this.redis.server().pause();
		try {
			long[] at = new long[3];
			for (int i = 0; i < at.length; i++) {
				long started = System.nanoTime();
				Admission.Wait wait = paced(first);
				assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(CALLER_BOUND);
				at[i] = started + wait.delay().toNanos();
			}
			assertThat(first.pacingFallbackCount()).isEqualTo(3);
			assertThat(first.quotaFallbackCount()).isZero();
			// Its own share again, one a second, from the slot after the first that fell back
			// (that one was spaced by the fleet's rate, still in force when it was handed out).
			assertThat(Duration.ofNanos(at[2] - at[1])).isGreaterThanOrEqualTo(OWN_INTERVAL.minus(SPACING_SLACK));
		}
		finally {
			this.redis.server().resume();
		}
	}

	@Test
	void whenRedisIsGoneThenAPacedRequestIsHeldLocallyNeverRefused() {
		RedisCooldownStore store = this.redis.fixture().store(new OriginProtection(100));
		await().atMost(AWAIT).until(() -> store.state().connected());
		this.redis.server().kill();
		await().atMost(AWAIT).until(() -> !store.state().connected());
		long learnedAt = System.nanoTime();
		learnOnePerSecond(store, learnedAt);
		long started = System.nanoTime();
		Admission.Wait wait = paced(store);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(CALLER_BOUND);
		// Its own slot: the cooldown's end.
		assertThat(Duration.ofNanos(started + wait.delay().toNanos() - learnedAt))
			.isGreaterThanOrEqualTo(COOLDOWN.minus(SPACING_SLACK));
		assertThat(store.pacingFallbackCount()).isEqualTo(1);
		assertThat(store.learnedSlots().takenCount()).isZero();
	}

	// One instance, connected, that learned one per second from a rejection {@code ago} that
	// asked for {@code cooldown}, told the fleet its share, and took a slot.
	private RedisCooldownStore instanceThatLearned(Duration ago, Duration cooldown) {
		RedisCooldownStore store = this.redis.fixture().store(new OriginProtection(100));
		await().atMost(AWAIT).until(() -> store.state().connected());
		learnOnePerSecond(store, System.nanoTime() - ago.toNanos(), cooldown);
		await().atMost(AWAIT).until(() -> shared(store) == 1);
		paced(store);
		return store;
	}

	// Two instances, connected, that learned one per second each from the same rejections,
	// the second at {@code learnedAt}.
	private RedisCooldownStore[] fleetThatLearned(long learnedAt) {
		RedisCooldownStore first = this.redis.fixture().store(new OriginProtection(100));
		RedisCooldownStore second = this.redis.fixture().store(new OriginProtection(100));
		await().atMost(AWAIT).until(() -> first.state().connected() && second.state().connected());
		long sharedBefore = shared(first);
		learnOnePerSecond(first, learnedAt);
		learnOnePerSecond(second, learnedAt);
		await().atMost(AWAIT).until(() -> shared(first) >= sharedBefore + 2);
		return new RedisCooldownStore[] { first, second };
	}

	// How many instances' shares above zero the fleet's hash holds: each store tells the fleet
	// its share in the background when a rejection takes it (zero at the first, when nothing
	// was counted yet).
	private long shared(RedisCooldownStore store) {
		return this.redis.fixture()
			.template()
			.opsForHash()
			.entries(store.learnedSlots().key(KEY))
			.entrySet()
			.stream()
			.filter((field) -> String.valueOf(field.getKey()).startsWith("r:")
					&& Double.parseDouble(String.valueOf(field.getValue())) > 0)
			.count();
	}

	// A rejection 9 s before {@code at}, ten accepted in between, and one at {@code at} asking
	// for 2 s, as every instance of a fleet hears them: 0.9 x 10 / 9 s, one per second learned,
	// cooling until 2 s after {@code at}.
	private static void learnOnePerSecond(RedisCooldownStore store, long at) {
		learnOnePerSecond(store, at, COOLDOWN);
	}

	private static void learnOnePerSecond(RedisCooldownStore store, long at, Duration cooldown) {
		// Recorded in the instance's own map: through the store, each rejection would also
		// reach the other instance, at a time of its own.
		OriginProtection protection = store.protection();
		long start = at - Duration.ofSeconds(9).toNanos();
		protection.record(KEY, Duration.ofSeconds(1), start);
		for (int i = 1; i <= 10; i++) {
			protection.accepted(KEY, start + i * Duration.ofMillis(800).toNanos());
		}
		protection.record(KEY, cooldown, at);
		assertThat(store.protection().learnedRates().own(KEY)).isEqualTo(1.0, within(1e-9));
	}

	// When the store's next paced slot is, a monotonic reading taken as it is asked for.
	private static long slotAt(RedisCooldownStore store) {
		long asked = System.nanoTime();
		return asked + paced(store).delay().toNanos();
	}

	private static Admission.Wait paced(RedisCooldownStore store) {
		Admission admission = store.admit(request(System.nanoTime()));
		assertThat(admission).isInstanceOf(Admission.Wait.class);
		Admission.Wait wait = (Admission.Wait) admission;
		assertThat(wait.reason()).isEqualTo(HoldReason.PACING);
		return wait;
	}

	private static AdmissionRequest retry(long now) {
		return new AdmissionRequest(KEY, now, Duration.ofSeconds(60), Duration.ofMillis(100), CooldownMode.WAIT, 0.0,
				new SplittableRandom(1), false, false);
	}

	private static AdmissionRequest request(long now) {
		return new AdmissionRequest(KEY, now, Duration.ofSeconds(60), Duration.ofMillis(100), CooldownMode.WAIT, 0.0,
				new SplittableRandom(1), true, false);
	}

}
