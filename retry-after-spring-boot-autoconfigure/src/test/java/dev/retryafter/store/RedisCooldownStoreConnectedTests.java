package dev.retryafter.store;

import java.time.Duration;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.testsupport.LoopbackTcpProxy;
import dev.retryafter.testsupport.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.core.StringRedisTemplate;

import static dev.retryafter.store.RedisStoreFixture.remaining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What {@code connected} means, on real servers: this store's write was published through
 * Redis and heard back on its own current subscription, and what it may have missed while
 * that subscription was being made was read since; and what it wrote is written again when
 * Redis may have lost it.
 */
class RedisCooldownStoreConnectedTests {

	private static final CooldownKey ORIGIN = CooldownKey.of(Origin.of("https", "api.example.com", -1));

	private static final CooldownKey ENDED = CooldownKey.of(Origin.of("https", "ended.example.com", -1));

	private static final Duration AWAIT = Duration.ofSeconds(30);

	@RegisterExtension
	final RedisStoreExtension redis = new RedisStoreExtension();

	@Test
	void whenTheSubscriptionCannotHearTheStoresWritesThenItIsNeverConnected() throws Exception {
		// Commands reach one server, the subscription another: as a subscription left on a
		// server that is no longer the master would.
		try (RedisServer elsewhere = RedisServer.onFreePort()) {
			elsewhere.start();
			RedisCooldownStore deaf = this.redis.fixture()
				.storeSubscribingTo(new RedisStandaloneConfiguration("127.0.0.1", elsewhere.port()),
						new OriginProtection(100));
			RedisCooldownStore other = this.redis.fixture().store(new OriginProtection(100));
			StringRedisTemplate redis = this.redis.fixture().template();
			await().atMost(AWAIT).until(() -> other.state().connected());
			// Its heartbeat's write went through, and yet it is not connected: three heartbeat
			// timeouts long, as many reconnection attempts.
			await().atMost(AWAIT).until(() -> deaf.errorCount() == 1);
			assertThat(redis.hasKey(RedisCooldownStore.DEFAULT_KEY_PREFIX + "heartbeat")).isTrue();
			await().during(RedisStoreFixture.HEARTBEAT_TIMEOUT.multipliedBy(3))
				.atMost(RedisStoreFixture.HEARTBEAT_TIMEOUT.multipliedBy(5))
				.until(() -> !deaf.state().connected());
			assertThat(deaf.errorCount()).isEqualTo(1);
			assertThat(other.state().connected()).isTrue();
		}
	}

	@Test
	void whenTheClientResubscribesByItselfThenTheStoreReadsWhatWasPublishedMeanwhile() throws Exception {
		try (LoopbackTcpProxy proxy = new LoopbackTcpProxy(this.redis.server().port())) {
			RedisCooldownStore resubscribing = this.redis.fixture()
				.storeSubscribingThrough(proxy, new OriginProtection(100));
			RedisCooldownStore other = this.redis.fixture().store(new OriginProtection(100));
			StringRedisTemplate redis = this.redis.fixture().template();
			await().atMost(AWAIT).until(() -> resubscribing.state().connected() && other.state().connected());

			// Published while the subscription hears nothing: lost to it, as a message published
			// while a subscription moves to a promoted master is.
			proxy.drop();
			other.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());
			await().atMost(AWAIT).until(() -> redis.hasKey(RedisCooldownStore.DEFAULT_KEY_PREFIX + ORIGIN));
			proxy.heal();
			// The client reconnects and subscribes again before any outage is noticed.
			proxy.reset();

			await().atMost(AWAIT).until(() -> !remaining(resubscribing, ORIGIN).isZero());
			assertThat(remaining(resubscribing, ORIGIN)).isGreaterThan(Duration.ofSeconds(20));
			assertThat(resubscribing.state().connected()).isTrue();
		}
	}

	@Test
	void whenRedisLostTheKeysThenTheStoreWritesItsRunningCooldownsAgainOnRecovery() {
		RedisCooldownStore writer = this.redis.fixture().store(new OriginProtection(100));
		RedisCooldownStore other = this.redis.fixture().store(new OriginProtection(100));
		StringRedisTemplate redis = this.redis.fixture().template();
		await().atMost(AWAIT).until(() -> writer.state().connected() && other.state().connected());
		writer.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());
		writer.record(ENDED, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).until(() -> !remaining(other, ORIGIN).isZero() && !remaining(other, ENDED).isZero());
		// Ended by another instance: not written again.
		other.end(ENDED.origin());
		await().atMost(AWAIT).until(() -> remaining(writer, ENDED).isZero());

		// As a master that acknowledged the write and died before its replica had it, or a
		// Redis restarted without persistence.
		this.redis.server().kill();
		this.redis.server().start();

		await().atMost(AWAIT).until(() -> redis.hasKey(RedisCooldownStore.DEFAULT_KEY_PREFIX + ORIGIN));
		assertThat(redis.getExpire(RedisCooldownStore.DEFAULT_KEY_PREFIX + ORIGIN)).isBetween(1L, 30L);
		await().atMost(AWAIT).until(() -> writer.state().connected() && other.state().connected());
		assertThat(redis.hasKey(RedisCooldownStore.DEFAULT_KEY_PREFIX + ENDED)).isFalse();
		assertThat(remaining(other, ORIGIN)).isPositive();
	}

}
