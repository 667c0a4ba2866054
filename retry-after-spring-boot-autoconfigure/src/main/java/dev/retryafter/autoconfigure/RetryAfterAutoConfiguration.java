package dev.retryafter.autoconfigure;

import dev.retryafter.call.RecordedBytes;
import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.client.RetryAfterRestClientCustomizer;
import dev.retryafter.client.RetryAfterRestClientGroupConfigurer;
import dev.retryafter.client.RetryAfterRestTemplateCustomizer;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.spi.CallTime;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.springretry.BackOffPolicyRetryDetector;
import dev.retryafter.springretry.RetryAfterBackOffPolicy;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.service.registry.HttpServiceProxyRegistry;

/**
 * Auto-configuration of the Retry-After aware retries: contributes the retry interceptor to
 * every {@code RestClient.Builder} and {@code RestTemplateBuilder} Spring Boot builds (and so to
 * its HTTP service clients), switches off the transport's own retries, and offers a
 * spring-retry back-off policy on the same settings. Origin protection comes with it: a
 * {@link CooldownStore} (in this instance, unless {@link RetryAfterRedisAutoConfiguration}
 * shares it through Redis) and one retry budget per named client. A named client applies to
 * the hosts it lists and to the HTTP service group of its name.
 * <p>
 * The calls run on the system's clocks and park the calling thread while they wait, unless a
 * {@link CallTime} bean says otherwise (a test's virtual time).
 * <p>
 * Ordered before Boot's HTTP client auto-configurations so that its customizers are defined
 * when those build their factories and builders.
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
		return new LocalCooldownStore(new RetryAfterSettingsMapper(properties).hostCooldowns(),
				PartitionSecrets.forLocalStore(properties));
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

	@Bean
	@ConditionalOnMissingBean
	RetryAfterInterceptor retryAfterInterceptor(ClientSettingsCatalog retryClients, ObjectProvider<RetryListener> listeners,
			CooldownStore cooldownStore, RetryBudgets retryBudgets, ObjectProvider<OuterRetryDetector> detectors,
			RecordedBytes recordedBytes, ObjectProvider<CallTime> callTime) {
		RetryListener listener = RetryListener.composite(listeners.orderedStream().toList());
		OuterRetryDetector outerRetry = OuterRetryDetector.anyOf(detectors.orderedStream().toList());
		CallTime time = callTime.getIfAvailable();
		return (time != null)
				? new RetryAfterInterceptor(retryClients, listener, cooldownStore, retryBudgets, outerRetry,
						recordedBytes, time)
				: new RetryAfterInterceptor(retryClients, listener, cooldownStore, retryBudgets, outerRetry,
						recordedBytes);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RestClientCustomizer.class)
	static class RestClientConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RetryAfterRestClientCustomizer retryAfterRestClientCustomizer(RetryAfterInterceptor retryAfterInterceptor) {
			return new RetryAfterRestClientCustomizer(retryAfterInterceptor);
		}

		@Bean
		@ConditionalOnMissingBean
		RetryAfterRestClientGroupConfigurer retryAfterRestClientGroupConfigurer(ClientSettingsCatalog retryClients) {
			return new RetryAfterRestClientGroupConfigurer(retryClients);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ RestTemplateCustomizer.class, RestTemplate.class })
	static class RestTemplateConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RetryAfterRestTemplateCustomizer retryAfterRestTemplateCustomizer(RetryAfterInterceptor retryAfterInterceptor) {
			return new RetryAfterRestTemplateCustomizer(retryAfterInterceptor);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ HttpClientBuilder.class, HttpComponentsClientHttpRequestFactoryBuilder.class,
			ClientHttpRequestFactoryBuilderCustomizer.class })
	static class HttpComponentsConfiguration {

		@Bean
		HttpComponentsNoRetryCustomizer httpComponentsNoRetryCustomizer() {
			return new HttpComponentsNoRetryCustomizer();
		}

		@Bean
		HttpComponentsHopsCustomizer httpComponentsHopsCustomizer() {
			return new HttpComponentsHopsCustomizer();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "org.eclipse.jetty.client.HttpClient",
			"org.springframework.boot.http.client.JettyClientHttpRequestFactoryBuilder",
			"org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer" })
	static class JettyConfiguration {

		@Bean
		JettyHopsCustomizer jettyHopsCustomizer() {
			return new JettyHopsCustomizer();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ClientHttpRequestFactoryBuilderCustomizer.class)
	static class SentRequestConfiguration {

		@Bean
		SentRequestFactoryCustomizer sentRequestFactoryCustomizer(ClientSettingsCatalog retryClients) {
			return new SentRequestFactoryCustomizer(retryClients);
		}

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
