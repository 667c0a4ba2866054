package dev.retryafter.store;

import java.time.Clock;
import java.time.Duration;

import ch.qos.logback.classic.Level;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.Origin;
import dev.retryafter.testsupport.LoopbackTcpProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.retryafter.store.RedisStoreFixture.remaining;
import static dev.retryafter.store.RedisStoreFixture.timed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stores ("instances") on one real Redis that dies, hangs and comes back.
 */
class RedisCooldownStoreOutageTests {

	private static final CooldownKey ORIGIN = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	private static final CooldownKey OTHER = CooldownKey.of(Origin.of("https", "api.example.com", -1));

	private static final Duration AWAIT = Duration.ofSeconds(30);

	// A sanity bound only, for a busy machine: that requests never reach Redis is shown by
	// RedisCooldownStoreRequestPathTests, with a connection factory that blocks.
	private static final Duration CALLER_BOUND = Duration.ofSeconds(1);

	// The heartbeat timeout, one watchdog tick, one command timeout, and room for a busy machine.
	private static final Duration NOTICED_WITHIN = RedisStoreFixture.HEARTBEAT_TIMEOUT
		.plus(RedisStoreFixture.HEARTBEAT_INTERVAL)
		.plus(RedisStoreFixture.COMMAND_TIMEOUT)
		.plusSeconds(2);

	private static final String UNAVAILABLE = "Redis cooldown store 'retry-after:' is unavailable (";

	private static final String BACK = "Redis cooldown store 'retry-after:' is connected again after an outage of ";

	@RegisterExtension
	final RedisStoreExtension redis = new RedisStoreExtension();

	@Test
	void whenRedisDiesThenTheOutageIsCountedOnceAndTheCooldownsRecordedMeanwhileArePublishedOnRecovery() {
		RedisCooldownStore first = store();
		RedisCooldownStore second = store();
		awaitConnected(first, second);

		long killedAt = System.nanoTime();
		this.redis.server().kill();
		assertThat(timed(() -> first.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime())))
			.isLessThan(CALLER_BOUND);
		assertThat(timed(() -> remaining(first, ORIGIN))).isLessThan(CALLER_BOUND);
		assertThat(remaining(first, ORIGIN)).isBetween(Duration.ofSeconds(25), Duration.ofSeconds(30));
		await().atMost(AWAIT).until(() -> first.errorCount() == 1 && second.errorCount() == 1);
		assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isLessThan(NOTICED_WITHIN);
		assertThat(first.state().connected()).isFalse();
		second.record(OTHER, Duration.ofSeconds(30), System.nanoTime());
		// Many heartbeats and reconnection attempts fail meanwhile: still one error, one WARN.
		sleep(RedisStoreFixture.HEARTBEAT_TIMEOUT.multipliedBy(3));
		assertThat(first.errorCount()).isEqualTo(1);
		assertThat(second.errorCount()).isEqualTo(1);
		assertThat(first.state().errors()).isEqualTo(1);
		assertThat(this.redis.fixture().messages(Level.WARN)).hasSize(2).allMatch((line) -> line.startsWith(UNAVAILABLE));
		assertThat(this.redis.fixture().messages(Level.INFO)).isEmpty();

