package dev.retryafter.autoconfigure;

import dev.retryafter.core.HostCooldowns;
import dev.retryafter.core.RetryClients;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.RedisCooldownStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
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
@ConditionalOnBean(RedisConnectionFactory.class)
@EnableConfigurationProperties(RetryAfterProperties.class)
public final class RetryAfterRedisAutoConfiguration {

	/**
	 * Starts listening at once, in the background; never blocks or fails start-up when Redis
	 * is down. Closed with the context. Takes {@code retryClients} only so that the
	 * properties are validated (with messages naming them) before they are used here.
	 */
	@Bean
	@ConditionalOnMissingBean(CooldownStore.class)
	RedisCooldownStore redisCooldownStore(RedisConnectionFactory redisConnectionFactory,
			RetryAfterProperties properties, RetryClients retryClients) {
		// Errors are counted by the store itself; the metrics read them from there.
		RedisCooldownStore store = new RedisCooldownStore(redisConnectionFactory,
				new HostCooldowns(properties.getCooldown().getMaxHosts(), properties.getCooldown().getMaxDuration()),
				properties.getRedis().getKeyPrefix(),
				() -> {
				});
		store.start();
		return store;
	}

}
