package dev.retryafter.store;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import static dev.retryafter.store.RedisStoreFixture.remaining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Keys under the store's prefix that no store wrote (keys are not signed): one without an
 * expiry, one far beyond {@code max-duration}, one of another type. None is learned as it
 * is, and each heals within {@code max-duration} of the next cooldown recorded for it.
 */
class RedisCooldownStorePlantedKeyTests {

	private static final CooldownKey ORIGIN = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	private static final String KEY = RedisCooldownStore.DEFAULT_KEY_PREFIX + ORIGIN;

	// Far beyond any cooldown: the year 5138, in epoch milliseconds.
	private static final String FAR_FUTURE = "99999999999999";

	private static final Duration MAX_DURATION = Duration.ofSeconds(3);

	private static final Duration AWAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final RedisStoreExtension redis = new RedisStoreExtension();

	@Test
	void whenAKeyWithoutExpiryHoldsAFarFutureInstantThenARetryAfterOfOneSecondIsSharedAsOneSecond() {
		RedisCooldownStore first = store();
		RedisCooldownStore second = store();
		awaitConnected(first, second);
		// Planted once both have caught up, so the cooldown script is the one to meet it.
		template().opsForValue().set(KEY, FAR_FUTURE);

		first.record(ORIGIN, Duration.ofSeconds(1), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(second, ORIGIN)).isPositive());
		assertThat(remaining(second, ORIGIN)).isLessThanOrEqualTo(Duration.ofSeconds(1));
		assertThat(remaining(first, ORIGIN)).isLessThanOrEqualTo(Duration.ofSeconds(1));
		// Repaired: the key now holds the genuine instant and expires with it.
		assertThat(pttl()).isBetween(1L, 1000L);
		assertThat(Long.parseLong(template().opsForValue().get(KEY))).isLessThan(Long.parseLong(FAR_FUTURE));
		await().atMost(AWAIT).until(() -> !template().hasKey(KEY));
		assertThat(first.errorCount() + second.errorCount()).isZero();
	}

	@Test
	void whenAnInstanceCatchesUpThenAKeyWithoutExpiryIsNotLearnedButDeleted() {
		template().opsForValue().set(KEY, FAR_FUTURE);
		CooldownKey genuine = CooldownKey.of(Origin.of("http", "genuine", -1));
		String genuineKey = RedisCooldownStore.DEFAULT_KEY_PREFIX + genuine;
		template().opsForValue().set(genuineKey, FAR_FUTURE, Duration.ofSeconds(2));
		RedisCooldownStore store = store();
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(store, genuine)).isPositive());
		await().atMost(AWAIT).until(() -> !template().hasKey(KEY));
		assertThat(remaining(store, ORIGIN)).isZero();
		assertThat(remaining(store, genuine)).isLessThanOrEqualTo(Duration.ofSeconds(2));
		assertThat(store.errorCount()).isZero();
	}

	@Test
	void whenAKeyExpiresFarBeyondMaxDurationThenItIsCutToMaxDurationAndHeals() {
		template().opsForValue().set(KEY, FAR_FUTURE, Duration.ofDays(365));
		RedisCooldownStore first = store();
		awaitConnected(first, store());

		first.record(ORIGIN, Duration.ofSeconds(1), System.nanoTime());
		// The key is trusted up to max-duration from now, no further, and expires then.
		await().atMost(AWAIT).until(() -> pttl() <= MAX_DURATION.toMillis());
		assertThat(pttl()).isPositive();
		assertThat(Long.parseLong(template().opsForValue().get(KEY))).isLessThan(Long.parseLong(FAR_FUTURE));
		assertThat(remaining(first, ORIGIN)).isLessThanOrEqualTo(MAX_DURATION);
		await().atMost(AWAIT).until(() -> !template().hasKey(KEY));
		// Healed: the next Retry-After of one second is one second for the fleet.
		first.record(ORIGIN, Duration.ofSeconds(1), System.nanoTime());
		await().atMost(AWAIT).until(() -> template().hasKey(KEY));
		assertThat(pttl()).isBetween(1L, 1000L);
	}

	@Test
	void whenTheKeyIsOfAnotherTypeThenTheCooldownReplacesItWithoutAnOutage() {
		template().opsForHash().putAll(KEY, Map.of("until", FAR_FUTURE));
		RedisCooldownStore first = store();
		RedisCooldownStore second = store();
		awaitConnected(first, second);

		first.record(ORIGIN, Duration.ofSeconds(2), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(second, ORIGIN)).isPositive());
		assertThat(remaining(second, ORIGIN)).isLessThanOrEqualTo(Duration.ofSeconds(2));
		assertThat(template().type(KEY).code()).isEqualTo("string");
		assertThat(pttl()).isBetween(1L, 2000L);
		assertThat(first.errorCount() + second.errorCount()).isZero();
		assertThat(first.state().connected()).isTrue();
	}

	private RedisCooldownStore store() {
		return this.redis.fixture().store(new OriginProtection(100, MAX_DURATION));
	}

	private long pttl() {
		Long left = template().getExpire(KEY, TimeUnit.MILLISECONDS);
		return (left != null) ? left : -2;
	}

	// Each store records a cooldown and the other learns it: both are then connected.
	private static void awaitConnected(RedisCooldownStore first, RedisCooldownStore second) {
		CooldownKey fromFirst = CooldownKey.of(Origin.of("http", "from-first", -1));
		CooldownKey fromSecond = CooldownKey.of(Origin.of("http", "from-second", -1));
		await().atMost(AWAIT).until(() -> first.state().connected() && second.state().connected());
		first.record(fromFirst, Duration.ofSeconds(3), System.nanoTime());
		second.record(fromSecond, Duration.ofSeconds(3), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(remaining(second, fromFirst)).isPositive();
			assertThat(remaining(first, fromSecond)).isPositive();
		});
	}

	private StringRedisTemplate template() {
		return this.redis.fixture().template();
	}

}
