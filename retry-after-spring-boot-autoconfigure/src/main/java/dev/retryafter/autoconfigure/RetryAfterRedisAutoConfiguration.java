package dev.retryafter.autoconfigure;

import java.time.Duration;

import dev.retryafter.core.HostCooldowns;
import dev.retryafter.core.RetryClients;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.RedisCooldownStore;
import io.lettuce.core.SocketOptions;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.http.client.ClientHttpRequestInterceptor;

/**
 * Shares host cooldowns through Redis ({@code retry-after.store=redis}) using the
 * application's own {@link RedisConnectionFactory} ({@code spring.data.redis.*}). Without
 * Spring Data Redis or a connection factory the main auto-configuration keeps cooldowns in
 * the instance and says so at start-up.
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = RetryAfterAutoConfiguration.class,
		afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass({ RedisConnectionFactory.class, ClientHttpRequestInterceptor.class })
@ConditionalOnBooleanProperty(name = "retry-after.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "retry-after.store", havingValue = "redis")
@EnableConfigurationProperties(RetryAfterProperties.class)
public final class RetryAfterRedisAutoConfiguration {

	/**
	 * Starts listening at once, in the background; never blocks or fails start-up when Redis
	 * is down. Closed with the context. Takes {@code retryClients} so that the properties are
	 * validated (with messages naming them) before they are used here, and to fail start-up
	 * when a client partitions cooldowns without {@code retry-after.cooldown.partition-secret}.
	 */
	@Bean
	@ConditionalOnBean(RedisConnectionFactory.class)
	@ConditionalOnMissingBean(CooldownStore.class)
	RedisCooldownStore redisCooldownStore(RedisConnectionFactory redisConnectionFactory,
			RetryAfterProperties properties, RetryClients retryClients, Environment environment) {
		String keyPrefix = properties.getRedis().getKeyPrefix();
		if (keyPrefix == null) {
			keyPrefix = RedisCooldownStore.defaultKeyPrefix(environment.getProperty("spring.application.name"));
		}
		// Errors are counted by the store itself; the metrics read them from there.
		RedisCooldownStore store = new RedisCooldownStore(redisConnectionFactory,
				new HostCooldowns(properties.getCooldown().getMaxHosts(), properties.getCooldown().getMaxDuration()),
				keyPrefix, PartitionSecrets.forSharedStore(properties, retryClients));
		store.start();
		return store;
	}

	/**
	 * Turns TCP keepalive on for Boot's Lettuce client, so a connection a network device
	 * dropped without a reset is eventually closed by the operating system as well; the store's
	 * own heartbeat notices it sooner (within 30 s).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ SocketOptions.class, LettuceClientOptionsBuilderCustomizer.class })
	static final class LettuceKeepAliveConfiguration {

		// Probes after 15 s of silence, then every 5 s; the connection is closed after 3 misses.
		private static final Duration KEEPALIVE_IDLE = Duration.ofSeconds(15);

		private static final Duration KEEPALIVE_INTERVAL = Duration.ofSeconds(5);

		private static final int KEEPALIVE_COUNT = 3;

		@Bean
		LettuceClientOptionsBuilderCustomizer retryAfterRedisKeepAlive(
				ObjectProvider<DataRedisProperties> redisProperties) {
			return (builder) -> {
				SocketOptions.Builder socket = SocketOptions.builder()
					.keepAlive(SocketOptions.KeepAliveOptions.builder()
						.enable()
						.idle(KEEPALIVE_IDLE)
						.interval(KEEPALIVE_INTERVAL)
						.count(KEEPALIVE_COUNT)
						.build());
				// The customizer replaces Boot's socket options: keep its connect timeout.
				DataRedisProperties properties = redisProperties.getIfAvailable();
				Duration connectTimeout = (properties != null) ? properties.getConnectTimeout() : null;
				if (connectTimeout != null) {
					socket.connectTimeout(connectTimeout);
				}
				builder.socketOptions(socket.build());
			};
		}

	}

}
