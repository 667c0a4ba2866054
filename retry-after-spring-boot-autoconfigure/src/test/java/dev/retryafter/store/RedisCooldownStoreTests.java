package dev.retryafter.store;

import java.time.Clock;
import java.time.Duration;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.Origin;
import dev.retryafter.core.protection.OriginProtection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import static dev.retryafter.store.RedisStoreFixture.remaining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stores ("instances") sharing one real Redis while it works.
 */
class RedisCooldownStoreTests {

	private static final CooldownKey ORIGIN = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	private static final CooldownKey OTHER = CooldownKey.of(Origin.of("https", "api.example.com", -1));

	private static final String PARTITION = "0123456789abcdef0123456789abcdef";

	private static final Duration AWAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final RedisStoreExtension redis = new RedisStoreExtension();

	@Test
	void whenOneInstanceRecordsThenTheOtherLearnsIt() {
		RedisCooldownStore first = this.redis.fixture().store(new OriginProtection(100));
		RedisCooldownStore second = this.redis.fixture().store(new OriginProtection(100));
		awaitConnected(first, second);
		first.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(remaining(second, ORIGIN)).isBetween(Duration.ofSeconds(25),
					Duration.ofSeconds(30)));
		// The key holds Redis's own instant and expires then.
		assertThat(template().getExpire("retry-after:" + ORIGIN)).isBetween(25L, 30L);
		assertThat(remaining(second, OTHER)).isEqualTo(Duration.ZERO);
		assertThat(first.errorCount() + second.errorCount()).isZero();
		assertThat(first.state().connected()).isTrue();
		assertThat(first.state().type()).isEqualTo("redis");
	}

	@Test
	void whenKeyIsWrittenThenItExpiresWhenTheCooldownEnds() {
		RedisCooldownStore first = this.redis.fixture().store(new OriginProtection(100));
		first.record(ORIGIN, Duration.ofMillis(1500), System.nanoTime());
		String key = "retry-after:" + ORIGIN;
		await().atMost(AWAIT).until(() -> template().hasKey(key));
		assertThat(template().getExpire(key)).isBetween(0L, 2L);
		await().atMost(AWAIT).until(() -> !template().hasKey(key));
	}

	@Test
	void whenInstancesRecordDifferentDelaysThenTheLaterWinsEverywhere() {
		// Cooldowns of up to five minutes, so the 90 s below is not cut to the 60 s default.
		RedisCooldownStore first = this.redis.fixture().store(new OriginProtection(100, Duration.ofMinutes(5)));
		RedisCooldownStore second = this.redis.fixture().store(new OriginProtection(100, Duration.ofMinutes(5)));
		awaitConnected(first, second);
		String key = "retry-after:" + ORIGIN;
		first.record(ORIGIN, Duration.ofSeconds(60), System.nanoTime());
		await().atMost(AWAIT).until(() -> template().hasKey(key));
		second.record(ORIGIN, Duration.ofSeconds(10), System.nanoTime());
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(remaining(second, ORIGIN)).isGreaterThan(Duration.ofSeconds(50)));
		assertThat(template().getExpire(key)).isBetween(50L, 60L);
		second.record(ORIGIN, Duration.ofSeconds(90), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> assertThat(template().getExpire(key)).isBetween(80L, 90L));
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(remaining(first, ORIGIN)).isGreaterThan(Duration.ofSeconds(80)));
	}

	@Test
	void whenAnInstanceLearnsALongCooldownThenItIsCappedByItsOwnMaxDuration() {
		RedisCooldownStore lenient = this.redis.fixture().store(new OriginProtection(100, Duration.ofMinutes(10)));
		RedisCooldownStore strict = this.redis.fixture().store(new OriginProtection(100, Duration.ofSeconds(5)));
		awaitConnected(lenient, strict);
		lenient.record(ORIGIN, Duration.ofMinutes(10), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(strict, ORIGIN)).isPositive());
		assertThat(remaining(strict, ORIGIN)).isLessThanOrEqualTo(Duration.ofSeconds(5));
		assertThat(remaining(lenient, ORIGIN)).isGreaterThan(Duration.ofMinutes(9));
	}

	@Test
	void whenWallClocksAreAnHourApartThenA3SecondCooldownLasts3SecondsOnBoth() {
		// Bounds with over 1 s of slack for a busy machine; an hour's skew would be far outside.
		Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofHours(1));
		Clock behind = Clock.offset(Clock.systemUTC(), Duration.ofHours(-1));
		RedisCooldownStore fast = this.redis.fixture().store(new OriginProtection(100), RedisCooldownStore.DEFAULT_KEY_PREFIX,
				ahead);
		RedisCooldownStore slow = this.redis.fixture().store(new OriginProtection(100), RedisCooldownStore.DEFAULT_KEY_PREFIX,
				behind);
		awaitConnected(fast, slow);
		long recordedAt = System.nanoTime();
		fast.record(ORIGIN, Duration.ofSeconds(3), recordedAt);
		slow.record(OTHER, Duration.ofSeconds(3), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(remaining(slow, ORIGIN)).isPositive();
			assertThat(remaining(fast, OTHER)).isPositive();
		});
		for (CooldownStore store : new CooldownStore[] { fast, slow }) {
			assertThat(remaining(store, ORIGIN)).isBetween(Duration.ofMillis(500), Duration.ofSeconds(3));
			assertThat(remaining(store, OTHER)).isBetween(Duration.ofMillis(500), Duration.ofSeconds(3));
		}
		assertThat(template().getExpire("retry-after:" + ORIGIN)).isBetween(0L, 3L);
		// Over for both within the 3 s (plus the time the message took), not an hour later.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> remaining(slow, ORIGIN).isZero() && remaining(fast, OTHER).isZero());
		assertThat(Duration.ofNanos(System.nanoTime() - recordedAt)).isLessThan(Duration.ofMillis(4500));
	}

	@Test
	void whenApplicationsHaveDifferentNamesThenTheyDoNotSeeEachOthersCooldowns() {
		String orders = RedisCooldownStore.defaultKeyPrefix("orders");
		String billing = RedisCooldownStore.defaultKeyPrefix("billing");
		RedisCooldownStore ordersOne = this.redis.fixture().store(new OriginProtection(100), orders, Clock.systemUTC());
		RedisCooldownStore ordersTwo = this.redis.fixture().store(new OriginProtection(100), orders, Clock.systemUTC());
		RedisCooldownStore billingOne = this.redis.fixture().store(new OriginProtection(100), billing, Clock.systemUTC());
		awaitConnected(ordersOne, ordersTwo);
		awaitConnected(billingOne, billingOne);
		ordersOne.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(ordersTwo, ORIGIN)).isPositive());
		assertThat(template().hasKey("retry-after:orders:" + ORIGIN)).isTrue();
		// A late joiner of another application, and one with no name, read nothing of it: only
		// the marker under their own prefix, which shows that they have read.
		CooldownKey marker = CooldownKey.of(Origin.of("http", "marker", -1));
		template().opsForValue().set(billing + marker, "1", Duration.ofSeconds(60));
		template().opsForValue().set(RedisCooldownStore.DEFAULT_KEY_PREFIX + marker, "1", Duration.ofSeconds(60));
		RedisCooldownStore billingTwo = this.redis.fixture().store(new OriginProtection(100), billing, Clock.systemUTC());
		RedisCooldownStore unnamed = this.redis.fixture().store(new OriginProtection(100));
		await().atMost(AWAIT)
			.until(() -> !remaining(billingTwo, marker).isZero() && !remaining(unnamed, marker).isZero());
		assertThat(remaining(billingOne, ORIGIN)).isEqualTo(Duration.ZERO);
		assertThat(remaining(billingTwo, ORIGIN)).isEqualTo(Duration.ZERO);
		assertThat(remaining(unnamed, ORIGIN)).isEqualTo(Duration.ZERO);
	}

	@Test
	void whenStartingThenExistingKeysAreReadWithTheirTimeLeftAndForeignOnesIgnored() {
		StringRedisTemplate template = template();
		for (int i = 0; i < 5; i++) {
			template.opsForValue().set("retry-after:http://host" + i + ":80", "1", Duration.ofSeconds(60));
		}
		template.opsForValue().set("retry-after:not-an-origin", "1", Duration.ofSeconds(60));
		template.opsForValue().set("retry-after:http://no-expiry:80", "1");
		template.opsForValue().set("retry-after:shop:http://other-app:80", "1", Duration.ofSeconds(60));
		template.opsForValue().set("other:http://elsewhere:80", "1", Duration.ofSeconds(60));
		OriginProtection all = new OriginProtection(100);
		this.redis.fixture().store(all);
		await().atMost(AWAIT).until(() -> all.activeCount(System.nanoTime()) == 5);
		assertThat(all.snapshot(System.nanoTime()).keySet()).extracting((key) -> key.origin().host())
			.containsExactly("host0", "host1", "host2", "host3", "host4");
		assertThat(all.snapshot(System.nanoTime()).values())
			.allSatisfy((left) -> assertThat(left).isBetween(Duration.ofSeconds(50), Duration.ofSeconds(60)));
	}

	@Test
	void whenStartingThenAtMostMaxHostsKeysAreRead() {
		StringRedisTemplate template = template();
		for (int i = 0; i < 50; i++) {
			template.opsForValue().set("retry-after:http://host" + i + ":80", "1", Duration.ofSeconds(60));
		}
		OriginProtection bounded = new OriginProtection(3);
		RedisCooldownStore store = this.redis.fixture().store(bounded);
		await().atMost(AWAIT).until(() -> bounded.activeCount(System.nanoTime()) == 3);
		assertThat(bounded.size()).isEqualTo(3);
		assertThat(store.errorCount()).isZero();
	}

	@Test
	void whenOneInstanceEndsAnOriginThenItsKeysAreDeletedAndEveryInstanceDropsIt() {
		RedisCooldownStore first = this.redis.fixture().store(new OriginProtection(100));
		RedisCooldownStore second = this.redis.fixture().store(new OriginProtection(100));
		awaitConnected(first, second);
		CooldownKey partition = new CooldownKey(ORIGIN.origin(), PARTITION);
		first.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());
		first.record(partition, Duration.ofSeconds(30), System.nanoTime());
		second.record(OTHER, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(remaining(second, ORIGIN)).isPositive();
			assertThat(remaining(second, partition)).isPositive();
			assertThat(remaining(first, OTHER)).isPositive();
		});

		assertThat(second.end(ORIGIN.origin())).containsExactlyInAnyOrder(ORIGIN, partition);
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(remaining(first, ORIGIN)).isZero();
			assertThat(remaining(first, partition)).isZero();
			assertThat(template().hasKey("retry-after:" + ORIGIN)).isFalse();
			assertThat(template().hasKey("retry-after:" + partition)).isFalse();
		});
		assertThat(remaining(first, OTHER)).isPositive();
		assertThat(template().hasKey("retry-after:" + OTHER)).isTrue();
		// A restarted instance does not learn the ended cooldowns back from Redis.
		OriginProtection late = new OriginProtection(100);
		RedisCooldownStore third = this.redis.fixture().store(late);
		awaitConnected(third, first);
		assertThat(late.snapshot(System.nanoTime()).keySet()).contains(OTHER).doesNotContain(ORIGIN, partition);
	}

	@Test
	void whenOneInstanceRecordsARouteCooldownThenTheFleetHoldsThatRouteOnlyAndEndingTheOriginDeletesIt() {
		RedisCooldownStore first = this.redis.fixture().store(new OriginProtection(100));
		RedisCooldownStore second = this.redis.fixture().store(new OriginProtection(100));
		awaitConnected(first, second);
		CooldownKey search = ORIGIN.withScope(CooldownScope.route("/search"));
		CooldownKey tenantsCore = new CooldownKey(ORIGIN.origin(), PARTITION, CooldownScope.bucket("core"));
		first.record(search, Duration.ofSeconds(30), System.nanoTime());
		first.record(tenantsCore, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(remaining(second, search)).isPositive();
			assertThat(remaining(second, tenantsCore)).isPositive();
		});
		// Scoped in Redis too: never the whole origin's key, on any instance.
		assertThat(template().hasKey("retry-after:" + ORIGIN + "@route:/search")).isTrue();
		assertThat(template().hasKey("retry-after:" + ORIGIN)).isFalse();
		assertThat(second.protection().snapshot(System.nanoTime()).keySet()).contains(search, tenantsCore)
			.doesNotContain(ORIGIN, tenantsCore.unscoped());
		OriginProtection late = new OriginProtection(100);
		RedisCooldownStore third = this.redis.fixture().store(late);
		awaitConnected(third, first);
		assertThat(late.snapshot(System.nanoTime()).keySet()).contains(search, tenantsCore).doesNotContain(ORIGIN);

		assertThat(second.end(ORIGIN.origin())).containsExactlyInAnyOrder(search, tenantsCore);
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(remaining(first, search)).isZero();
			assertThat(remaining(first, tenantsCore)).isZero();
			assertThat(template().hasKey("retry-after:" + search)).isFalse();
			assertThat(template().hasKey("retry-after:" + tenantsCore)).isFalse();
		});
	}

	@Test
	void whenOneInstanceEndsEveryCooldownThenOnlyItsApplicationsKeysGo() {
		RedisCooldownStore first = this.redis.fixture().store(new OriginProtection(100));
		RedisCooldownStore second = this.redis.fixture().store(new OriginProtection(100));
		awaitConnected(first, second);
		template().opsForValue().set("retry-after:shop:" + ORIGIN, "1", Duration.ofSeconds(60));
		first.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());
		first.record(OTHER, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(remaining(second, ORIGIN)).isPositive();
			assertThat(remaining(second, OTHER)).isPositive();
		});

		second.end(null);
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(first.protection().snapshot(System.nanoTime()).keySet()).doesNotContain(ORIGIN, OTHER);
			assertThat(template().hasKey("retry-after:" + ORIGIN)).isFalse();
			assertThat(template().hasKey("retry-after:" + OTHER)).isFalse();
		});
		assertThat(template().hasKey("retry-after:shop:" + ORIGIN)).isTrue();
		assertThat(first.errorCount() + second.errorCount()).isZero();
	}

	// Each store records a cooldown and the other learns it: both are then connected, and
	// heard their own heartbeat.
	private static void awaitConnected(RedisCooldownStore first, RedisCooldownStore second) {
		CooldownKey fromFirst = CooldownKey.of(Origin.of("http", "from-first", -1));
		CooldownKey fromSecond = CooldownKey.of(Origin.of("http", "from-second", -1));
		await().atMost(AWAIT).until(() -> first.state().connected() && second.state().connected());
		first.record(fromFirst, Duration.ofSeconds(30), System.nanoTime());
		second.record(fromSecond, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(remaining(second, fromFirst)).isPositive();
			assertThat(remaining(first, fromSecond)).isPositive();
		});
	}

	private StringRedisTemplate template() {
		return this.redis.fixture().template();
	}

}
