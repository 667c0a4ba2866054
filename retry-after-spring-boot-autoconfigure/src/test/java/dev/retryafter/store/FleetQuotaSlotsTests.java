package dev.retryafter.store;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.core.header.RateLimitFields;
import dev.retryafter.core.header.RateLimitReading;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.core.protection.OriginProtection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Quota slots shared by a fleet: stores ("instances") on one real Redis that take their paced
 * slots from one schedule, never ask Redis for a request that is not paced, and take a local
 * share when Redis hangs or is gone.
 */
class FleetQuotaSlotsTests {

	static final CooldownKey KEY = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	// Ten left for 10 s: one request a second, for the whole fleet.
	static final Duration INTERVAL = Duration.ofSeconds(1);

	private static final Duration AWAIT = Duration.ofSeconds(30);

	// A sanity bound for a busy machine: the bound itself is FleetQuotaSlots.ROUND_TRIP_BOUND.
	private static final Duration CALLER_BOUND = Duration.ofSeconds(1);

	// Slots an interval apart, measured on this JVM's clock after two round trips.
	private static final Duration SPACING_SLACK = Duration.ofMillis(100);

	private static final String QUOTA_THREAD = "retry-after-redis-quota";

	@RegisterExtension
	final RedisStoreExtension redis = new RedisStoreExtension();

	@Test
	void whenTwoInstancesShareAQuotaNearlySpentThenTheirSlotsInterleaveAnIntervalApart() {
		RedisCooldownStore first = this.redis.fixture().store(new OriginProtection(100));
		RedisCooldownStore second = this.redis.fixture().store(new OriginProtection(100));
		awaitConnected(first, second);
		assertSlotsInterleave(first, second);
	}

	@Test
	void whenALocalSlotIsNowThenTheRequestStillTakesTheFleetsSlot() {
		Fleet fleet = firstSlotTaken();
		RedisCooldownStore first = fleet.first();
		RedisCooldownStore second = fleet.second();

		// Its own slot is now too, but the fleet's next is an interval after the first's.
		long now = System.nanoTime();
		Admission.Wait held = slot(second);
		assertThat(Duration.ofNanos(now + held.delay().toNanos() - fleet.readAt()))
			.isGreaterThanOrEqualTo(Duration.ofSeconds(5).plus(INTERVAL).minus(SPACING_SLACK));
		assertThat(first.quotaSlots().takenCount()).isEqualTo(1);
		assertThat(second.quotaSlots().takenCount()).isEqualTo(1);
	}

	@Test
	void whenRetriesWentOutsideTheSlotsThenTheNextSlotTheInstanceTakesCountsThemForTheFleet() {
		Fleet fleet = firstSlotTaken();
		RedisCooldownStore first = fleet.first();
		RedisCooldownStore second = fleet.second();
		long readAt = fleet.readAt();

		// Two retries go at once, outside the slots: the origin counts them all the same.
		assertThat(second.admit(retry(KEY))).isEqualTo(Admission.PROCEED);
		assertThat(second.admit(retry(KEY))).isEqualTo(Admission.PROCEED);
		assertThat(second.quotaSlots().takenCount()).isZero();
		long now = System.nanoTime();
		Admission.Wait held = slot(second);

		// The fleet's next slot was an interval after the first's; the retries took two more.
		assertThat(Duration.ofNanos(now + held.delay().toNanos() - readAt))
			.isGreaterThanOrEqualTo(Duration.ofSeconds(5).plus(INTERVAL.multipliedBy(3)).minus(SPACING_SLACK));
		// Told once: the slot after it is one interval on.
		long then = System.nanoTime();
		Admission.Wait next = slot(first);
		assertThat(Duration.ofNanos(then + next.delay().toNanos() - (now + held.delay().toNanos())))
			.isGreaterThanOrEqualTo(INTERVAL.minus(SPACING_SLACK))
			.isLessThan(INTERVAL.multipliedBy(2));
	}

	@Test
	void whenTheOriginSavedSomeThenTheRequestLetGoOutsideTheSlotsTakesNoFleetSlot() {
		RedisCooldownStore store = this.redis.fixture().store(new OriginProtection(100));
		await().atMost(AWAIT).until(() -> store.state().connected());
		long now = System.nanoTime();
		store.recordQuota(KEY, new RateLimitReading("p", 0, Duration.ZERO, 50, Duration.ofSeconds(1),
				RateLimitFields.IETF), true, now - Duration.ofSeconds(2).toNanos());
		// After the reset, a window old: three saved, so one goes at once outside the slots.
		store.recordQuota(KEY, new RateLimitReading("p", 3, Duration.ZERO, 50, Duration.ofSeconds(1),
				RateLimitFields.IETF), true, now);

		assertThat(store.admit(request(KEY))).isEqualTo(Admission.PROCEED);
		assertThat(store.quotaSlots().takenCount()).isZero();
		// The next takes its slot, the fleet's too.
		store.admit(request(KEY));
		assertThat(store.quotaSlots().takenCount()).isEqualTo(1);
	}

