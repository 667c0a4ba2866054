package dev.retryafter.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.retryafter.core.HostCooldowns;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two stores ("instances") sharing one real Redis.
 */
class RedisCooldownStoreTests {

	private static final CooldownKey ORIGIN = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	private static final CooldownKey OTHER = CooldownKey.of(Origin.of("https", "api.example.com", -1));

	private static final Duration AWAIT = Duration.ofSeconds(20);

	private static final String UNAVAILABLE = "Redis is unavailable for shared host cooldowns";

	// Far below the 50 ms bound of SPEC section 5; what a request may spend on the store.
	private static final Duration CALLER_BOUND = Duration.ofMillis(50);

	@RegisterExtension
	final RedisServerExtension redis = new RedisServerExtension();

	private final List<AutoCloseable> resources = new ArrayList<>();

	private final ListAppender<ILoggingEvent> log = new ListAppender<>();

	private final Logger storeLogger = (Logger) LoggerFactory.getLogger(RedisCooldownStore.class);

	@BeforeEach
	void captureLog() {
		this.log.start();
		this.storeLogger.addAppender(this.log);
	}

	@AfterEach
	void cleanUp() throws Exception {
		this.storeLogger.detachAppender(this.log);
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

	@Test
	void whenOneInstanceRecordsThenTheOtherLearnsIt() {
		RedisCooldownStore first = store(new HostCooldowns(100), new LongAdder());
		RedisCooldownStore second = store(new HostCooldowns(100), new LongAdder());
		awaitSubscribed(first, second);
		Instant wallNow = Instant.now();
		first.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime(), wallNow);
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(remaining(second, ORIGIN)).isBetween(Duration.ofSeconds(25),
					Duration.ofSeconds(30)));
		assertThat(template().opsForValue().get("retry-after:" + ORIGIN))
			.isEqualTo(Long.toString(wallNow.toEpochMilli() + 30_000));
		assertThat(remaining(second, OTHER)).isEqualTo(Duration.ZERO);
		assertThat(first.errorCount() + second.errorCount()).isZero();
	}

	@Test
	void whenKeyIsWrittenThenItExpiresAtTheNotBeforeInstant() {
		RedisCooldownStore first = store(new HostCooldowns(100), new LongAdder());
		Instant wallNow = Instant.now();
		first.record(ORIGIN, Duration.ofMillis(1500), System.nanoTime(), wallNow);
		String key = "retry-after:" + ORIGIN;
		await().atMost(AWAIT).until(() -> template().hasKey(key));
		assertThat(template().getExpire(key)).isBetween(0L, 2L);
		await().atMost(AWAIT).until(() -> !template().hasKey(key));
	}

	@Test
	void whenInstancesRecordDifferentDelaysThenTheLaterWinsEverywhere() {
		// Cooldowns of up to five minutes, so the 90 s below is not cut to the 60 s default.
		RedisCooldownStore first = store(new HostCooldowns(100, Duration.ofMinutes(5)), new LongAdder());
		RedisCooldownStore second = store(new HostCooldowns(100, Duration.ofMinutes(5)), new LongAdder());
		awaitSubscribed(first, second);
		Instant wallNow = Instant.now();
		String key = "retry-after:" + ORIGIN;
		first.record(ORIGIN, Duration.ofSeconds(60), System.nanoTime(), wallNow);
		await().atMost(AWAIT).until(() -> template().hasKey(key));
		// The second instance hears of the first's 60 s only from Redis's answer or the channel.
		second.record(ORIGIN, Duration.ofSeconds(10), System.nanoTime(), wallNow);
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(remaining(second, ORIGIN)).isGreaterThan(Duration.ofSeconds(50)));
		assertThat(template().opsForValue().get(key)).isEqualTo(Long.toString(wallNow.toEpochMilli() + 60_000));
		second.record(ORIGIN, Duration.ofSeconds(90), System.nanoTime(), wallNow);
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(template().opsForValue().get(key))
				.isEqualTo(Long.toString(wallNow.toEpochMilli() + 90_000)));
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(remaining(first, ORIGIN)).isGreaterThan(Duration.ofSeconds(80)));
	}

	@Test
	void whenStartingThenExistingKeysAreReadAndForeignOnesIgnored() {
		StringRedisTemplate template = template();
		long inAMinute = Instant.now().plusSeconds(60).toEpochMilli();
		for (int i = 0; i < 5; i++) {
			template.opsForValue().set("retry-after:http://host" + i + ":80", Long.toString(inAMinute));
		}
		template.opsForValue().set("retry-after:not-an-origin", Long.toString(inAMinute));
		template.opsForValue().set("retry-after:http://bad-value:80", "soon");
		template.opsForValue().set("other:http://elsewhere:80", Long.toString(inAMinute));
		HostCooldowns all = new HostCooldowns(100);
		store(all, new LongAdder());
		await().atMost(AWAIT).until(() -> all.activeCount(System.nanoTime()) == 5);
		assertThat(all.snapshot(System.nanoTime()).keySet()).extracting((key) -> key.origin().host())
			.containsExactly("host0", "host1", "host2", "host3", "host4");
	}

	@Test
	void whenStartingThenAtMostMaxHostsKeysAreRead() {
		StringRedisTemplate template = template();
		long inAMinute = Instant.now().plusSeconds(60).toEpochMilli();
		for (int i = 0; i < 50; i++) {
			template.opsForValue().set("retry-after:http://host" + i + ":80", Long.toString(inAMinute));
		}
		HostCooldowns bounded = new HostCooldowns(3);
		RedisCooldownStore store = store(bounded, new LongAdder());
		await().atMost(AWAIT).until(() -> bounded.activeCount(System.nanoTime()) == 3);
		// A later read-through (after a reconnect) is bounded the same way.
		assertThat(bounded.size()).isEqualTo(3);
		assertThat(store.errorCount()).isZero();
	}

	@Test
	void whenRedisDiesThenRequestsAreNotHeldUpErrorsAreCountedAndSharingResumesAfterARestart() {
		LongAdder callbackErrors = new LongAdder();
		RedisCooldownStore first = store(new HostCooldowns(100), callbackErrors);
		RedisCooldownStore second = store(new HostCooldowns(100), new LongAdder());
		awaitSubscribed(first, second);

		this.redis.server().kill();
		assertThat(timed(() -> first.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime(), Instant.now())))
			.isLessThan(CALLER_BOUND);
		assertThat(timed(() -> remaining(first, ORIGIN))).isLessThan(CALLER_BOUND);
		assertThat(remaining(first, ORIGIN)).isBetween(Duration.ofSeconds(25), Duration.ofSeconds(30));
		await().atMost(AWAIT).until(() -> first.errorCount() == 1);
		first.record(OTHER, Duration.ofSeconds(30), System.nanoTime(), Instant.now());
		await().atMost(AWAIT).until(() -> first.errorCount() == 2);
		assertThat(callbackErrors.sum()).isEqualTo(2);
		assertThat(messages(Level.WARN)).hasSize(1);
		assertThat(messages(Level.WARN).get(0)).startsWith(UNAVAILABLE + " (write failed");

		this.redis.server().start();
		CooldownKey afterRestart = CooldownKey.of(Origin.of("http", "after-restart", -1));
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			first.record(afterRestart, Duration.ofSeconds(30), System.nanoTime(), Instant.now());
			assertThat(remaining(second, afterRestart)).isPositive();
		});
		// Either instance may also have caught a failure while its connections came back (a
		// read-through racing the reconnect): still one WARN and one INFO per instance at most.
		await().atMost(AWAIT).until(() -> messages(Level.INFO).size() == messages(Level.WARN).size());
		assertThat(messages(Level.WARN)).hasSizeBetween(1, 2);
		assertThat(messages(Level.INFO)).allMatch("Redis is available again for shared host cooldowns"::equals);
		assertThat(callbackErrors.sum()).isEqualTo(first.errorCount());
	}

	@Test
	void whenRedisIsDownAtStartThenLocalCooldownsWorkAndSharingStartsWhenItComesUp() {
		this.redis.server().kill();
		RedisCooldownStore first = store(new HostCooldowns(100), new LongAdder());
		await().atMost(AWAIT).until(() -> first.errorCount() == 1);
		first.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime(), Instant.now());
		assertThat(remaining(first, ORIGIN)).isBetween(Duration.ofSeconds(25), Duration.ofSeconds(30));
		assertThat(messages(Level.WARN)).hasSize(1);
		assertThat(messages(Level.WARN).get(0)).startsWith(UNAVAILABLE + " (subscribe failed");

		this.redis.server().start();
		RedisCooldownStore second = store(new HostCooldowns(100), new LongAdder());
		await().atMost(AWAIT).until(() -> messages(Level.INFO).size() == 1);
		first.record(OTHER, Duration.ofSeconds(30), System.nanoTime(), Instant.now());
		await().atMost(AWAIT).until(() -> remaining(second, OTHER).compareTo(Duration.ofSeconds(25)) > 0);
		assertThat(messages(Level.WARN)).hasSize(1);
	}

	private RedisCooldownStore store(HostCooldowns cooldowns, LongAdder errors) {
		RedisCooldownStore store = new RedisCooldownStore(connectionFactory(), cooldowns,
				RedisCooldownStore.DEFAULT_KEY_PREFIX, errors::increment, MonotonicClock.SYSTEM, Clock.systemUTC());
		this.resources.add(store);
		store.start();
		return store;
	}

	// Subscriptions are established in the background. Each store records one cooldown and
	// the other learns it, by message or by the read-through that follows its subscription:
	// either way both are subscribed afterwards and neither has a command in flight.
	private void awaitSubscribed(RedisCooldownStore first, RedisCooldownStore second) {
		CooldownKey fromFirst = CooldownKey.of(Origin.of("http", "from-first", -1));
		CooldownKey fromSecond = CooldownKey.of(Origin.of("http", "from-second", -1));
		first.record(fromFirst, Duration.ofSeconds(30), System.nanoTime(), Instant.now());
		second.record(fromSecond, Duration.ofSeconds(30), System.nanoTime(), Instant.now());
		await().atMost(AWAIT).untilAsserted(() -> {
			assertThat(remaining(second, fromFirst)).isPositive();
			assertThat(remaining(first, fromSecond)).isPositive();
		});
	}

	private LettuceConnectionFactory connectionFactory() {
		RedisStandaloneConfiguration server = new RedisStandaloneConfiguration("127.0.0.1", this.redis.server().port());
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofMillis(500))
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(server, client);
		factory.afterPropertiesSet();
		factory.start();
		this.resources.add(factory::destroy);
		return factory;
	}

	private StringRedisTemplate template() {
		return new StringRedisTemplate(connectionFactory());
	}

	private static Duration remaining(CooldownStore store, CooldownKey origin) {
		return store.remaining(origin, System.nanoTime());
	}

	private List<String> messages(Level level) {
		return this.log.list.stream()
			.filter((event) -> event.getLevel() == level)
			.map(ILoggingEvent::getFormattedMessage)
			.toList();
	}

	private static Duration timed(Runnable action) {
		long start = System.nanoTime();
		action.run();
		return Duration.ofNanos(System.nanoTime() - start);
	}

}
