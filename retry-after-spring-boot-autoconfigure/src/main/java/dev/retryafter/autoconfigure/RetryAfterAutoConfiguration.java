package dev.retryafter.autoconfigure;

import dev.retryafter.call.RecordedBytes;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.spi.CallTime;
import dev.retryafter.springretry.BackOffPolicyRetryDetector;
import dev.retryafter.springretry.RetryAfterBackOffPolicy;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.service.registry.HttpServiceProxyRegistry;

/**
 * Auto-configuration of the Retry-After aware retries: the beans every adapter shares, on the
 * {@code retry-after.*} properties. These are the settings per named client, origin
 * protection (a {@link CooldownStore}, in this instance unless
 * {@link dev.retryafter.autoconfigure.redis.RetryAfterRedisAutoConfiguration} shares it
 * through Redis, and one retry budget per named client) and the bound on the bytes kept for
 * retries; with spring-retry, a back-off policy on the same settings. A named client applies
 * to the hosts it lists and to the HTTP service group of its name. The adapters'
 * auto-configurations, ordered after this one, use these beans: {@code autoconfigure.client}
 * for {@code RestClient} and {@code RestTemplate}, {@code autoconfigure.reactive} for
 * {@code WebClient}.
 * <p>
 * Ordered before Boot's HTTP client auto-configurations, as the blocking adapter's is, so that
 * the beans those customizers take are defined first.
 *
 * @since 0.1.0
 */
@AutoConfiguration(beforeName = {
		"org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration",
		"org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration",
		"org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration",
		"org.springframework.boot.restclient.autoconfigure.service.HttpServiceClientAutoConfiguration" })
@ConditionalOnClass(ClientHttpRequestInterceptor.class)
@ConditionalOnBooleanProperty(name = "retry-after.enabled", matchIfMissing = true)
@EnableConfigurationProperties(RetryAfterProperties.class)
public final class RetryAfterAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ClientSettingsCatalog retryClients(RetryAfterProperties properties) {
		return new RetryAfterSettingsMapper(properties).map();
	}

	/**
	 * On the clock of the {@link CallTime} bean when there is one (a test's virtual time), so
	 * that a budget's window slides as the calls' time does.
	 */
	@Bean
	@ConditionalOnMissingBean
	RetryBudgets retryBudgets(ClientSettingsCatalog retryClients, ObjectProvider<CallTime> callTime) {
		CallTime time = callTime.getIfAvailable();
		return new RetryBudgets(retryClients, (time != null) ? time.monotonicClock() : MonotonicClock.SYSTEM);
	}

	/**
	 * Takes {@code retryClients} only so that the properties are validated (with messages
	 * naming them) before {@code max-hosts} and {@code max-duration} are used here.
	 */
	@Bean
	@ConditionalOnMissingBean(CooldownStore.class)
	LocalCooldownStore localCooldownStore(RetryAfterProperties properties, ClientSettingsCatalog retryClients) {
		if (properties.getStore() == RetryAfterProperties.Store.REDIS) {
			// Starting with local cooldowns would leave every instance believing it shares them.
			throw new InvalidConfigurationPropertyValueException(RetryAfterSettingsMapper.PREFIX + ".store", "redis",
					"needs Spring Data Redis and a RedisConnectionFactory bean (spring-boot-starter-data-redis "
							+ "and spring.data.redis.*), and none is present; set retry-after.store to local to "
							+ "keep cooldowns in this instance");
		}
		CooldownStoreSettings storeSettings = new CooldownStoreSettings(properties);
		return new LocalCooldownStore(storeSettings.hostCooldowns(), storeSettings.localSecret());
	}

	/**
	 * A named client without hosts is checked against the HTTP service groups once they
	 * exist, whichever client types they use.
	 */
	@Bean
	HttpServiceGroupCheck retryAfterHttpServiceGroupCheck(ClientSettingsCatalog retryClients,
			ObjectProvider<HttpServiceProxyRegistry> registry) {
		return new HttpServiceGroupCheck(retryClients, registry);
	}

	/**
	 * The one bound on the bytes every adapter's calls keep for retries, shared by the
	 * blocking interceptor and the WebClient filter.
	 */
	@Bean
	@ConditionalOnMissingBean
	RecordedBytes retryAfterRecordedBytes(RetryAfterProperties properties) {
		return new RecordedBytes(new RetryAfterSettingsMapper(properties).maxRecordedBytes());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.retry.backoff.BackOffPolicy")
	static class SpringRetryConfiguration {

		/**
		 * Backs off when the application defines any {@code BackOffPolicy} of its own, so an
		 * injection point of that type never becomes ambiguous.
		 */
		@Bean
		@ConditionalOnMissingBean(type = "org.springframework.retry.backoff.BackOffPolicy")
		RetryAfterBackOffPolicy retryAfterBackOffPolicy(ClientSettingsCatalog retryClients) {
			return new RetryAfterBackOffPolicy(retryClients.defaults().settings());
		}

		/**
		 * Lets the interceptor send a single attempt per attempt of a template that backs off
		 * with {@link RetryAfterBackOffPolicy}, whoever built that policy.
		 */
		@Bean
		@ConditionalOnMissingBean
		BackOffPolicyRetryDetector backOffPolicyRetryDetector() {
			return new BackOffPolicyRetryDetector();
		}

	}

}