	@Test
	void whenTheFleetsSlotsRunPastTheResetThenTheNextWaitsForItNotForTheSpreadBeforeIt() {
		// Two left for 4 s (one every 2 s), then 10 a second.
		List<Long> instants = alternatingSlots(
				new RateLimitReading("p", 2, Duration.ofSeconds(4), 10, Duration.ofSeconds(1), RateLimitFields.IETF), 2);

		// The first two t / r apart; the second is at the reset, so the next come within the
		// policy's allowance after it (the log), however the instance that took it counts it.
		assertThat(Duration.ofNanos(instants.get(1) - instants.get(0)))
			.isGreaterThanOrEqualTo(Duration.ofSeconds(2).minus(SPACING_SLACK));
		assertThat(Duration.ofNanos(instants.get(1))).isGreaterThanOrEqualTo(Duration.ofSeconds(4).minus(SPACING_SLACK));
		for (int i = 2; i < instants.size(); i++) {
			assertThat(Duration.ofNanos(instants.get(i) - instants.get(i - 1)))
				.isGreaterThanOrEqualTo(SPACING_SLACK.negated())
				.isLessThan(Duration.ofSeconds(1));
		}
	}

	@Test
	void whenAFixedWindowResetsThenTheFleetSendsItsAllowanceTogetherAndNoMoreThanItsQuotaPerSpan() {
		// Four per 2 s, nothing left until the reset 2 s away.
		List<Long> instants = alternatingSlots(
				new RateLimitReading("p", 0, Duration.ofSeconds(2), 4, Duration.ofSeconds(2), RateLimitFields.IETF), 4);

		// The window's four together after the reset (spread, they would take 1.5 s), and each
		// of the next four a window after one of them: the fleet's, not each instance's four.
		// At the reset (to the microsecond the script counts in, measured from before the
		// request's own reading of the clock).
		assertThat(Duration.ofNanos(instants.get(0))).isGreaterThanOrEqualTo(Duration.ofSeconds(2).minus(SPACING_SLACK));
		assertThat(Duration.ofNanos(instants.get(3) - instants.get(0))).isLessThan(Duration.ofSeconds(1));
		for (int i = 4; i < instants.size(); i++) {
			assertThat(Duration.ofNanos(instants.get(i) - instants.get(i - 4)))
				.isGreaterThanOrEqualTo(Duration.ofSeconds(2).minus(SPACING_SLACK));
		}
	}

