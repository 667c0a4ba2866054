package dev.retryafter.autoconfigure.redis;

import java.time.Duration;

import dev.retryafter.autoconfigure.CooldownStoreSettings;
import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.RetryAfterProperties;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.RedisCooldownStore;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;
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
			RetryAfterProperties properties, ClientSettingsCatalog retryClients, Environment environment) {
		String keyPrefix = properties.getRedis().getKeyPrefix();
		if (keyPrefix == null) {
			keyPrefix = RedisCooldownStore.defaultKeyPrefix(environment.getProperty("spring.application.name"));
		}
		// Errors are counted by the store itself; the metrics read them from there.
		CooldownStoreSettings storeSettings = new CooldownStoreSettings(properties);
		RedisCooldownStore store = new RedisCooldownStore(redisConnectionFactory, storeSettings.hostCooldowns(),
				keyPrefix, storeSettings.sharedSecret(retryClients));
		store.start();
		return store;
	}

	/**
	 * Turns TCP keepalive on for Boot's Lettuce client, so a connection a network device
	 * dropped without a reset is eventually closed by the operating system as well; the store's
	 * own heartbeat notices it sooner (within 30 s). Only keepalive changes: every other client
	 * and socket option the application set is kept.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ SocketOptions.class, LettuceClientConfigurationBuilderCustomizer.class })
	static final class LettuceKeepAliveConfiguration {

		@Bean
		LettuceKeepAlive retryAfterRedisKeepAlive() {
			return new LettuceKeepAlive();
		}

	}

	/**
	 * Runs after the application's own customizers, which may replace the whole
	 * {@link ClientOptions}, and changes their socket options' keepalive only, and only while
	 * it is Lettuce's default (off in Lettuce 6, probing after 13 s in Lettuce 7): keepalive
	 * options the application chose are kept.
	 */
	static final class LettuceKeepAlive implements LettuceClientConfigurationBuilderCustomizer, Ordered {

		// Probes after 15 s of silence, then every 5 s; the connection is closed after 3 misses.
		static final SocketOptions.KeepAliveOptions KEEPALIVE = SocketOptions.KeepAliveOptions.builder()
			.enable()
			.idle(Duration.ofSeconds(15))
			.interval(Duration.ofSeconds(5))
			.count(3)
			.build();

		@Override
		public void customize(LettuceClientConfigurationBuilder builder) {
			// The builder has no getters: building it is how to read what is set so far.
			ClientOptions options = builder.build().getClientOptions().orElse(null);
			if (options == null || !isLettuceDefault(options.getSocketOptions().getKeepAlive())) {
				return;
			}
			SocketOptions socket = options.getSocketOptions().mutate().keepAlive(KEEPALIVE).build();
			// mutate() keeps the options' type, e.g. ClusterClientOptions for a cluster.
			builder.clientOptions(options.mutate().socketOptions(socket).build());
		}

		private static boolean isLettuceDefault(SocketOptions.KeepAliveOptions keepAlive) {
			SocketOptions.KeepAliveOptions defaults = SocketOptions.builder().build().getKeepAlive();
			return keepAlive.isEnabled() == defaults.isEnabled() && keepAlive.getIdle().equals(defaults.getIdle())
					&& keepAlive.getInterval().equals(defaults.getInterval())
					&& keepAlive.getCount() == defaults.getCount();
		}

		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE;
		}

	}

}
