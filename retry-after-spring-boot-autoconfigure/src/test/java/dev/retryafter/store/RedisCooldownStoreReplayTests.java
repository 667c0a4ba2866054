package dev.retryafter.store;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static dev.retryafter.store.RedisStoreFixture.remaining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Signed messages recorded from the channel and published again: a replay after an operator
 * ended the cooldown does not start it again.
 */
class RedisCooldownStoreReplayTests {

	private static final PartitionSecret SECRET = PartitionSecret.of("c2VjcmV0LXNoYXJlZC1ieS10aGUtZmxlZXQ=");

	private static final CooldownKey TENANT = new CooldownKey(Origin.of("https", "api.example.com", 443),
			"0123456789abcdef0123456789abcdef");

	private static final String CHANNEL = RedisCooldownStore.DEFAULT_KEY_PREFIX + "cooldowns";

	private static final Duration AWAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final RedisStoreExtension redis = new RedisStoreExtension();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

	@Test
	void whenARecordedCooldownIsReplayedAfterItWasEndedThenItIsDroppedAndCounted() {
		RedisCooldownStore first = store();
		RedisCooldownStore second = store();
		await().atMost(AWAIT).until(() -> first.state().connected() && second.state().connected());
		List<String> heard = record();
		first.record(TENANT, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(second, TENANT)).isPositive());
		String cooldown = await().atMost(AWAIT).until(() -> find(heard, "cooldown "), (text) -> text != null);

		second.end(TENANT.origin());
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(first, TENANT)).isZero());
		template().convertAndSend(CHANNEL, cooldown);
		await().atMost(AWAIT).until(() -> second.rejectedCount(MessageRejection.REPLAYED) == 1);
		// Later cooldowns of the first are still learned: only the replay was dropped.
		CooldownKey later = CooldownKey.of(Origin.of("http", "later", -1));
		first.record(later, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(second, later)).isPositive());
		assertThat(remaining(second, TENANT)).isZero();
		assertThat(remaining(first, TENANT)).isZero();
		assertThat(second.rejectedCount(MessageRejection.REPLAYED)).isOne();
		assertThat(second.rejectedCount(MessageRejection.STALE) + second.rejectedCount(MessageRejection.SIGNATURE))
			.isZero();
		assertThat(first.state().connected() && second.state().connected()).isTrue();
	}

	@Test
	void whenARecordedEndIsReplayedAfterANewCooldownStartedThenTheCooldownHolds() {
		RedisCooldownStore first = store();
		RedisCooldownStore second = store();
		await().atMost(AWAIT).until(() -> first.state().connected() && second.state().connected());
		List<String> heard = record();
		first.record(TENANT, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(second, TENANT)).isPositive());
		second.end(TENANT.origin());
		String end = await().atMost(AWAIT).until(() -> find(heard, "end "), (text) -> text != null);
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(first, TENANT)).isZero());

		first.record(TENANT, Duration.ofSeconds(30), System.nanoTime());
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(second, TENANT)).isPositive());
		template().convertAndSend(CHANNEL, end);
		await().atMost(AWAIT).until(() -> first.rejectedCount(MessageRejection.REPLAYED) == 1);
		assertThat(remaining(first, TENANT)).isPositive();
	}

	@Test
	void whenASignedMessageIsStampedLongAgoOrNotAtAllThenItIsDroppedAsStale() {
		RedisCooldownStore store = store();
		await().atMost(AWAIT).until(() -> store.state().connected());
		long redisNow = template()
			.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
		String body = CooldownMessage.cooldown(30000, "peer", TENANT).encode();
		// Signed with the secret 40 s ago (by Redis's clock), as a recording would be.
		template().convertAndSend(CHANNEL, CooldownMessage.cooldown(30000, "peer", TENANT)
			.encode(new MessageSignature(SECRET, () -> redisNow - 40_000)));
		// Signed as a version before stamps signs: the stale rule covers it too.
		template().convertAndSend(CHANNEL, body + " sig:" + SECRET.sign(body));
		await().atMost(AWAIT).until(() -> store.rejectedCount(MessageRejection.STALE) == 2);
		// The same message stamped now is taken.
		template().convertAndSend(CHANNEL, CooldownMessage.cooldown(30000, "peer", TENANT)
			.encode(new MessageSignature(SECRET, () -> redisNow)));
		await().atMost(AWAIT).untilAsserted(() -> assertThat(remaining(store, TENANT)).isPositive());
		assertThat(store.rejectedCount(MessageRejection.STALE)).isEqualTo(2);
		assertThat(store.rejectedCount(MessageRejection.SIGNATURE)).isZero();
	}

	private RedisCooldownStore store() {
		RedisCooldownStore store = new RedisCooldownStore(this.redis.fixture().connectionFactory(),
				new OriginProtection(100), RedisCooldownStore.DEFAULT_KEY_PREFIX, MonotonicClock.SYSTEM,
				Clock.systemUTC(), RedisStoreFixture.HEARTBEAT_INTERVAL, RedisStoreFixture.HEARTBEAT_TIMEOUT, SECRET);
		this.closeables.add(store);
		store.start();
		return store;
	}

	// Everything published on the channel from now on, as an eavesdropper with read access
	// to it would keep it.
	private List<String> record() {
		List<String> heard = Collections.synchronizedList(new ArrayList<>());
		RedisConnection connection = this.redis.fixture().connectionFactory().getConnection();
		this.closeables.add(connection);
		connection.subscribe((message, pattern) -> heard.add(new String(message.getBody(), StandardCharsets.UTF_8)),
				CHANNEL.getBytes(StandardCharsets.UTF_8));
		return heard;
	}

	private static String find(List<String> heard, String prefix) {
		synchronized (heard) {
			return heard.stream().filter((text) -> text.startsWith(prefix)).findFirst().orElse(null);
		}
	}

	private StringRedisTemplate template() {
		return this.redis.fixture().template();
	}

}