	@Test
	void whenARequestIsNotPacedThenItSendsNothingToRedis() {
		List<String> callers = new CopyOnWriteArrayList<>();
		RedisConnectionFactory real = this.redis.fixture().connectionFactory();
		RedisConnectionFactory counting = (RedisConnectionFactory) Proxy.newProxyInstance(
				RedisConnectionFactory.class.getClassLoader(), new Class<?>[] { RedisConnectionFactory.class },
				(self, method, args) -> {
					callers.add(Thread.currentThread().getName());
					try {
						return method.invoke(real, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
		RedisCooldownStore store = this.redis.fixture()
			.unstarted(counting, new OriginProtection(100), RedisCooldownStore.DEFAULT_KEY_PREFIX, Clock.systemUTC(),
					RedisStoreFixture.FIRST_RETRY_DELAY, RedisStoreFixture.MAX_RETRY_DELAY);
		store.start();
		await().atMost(AWAIT).until(() -> store.state().connected());
		// The script is loaded once at the start, before any request needs it.
		await().atMost(AWAIT).until(() -> callers.contains(QUOTA_THREAD));
		callers.clear();
		CooldownKey unknown = CooldownKey.of(Origin.of("https", "api.example.com", -1));
		// Far from spent: each request goes at once, and only counts against what is left.
		store.recordQuota(KEY, new RateLimitReading("p", 1000, Duration.ofSeconds(30), 1000, Duration.ofSeconds(30),
				RateLimitFields.IETF), true, System.nanoTime());
		for (int i = 0; i < 200; i++) {
			assertThat(store.admit(request(KEY))).isEqualTo(Admission.PROCEED);
			assertThat(store.admit(request(unknown))).isEqualTo(Admission.PROCEED);
		}
		assertThat(callers).doesNotContain(QUOTA_THREAD).allSatisfy((name) -> assertThat(name).isNotEqualTo("main"));
		assertThat(store.quotaSlots().takenCount() + store.quotaSlots().fallbackCount()).isZero();

		// The same wrapper sees a paced request's round trip (a new window: its first slot is
		// an interval away).
		store.recordQuota(KEY, nearlySpent(), true, System.nanoTime());
		assertThat(store.admit(request(KEY))).isInstanceOf(Admission.Wait.class);
		assertThat(callers).contains(QUOTA_THREAD);
		assertThat(store.quotaSlots().takenCount()).isEqualTo(1);
		assertThat(store.quotaSlots().fallbackCount()).isZero();
	}

	@Test
	void whenRedisHangsThenAPacedRequestTakesALocalShareWithinTheBoundAndTheFallbackIsCounted() {
		RedisCooldownStore first = this.redis.fixture().store(new OriginProtection(100));
		RedisCooldownStore second = this.redis.fixture().store(new OriginProtection(100));
		awaitConnected(first, second);
		first.recordQuota(KEY, nearlySpent(), true, System.nanoTime());
		second.recordQuota(KEY, nearlySpent(), true, System.nanoTime());
		// Both take a fleet slot: the first learns that two instances share the quota.
		slot(first);
		slot(second);
		slot(first);
		assertThat(first.quotaSlots().takenCount()).isEqualTo(2);

		this.redis.server().pause();
		try {
			long before = System.nanoTime();
			long[] at = new long[2];
			for (int i = 0; i < at.length; i++) {
				long started = System.nanoTime();
				Admission.Wait wait = slot(first);
				assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(CALLER_BOUND);
				at[i] = started + wait.delay().toNanos();
			}
			assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(CALLER_BOUND.multipliedBy(2));
			assertThat(first.quotaSlots().fallbackCount()).isEqualTo(2);
			assertThat(first.quotaFallbackCount()).isEqualTo(2);
			// The local share: one slot every interval for each of the two instances.
			assertThat(Duration.ofNanos(at[1] - at[0])).isGreaterThanOrEqualTo(INTERVAL.multipliedBy(2).minus(SPACING_SLACK));
		}
		finally {
			this.redis.server().resume();
		}
	}

	@Test
	void whenRedisRunsTheScriptAfterItsCallerGaveUpThenNoSlotIsTaken() {
		RedisCooldownStore store = this.redis.fixture().store(new OriginProtection(100));
		await().atMost(AWAIT).until(() -> store.state().connected());
		store.recordQuota(KEY, nearlySpent(), true, System.nanoTime());
		slot(store);
		String key = store.quotaSlots().key(KEY);
		StringRedisTemplate template = this.redis.fixture().template();
		Object tat = template.opsForHash().get(key, "tat");
		Object seen = seen(template, key);
		assertThat(tat).isNotNull();

		this.redis.server().pause();
		try {
			slot(store);
			assertThat(store.quotaFallbackCount()).isEqualTo(1);
			// Well past the request's bound and the slack for the clocks' estimate.
			Thread.sleep(600);
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			this.redis.server().resume();
		}
		// The script still runs once Redis carries on, and notes the instance, but moves no TAT.
		await().atMost(AWAIT).until(() -> !seen.equals(seen(template, key)));
		assertThat(template.opsForHash().get(key, "tat")).isEqualTo(tat);

		// The request went on a local share, which the origin counts: the instance's next slot
		// tells the fleet, and the TAT moves an interval for it as well as for the slot.
		long before = Long.parseLong(tat.toString());
		slot(store);
		long after = Long.parseLong(template.opsForHash().get(key, "tat").toString());
		assertThat(Duration.ofNanos((after - before) * 1000)).isGreaterThanOrEqualTo(INTERVAL.multipliedBy(2).minus(SPACING_SLACK));
	}

	@Test
	void whenRedisIsGoneThenAPacedRequestIsHeldLocallyNeverRefusedAndTheFallbackIsCounted() {
		RedisCooldownStore store = this.redis.fixture().store(new OriginProtection(100));
		await().atMost(AWAIT).until(() -> store.state().connected());
		this.redis.server().kill();
		await().atMost(AWAIT).until(() -> !store.state().connected());
		store.recordQuota(KEY, nearlySpent(), true, System.nanoTime());
		long started = System.nanoTime();
		Admission admission = store.admit(request(KEY));
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(CALLER_BOUND);
		assertThat(admission).isInstanceOfSatisfying(Admission.Wait.class,
				(wait) -> assertThat(wait.reason()).isEqualTo(HoldReason.QUOTA));
		assertThat(store.quotaFallbackCount()).isEqualTo(1);
		assertThat(store.quotaSlots().takenCount()).isZero();
	}

	/**
	 * Four slots each, taken in turn: the fleet's schedule puts them an interval apart, each
	 * instance's own would put both instances' on the same instants.
	 */
	static void assertSlotsInterleave(RedisCooldownStore first, RedisCooldownStore second) {
		first.recordQuota(KEY, nearlySpent(), true, System.nanoTime());
		second.recordQuota(KEY, nearlySpent(), true, System.nanoTime());
		List<Long> instants = new ArrayList<>();
		List<RedisCooldownStore> owners = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			for (RedisCooldownStore store : List.of(first, second)) {
				long now = System.nanoTime();
				instants.add(now + slot(store).delay().toNanos());
				owners.add(store);
			}
		}
		for (int i = 1; i < instants.size(); i++) {
			assertThat(Duration.ofNanos(instants.get(i) - instants.get(i - 1)))
				.isGreaterThanOrEqualTo(INTERVAL.minus(SPACING_SLACK));
			assertThat(owners.get(i)).isNotSameAs(owners.get(i - 1));
		}
		assertThat(first.quotaSlots().takenCount()).isEqualTo(4);
		assertThat(second.quotaSlots().takenCount()).isEqualTo(4);
		assertThat(first.quotaFallbackCount() + second.quotaFallbackCount()).isZero();
	}

	// When the one instance that took slots last did, by Redis's clock.
	private static Object seen(StringRedisTemplate template, String key) {
		return template.opsForHash()
			.entries(key)
			.entrySet()
			.stream()
			.filter((entry) -> !entry.getKey().equals("tat"))
			.map(java.util.Map.Entry::getValue)
			.findFirst()
			.orElse("none");
	}

	// Two instances that read one nearly spent quota 5 s ago (each one's first slot, an
	// interval after the answer, has passed), the first of which took the fleet's next slot.
	private Fleet firstSlotTaken() {
		RedisCooldownStore first = this.redis.fixture().store(new OriginProtection(100));
		RedisCooldownStore second = this.redis.fixture().store(new OriginProtection(100));
		awaitConnected(first, second);
		long readAt = System.nanoTime() - Duration.ofSeconds(5).toNanos();
		first.recordQuota(KEY, nearlySpent(), true, readAt);
		second.recordQuota(KEY, nearlySpent(), true, readAt);
		assertThat(first.admit(request(KEY))).isEqualTo(Admission.PROCEED);
		return new Fleet(first, second, readAt);
	}

	private record Fleet(RedisCooldownStore first, RedisCooldownStore second, long readAt) {
	}

	static RateLimitReading nearlySpent() {
		return new RateLimitReading("p", 10, Duration.ofSeconds(10), 100, Duration.ofSeconds(10),
				RateLimitFields.IETF);
	}

	static Admission.Wait slot(RedisCooldownStore store) {
		Admission admission = store.admit(request(KEY));
		assertThat(admission).isInstanceOf(Admission.Wait.class);
		Admission.Wait wait = (Admission.Wait) admission;
		assertThat(wait.reason()).isEqualTo(HoldReason.QUOTA);
		return wait;
	}

	// Two instances read the same answer, then each takes a slot in turn, rounds times: when
	// each slot is, from the answer.
	private List<Long> alternatingSlots(RateLimitReading reading, int rounds) {
		RedisCooldownStore first = this.redis.fixture().store(new OriginProtection(100));
		RedisCooldownStore second = this.redis.fixture().store(new OriginProtection(100));
		awaitConnected(first, second);
		long readAt = System.nanoTime();
		first.recordQuota(KEY, reading, true, readAt);
		second.recordQuota(KEY, reading, true, readAt);
		List<Long> instants = new ArrayList<>();
		for (int i = 0; i < rounds; i++) {
			for (RedisCooldownStore store : List.of(first, second)) {
				long now = System.nanoTime();
				instants.add(now + slot(store).delay().toNanos() - readAt);
			}
		}
		return instants;
	}

	static AdmissionRequest request(CooldownKey key) {
		return new AdmissionRequest(key, System.nanoTime(), Duration.ofSeconds(60), Duration.ofMillis(100),
				CooldownMode.WAIT, 0.0, new SplittableRandom(1), true, true);
	}

	private static AdmissionRequest retry(CooldownKey key) {
		return new AdmissionRequest(key, System.nanoTime(), Duration.ofSeconds(60), Duration.ofMillis(100),
				CooldownMode.WAIT, 0.0, new SplittableRandom(1), false, true);
	}

	private static void awaitConnected(RedisCooldownStore first, RedisCooldownStore second) {
		await().atMost(AWAIT).until(() -> first.state().connected() && second.state().connected());
	}

}
