package dev.retryafter.store;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import java.util.function.Consumer;

import ch.qos.logback.classic.Level;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.Origin;
import dev.retryafter.testsupport.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real Redis that answers, publishes and subscribes but refuses the store's writes: a
 * {@code READONLY} replica, {@code OOM} under {@code maxmemory-policy noeviction}, and an ACL
 * user without scripting. Each is watched for 10 s: one outage (one WARN, one error),
 * {@code connected} false throughout, reconnection attempts backed off; then Redis takes
 * writes again and the cooldown recorded meanwhile is published.
 */
class RedisCooldownStoreRefusedWritesTests {

	private static final CooldownKey ORIGIN = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	private static final Duration WATCHED = Duration.ofSeconds(10);

	private static final Duration AWAIT = Duration.ofSeconds(30);

	// Shorter than the defaults (1 s growing to 30 s, pinned in ReconnectBackoffTests),
	// so that Redis taking writes again is noticed within seconds: steps of 0.5, 1, 2, then 4 s,
	// each wait drawn between half its step and the step, so attempts at the latest 0.5, 1.5,
	// 3.5 and 7.5 s into the outage and at the earliest 0.25, 0.75, 1.75, 3.75, 5.75, 7.75 and
	// 9.75 s.
	private static final Duration FIRST_RETRY_DELAY = Duration.ofMillis(500);

	private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(4);

	private static final String UNAVAILABLE = "Redis cooldown store 'retry-after:' is unavailable (";

	@RegisterExtension
	final RedisStoreExtension redis = new RedisStoreExtension();

	@Test
	void whenRedisIsAReadOnlyReplicaThenOneOutageIsCountedAndAttemptsBackOffUntilItIsPromoted() {
		try (RedisServer replica = RedisServer.onFreePort()) {
			replica.arguments("--replicaof", "127.0.0.1 " + this.redis.server().port()).start();
			StringRedisTemplate admin = this.redis.fixture().template(new RedisStandaloneConfiguration("127.0.0.1",
					replica.port()));
			await().atMost(AWAIT)
				.until(() -> "up".equals(info(admin, "replication").getProperty("master_link_status")));
			RedisConnectionFactory factory = this.redis.fixture()
				.connectionFactory(new RedisStandaloneConfiguration("127.0.0.1", replica.port()));
			refusedThenAccepted(factory, admin, "READONLY", (redis) -> redis.execute((RedisCallback<Void>) (
					connection) -> {
				connection.serverCommands().replicaOfNoOne();
				return null;
			}));
		}
	}

	@Test
	void whenRedisIsOutOfMemoryUnderNoEvictionThenOneOutageIsCountedAndAttemptsBackOffUntilItHasRoom() {
		StringRedisTemplate admin = this.redis.fixture().template();
		setConfig(admin, "maxmemory-policy", "noeviction");
		setConfig(admin, "maxmemory", "1");
		refusedThenAccepted(this.redis.fixture().connectionFactory(), admin, "OOM",
				(redis) -> setConfig(redis, "maxmemory", "0"));
	}

	@Test
	void whenTheUserMayNotRunScriptsThenOneOutageIsCountedAndAttemptsBackOffUntilItMay() {
		StringRedisTemplate admin = this.redis.fixture().template();
		acl(admin, "SETUSER", "store", "on", ">store-secret", "~*", "&*", "+@all", "-@scripting");
		RedisStandaloneConfiguration config = new RedisStandaloneConfiguration("127.0.0.1",
				this.redis.server().port());
		config.setUsername("store");
		config.setPassword("store-secret");
		refusedThenAccepted(this.redis.fixture().connectionFactory(config), admin, "NOPERM",
				(redis) -> acl(redis, "SETUSER", "store", "+@scripting"));
	}

	private void refusedThenAccepted(RedisConnectionFactory factory, StringRedisTemplate admin, String refusal,
			Consumer<StringRedisTemplate> acceptWrites) {
		long subscribesBefore = calls(admin, "subscribe");
		RedisCooldownStore store = this.redis.fixture().unstarted(factory, new OriginProtection(100),
				RedisCooldownStore.DEFAULT_KEY_PREFIX, Clock.systemUTC(), FIRST_RETRY_DELAY, MAX_RETRY_DELAY);
		store.start();
		// A 429 with Retry-After: 60 while Redis refuses its write.
		store.record(ORIGIN, Duration.ofSeconds(60), System.nanoTime());
		await().atMost(AWAIT).until(() -> store.errorCount() == 1);
		long watchedFrom = System.nanoTime();
		while (System.nanoTime() - watchedFrom < WATCHED.toNanos()) {
			assertThat(store.state().connected()).as("connected while Redis refuses writes").isFalse();
			assertThat(store.errorCount()).isEqualTo(1);
			sleep(Duration.ofMillis(100));
		}
		assertThat(this.redis.fixture().messages(Level.WARN)).singleElement()
			.asString()
			.startsWith(UNAVAILABLE)
			.contains(refusal);
		assertThat(this.redis.fixture().messages(Level.INFO)).isEmpty();
		// The first subscription and one per attempt: at most 8 in the 10 s (9 with the time
		// before them), as the waits may be as short as half their step; a store that spun
		// counted dozens within milliseconds.
		assertThat(calls(admin, "subscribe") - subscribesBefore).isBetween(2L, 9L);
		assertThat(admin.hasKey("retry-after:" + ORIGIN)).isFalse();

		acceptWrites.accept(admin);
		await().atMost(AWAIT).until(() -> store.state().connected());
		// Recorded while Redis refused it: written on recovery.
		await().atMost(AWAIT).until(() -> admin.hasKey("retry-after:" + ORIGIN));
		assertThat(admin.getExpire("retry-after:" + ORIGIN)).isBetween(30L, 60L);
		assertThat(this.redis.fixture().messages(Level.INFO)).singleElement()
			.asString()
			.startsWith("Redis cooldown store 'retry-after:' is connected again after an outage of ");
		assertThat(this.redis.fixture().messages(Level.WARN)).hasSize(1);
		assertThat(store.errorCount()).isEqualTo(1);
	}

	private static Properties info(StringRedisTemplate redis, String section) {
		Properties info = redis.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands()
			.info(section));
		return (info != null) ? info : new Properties();
	}

	// How often the server ran a command, from INFO commandstats.
	private static long calls(StringRedisTemplate redis, String command) {
		String stats = info(redis, "commandstats").getProperty("cmdstat_" + command);
		if (stats == null) {
			return 0;
		}
		String calls = stats.split(",")[0];
		return Long.parseLong(calls.substring(calls.indexOf('=') + 1));
	}

	private static void setConfig(StringRedisTemplate redis, String name, String value) {
		redis.execute((RedisCallback<Void>) (connection) -> {
			connection.serverCommands().setConfig(name, value);
			return null;
		});
	}

	private static void acl(StringRedisTemplate redis, String... arguments) {
		redis.execute((RedisConnection connection) -> connection.execute("ACL", toBytes(arguments)));
	}

	private static byte[][] toBytes(String... arguments) {
		byte[][] bytes = new byte[arguments.length][];
		for (int i = 0; i < arguments.length; i++) {
			bytes[i] = arguments[i].getBytes(StandardCharsets.UTF_8);
		}
		return bytes;
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
