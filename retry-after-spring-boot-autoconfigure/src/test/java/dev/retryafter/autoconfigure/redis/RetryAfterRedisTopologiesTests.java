package dev.retryafter.autoconfigure.redis;

import java.time.Duration;
import java.util.stream.Collectors;

import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.testsupport.RedisCluster;
import dev.retryafter.testsupport.RedisSentinelGroup;
import dev.retryafter.testsupport.RedisServer;
import dev.retryafter.testsupport.RedisTestsSwitch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Redis store on the connection factory Spring Boot makes from
 * {@code spring.data.redis.cluster.nodes} and from {@code spring.data.redis.sentinel.*},
 * against a real cluster and real sentinels.
 */
@ExtendWith(RedisTestsSwitch.class)
class RetryAfterRedisTopologiesTests {

	private static final CooldownKey ORIGIN = CooldownKey.of(Origin.of("https", "api.example.com", -1));

	private static final Duration AWAIT = Duration.ofSeconds(30);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterRedisAutoConfiguration.class))
		.withPropertyValues("retry-after.store=redis", "spring.data.redis.timeout=2s");

	@Test
	void whenSpringDataRedisNamesAClusterThenTheStoreSharesThroughIt() {
		try (RedisCluster cluster = RedisCluster.start()) {
			String nodes = cluster.nodes()
				.stream()
				.map((node) -> "127.0.0.1:" + node.port())
				.collect(Collectors.joining(","));
			this.contextRunner.withPropertyValues("spring.data.redis.cluster.nodes=" + nodes).run((context) -> {
				assertThat(context.getBean(LettuceConnectionFactory.class).isClusterAware()).isTrue();
				assertCooldownShared(context);
			});
		}
	}

	@Test
	void whenSpringDataRedisNamesSentinelsThenTheStoreSharesThroughTheirMaster() {
		try (RedisSentinelGroup group = RedisSentinelGroup.startWithoutFailover()) {
			String sentinels = group.configuration()
				.getSentinels()
				.stream()
				.map((node) -> node.getHost() + ":" + node.getPort())
				.collect(Collectors.joining(","));
			this.contextRunner
				.withPropertyValues("spring.data.redis.sentinel.master=" + RedisSentinelGroup.MASTER_NAME,
						"spring.data.redis.sentinel.nodes=" + sentinels)
				.run((context) -> {
					assertThat(context.getBean(LettuceConnectionFactory.class).isRedisSentinelAware()).isTrue();
					String key = assertCooldownShared(context);
					RedisServer master = group.master();
					assertThat(Long.parseLong(group.cli(master, "PTTL", key).strip())).isBetween(1L, 30_000L);
				});
		}
	}

	// Records a 30 s cooldown once the store is connected, and returns its key in Redis.
	private static String assertCooldownShared(AssertableApplicationContext context) {
		CooldownStore store = context.getBean(CooldownStore.class);
		await().atMost(AWAIT).until(() -> store.state().connected());
		store.record(ORIGIN, Duration.ofSeconds(30), System.nanoTime());
		String key = "retry-after:" + ORIGIN;
		StringRedisTemplate redis = new StringRedisTemplate(context.getBean(RedisConnectionFactory.class));
		await().atMost(AWAIT).until(() -> redis.hasKey(key));
		assertThat(redis.getExpire(key)).isBetween(20L, 30L);
		assertThat(store.errorCount()).isZero();
		return key;
	}

}
