package dev.retryafter.store;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static dev.retryafter.store.RedisStoreFixture.remaining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stores on one real Redis with a partition secret: they accept each other's signed
 * messages, and drop what anyone else publishes on their channel.
 */
class RedisCooldownStoreSigningTests {

	private static final PartitionSecret SECRET = PartitionSecret.of("c2VjcmV0LXNoYXJlZC1ieS10aGUtZmxlZXQ=");

	private static final CooldownKey TENANT = new CooldownKey(Origin.of("https", "api.example.com", 443),
			"0123456789abcdef0123456789abcdef");

	private static final Duration AWAIT = Duration.ofSeconds(20);

	private static final String CHANNEL = RedisCooldownStore.DEFAULT_KEY_PREFIX + "cooldowns";

	@RegisterExtension
	final RedisStoreExtension redis = new RedisStoreExtension();

	private final List<RedisCooldownStore> stores = new ArrayList<>();

	@AfterEach
	void closeStores() {
		for (RedisCooldownStore store : this.stores) {
			store.close();
		}
	}

	@Test
	void whenInstancesShareTheSecretThenTheyShareCooldownsAndStayConnected() {
		RedisCooldownStore first = store(SECRET);
		RedisCooldownStore second = store(PartitionSecret.of("c2VjcmV0LXNoYXJlZC1ieS10aGUtZmxlZXQ="));
		// Connected means each heard its own signed heartbeat.
		await().atMost(AWAIT).until(() -> first.state().connected() && second.state().connected());
		first.record(TENANT, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(second, TENANT)).isPositive());
		assertThat(first.rejectedMessages() + second.rejectedMessages()).isZero();
		assertThat(first.errorCount() + second.errorCount()).isZero();
	}

	@Test
	void whenAnUnsignedOrForeignMessageIsPublishedThenItIsDroppedAndCounted() {
		RedisCooldownStore store = store(SECRET);
		await().atMost(AWAIT).until(() -> store.state().connected());
		StringRedisTemplate redis = this.redis.fixture().template();
		String forged = CooldownMessage.cooldown(30000, "intruder", TENANT).encode();
		redis.convertAndSend(CHANNEL, forged);
		redis.convertAndSend(CHANNEL, forged + " sig:" + SECRET.sign(forged.replace("30000", "3000")));
		redis.convertAndSend(CHANNEL,
				CooldownMessage.end("intruder", null).encode(signer(PartitionSecret.random(), redis)));
		await().atMost(AWAIT).until(() -> store.rejectedMessages() == 3);
		// The same message, signed with the secret, is accepted: the signature alone decided.
		redis.convertAndSend(CHANNEL, CooldownMessage.cooldown(30000, "peer", TENANT)
			.encode(signer(SECRET, redis)));
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(store, TENANT)).isPositive());
		assertThat(store.rejectedMessages()).isEqualTo(3);
		assertThat(store.state().connected()).isTrue();
		assertThat(store.errorCount()).isZero();
	}

	@Test
	void whenInstancesHoldDifferentSecretsThenTheyDoNotLearnFromEachOther() {
		RedisCooldownStore first = store(SECRET);
		RedisCooldownStore other = store(PartitionSecret.random());
		await().atMost(AWAIT).until(() -> first.state().connected() && other.state().connected());
		other.record(TENANT, Duration.ofSeconds(30), System.nanoTime());
		// Each also drops the other's heartbeats: wait until the cooldown itself was dropped.
		long before = first.rejectedMessages();
		await().atMost(AWAIT).until(() -> first.rejectedMessages() > before);
		assertThat(remaining(first, TENANT)).isZero();
		assertThat(first.state().connected()).isTrue();
	}

	// Signs as a store would, stamped with Redis's time now.
	private static MessageSignature signer(PartitionSecret secret, StringRedisTemplate redis) {
		return new MessageSignature(secret,
				() -> redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time()));
	}

	private RedisCooldownStore store(@Nullable PartitionSecret secret) {
		RedisCooldownStore store = new RedisCooldownStore(this.redis.fixture().connectionFactory(), new OriginProtection(100),
				RedisCooldownStore.DEFAULT_KEY_PREFIX, MonotonicClock.SYSTEM, Clock.systemUTC(),
				RedisStoreFixture.HEARTBEAT_INTERVAL, RedisStoreFixture.HEARTBEAT_TIMEOUT, secret);
		this.stores.add(store);
		store.start();
		return store;
	}

}