		this.redis.server().start();
		// Recorded during the outage only, and never again: published on recovery.
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(remaining(second, ORIGIN)).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(30));
			assertThat(remaining(first, OTHER)).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(30));
		});
		await().atMost(AWAIT).until(() -> this.redis.fixture().messages(Level.INFO).size() == 2);
		assertThat(this.redis.fixture().messages(Level.INFO)).allMatch((line) -> line.startsWith(BACK));
		assertThat(first.state().connected()).isTrue();
		assertThat(first.errorCount() + second.errorCount()).isEqualTo(2);
		assertThat(this.redis.fixture().messages(Level.WARN)).hasSize(2);
	}

	@Test
	void whenRedisDiesThenTheClosedConnectionIsNoticedWithinSecondsWithoutWaitingForTheHeartbeat() {
		// Heartbeat every 10 s, 25 s to come back, 60 s command timeout: only the closed
		// connection tells the store so soon.
		RedisCooldownStore store = this.redis.fixture().storeWithDefaultTimings(new OriginProtection(100));
		await().atMost(AWAIT).until(() -> store.state().connected());
		// The heartbeats of the start are done, the next is 10 s away: no command is in flight
		// when Redis dies, so only the closed connection can tell.
		sleep(Duration.ofSeconds(1));
		long killedAt = System.nanoTime();
		this.redis.server().kill();
		await().atMost(AWAIT).until(() -> store.errorCount() == 1);
		assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isLessThan(Duration.ofSeconds(5));
		assertThat(this.redis.fixture().messages(Level.WARN)).singleElement()
			.asString()
			.startsWith(UNAVAILABLE + "connection failed: the connection to ")
			.endsWith(" closed and no heartbeat came back within 2000 ms); requests use this instance's "
					+ "cooldowns until it is back");
	}

	@Test
	void whenTheSubscriptionIsDroppedSilentlyThenTheHeartbeatNoticesItAndANewOneRecovers() throws Exception {
		try (LoopbackTcpProxy proxy = new LoopbackTcpProxy(this.redis.server().port())) {
			RedisCooldownStore dropped = this.redis.fixture().storeSubscribingThrough(proxy, new OriginProtection(100));
			RedisCooldownStore other = store();
			awaitConnected(dropped, other);

			proxy.drop();
			long droppedAt = System.nanoTime();
			// Commands still work: only the heartbeat's silence tells.
			await().atMost(AWAIT).until(() -> dropped.errorCount() == 1);
			Duration unnoticed = Duration.ofNanos(System.nanoTime() - droppedAt);
			assertThat(unnoticed).isGreaterThanOrEqualTo(RedisStoreFixture.HEARTBEAT_TIMEOUT.minus(
					RedisStoreFixture.HEARTBEAT_INTERVAL)).isLessThan(NOTICED_WITHIN);
			assertThat(this.redis.fixture().messages(Level.WARN)).singleElement()
				.asString()
				.startsWith(UNAVAILABLE + "heartbeat failed: no heartbeat heard back for ");
			assertThat(dropped.state().connected()).isFalse();
			other.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());

			proxy.heal();
			// A new subscription: the one the network forgot is never heard from again.
			await().atMost(AWAIT).until(() -> dropped.state().connected());
			await().atMost(AWAIT).until(() -> !remaining(dropped, ORIGIN).isZero());
			assertThat(this.redis.fixture().messages(Level.INFO)).singleElement().asString().startsWith(BACK);
			assertThat(dropped.errorCount()).isEqualTo(1);
			assertThat(other.errorCount()).isZero();
		}
	}

	@Test
	void whenRedisIsDownAtStartThenLocalCooldownsWorkAndSharingStartsWhenItComesUp() {
		this.redis.server().kill();
		RedisCooldownStore first = store();
		await().atMost(AWAIT).until(() -> first.errorCount() == 1);
		first.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());
		assertThat(remaining(first, ORIGIN)).isBetween(Duration.ofSeconds(25), Duration.ofSeconds(30));
		assertThat(this.redis.fixture().messages(Level.WARN)).hasSize(1);
		// The subscription, or the heartbeat it did not let through, whichever failed first.
		assertThat(this.redis.fixture().messages(Level.WARN).get(0)).startsWith(UNAVAILABLE)
			.containsPattern("\\((subscribe|heartbeat) failed: ");

		this.redis.server().start();
		RedisCooldownStore second = store();
		await().atMost(AWAIT).until(() -> this.redis.fixture().messages(Level.INFO).size() == 1);
		await().atMost(AWAIT).until(() -> !remaining(second, ORIGIN).isZero());
		first.record(OTHER, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).until(() -> remaining(second, OTHER).compareTo(Duration.ofSeconds(25)) > 0);
		assertThat(this.redis.fixture().messages(Level.WARN)).hasSize(1);
		assertThat(first.errorCount()).isEqualTo(1);
	}

	@Test
	void whenRedisHangsThenRequestsCarryOnTheOutageIsNoticedAndItRecoversWhenRedisResumes() {
		RedisCooldownStore first = store();
		RedisCooldownStore second = store();
		awaitConnected(first, second);

		long pausedAt = System.nanoTime();
		this.redis.server().pause();
		try {
			for (int i = 0; i < 20; i++) {
				CooldownKey key = CooldownKey.of(Origin.of("http", "hung" + i, -1));
				assertThat(timed(() -> first.record(key, Duration.ofSeconds(30), System.nanoTime())))
					.isLessThan(CALLER_BOUND);
				assertThat(timed(() -> remaining(first, key))).isLessThan(CALLER_BOUND);
				sleep(Duration.ofMillis(50));
			}
			await().atMost(AWAIT).until(() -> first.errorCount() == 1 && second.errorCount() == 1);
			assertThat(Duration.ofNanos(System.nanoTime() - pausedAt)).isLessThan(NOTICED_WITHIN);
			assertThat(this.redis.fixture().messages(Level.WARN)).hasSize(2).allMatch((line) -> line.startsWith(UNAVAILABLE));
			assertThat(timed(() -> first.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime())))
				.isLessThan(CALLER_BOUND);
		}
		finally {
			this.redis.server().resume();
		}
		await().atMost(AWAIT).until(() -> this.redis.fixture().messages(Level.INFO).size() == 2);
		await().atMost(AWAIT).until(() -> !remaining(second, ORIGIN).isZero());
		assertThat(first.state().connected()).isTrue();
		assertThat(first.errorCount() + second.errorCount()).isEqualTo(2);
	}

	@Test
	void whenTheWriteQueueIsFullThenCooldownsAreDroppedAndCountedButNoOutageIsReported() {
		OriginProtection cooldowns = new OriginProtection(2);
		// Not started yet, so writes wait in the queue.
		RedisCooldownStore store = this.redis.fixture().unstarted(cooldowns, RedisCooldownStore.DEFAULT_KEY_PREFIX,
				Clock.systemUTC());
		store.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());
		store.record(OTHER, Duration.ofSeconds(30), System.nanoTime());
		CooldownKey third = CooldownKey.of(Origin.of("http", "third", -1));
		store.record(third, Duration.ofSeconds(30), System.nanoTime());
		// The same key again only updates its queued write.
		store.record(OTHER, Duration.ofSeconds(40), System.nanoTime());
		assertThat(store.droppedCount()).isEqualTo(1);
		assertThat(store.errorCount()).isZero();
		assertThat(this.redis.fixture().messages(Level.WARN)).isEmpty();

		store.start();
		await().atMost(AWAIT).until(() -> this.redis.fixture().template().hasKey("retry-after:" + OTHER));
		assertThat(this.redis.fixture().template().getExpire("retry-after:" + OTHER)).isBetween(35L, 40L);
		assertThat(this.redis.fixture().template().hasKey("retry-after:" + ORIGIN)).isTrue();
		assertThat(this.redis.fixture().template().hasKey("retry-after:" + third)).isFalse();
		assertThat(store.errorCount()).isZero();
	}

	private RedisCooldownStore store() {
		return this.redis.fixture().store(new OriginProtection(100));
	}

	private static void awaitConnected(RedisCooldownStore first, RedisCooldownStore second) {
		await().atMost(AWAIT).until(() -> first.state().connected() && second.state().connected());
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
