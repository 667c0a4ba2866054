package dev.retryafter.autoconfigure;

import java.util.List;

import dev.retryafter.call.OuterRetryDetector;
import dev.retryafter.call.RetriedInvocation;
import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.client.RetryAfterRestClientCustomizer;
import dev.retryafter.client.RetryAfterRestTemplateCustomizer;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetryListener;
import dev.retryafter.springretry.BackOffPolicyRetryDetector;
import dev.retryafter.springretry.RetryAfterBackOffPolicy;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestTemplate;

/**
 * Auto-configuration of the Retry-After aware retries: contributes the retry interceptor to
 * every {@code RestClient.Builder} and {@code RestTemplateBuilder} Spring Boot builds (and so to
 * its HTTP service clients), switches off the transport's own retries, and offers a
 * spring-retry back-off policy on the same settings. Origin protection comes with it: a
 * {@link CooldownStore} (in this instance, unless {@link RetryAfterRedisAutoConfiguration}
 * shares it through Redis) and one retry budget per named client.
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

	private static final Log logger = LogFactory.getLog(RetryAfterAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	RetryClients retryClients(RetryAfterProperties properties) {
		return new RetryAfterSettingsMapper(properties).map();
	}

	@Bean
	@ConditionalOnMissingBean
	RetryBudgets retryBudgets(RetryClients retryClients) {
		return new RetryBudgets(retryClients, MonotonicClock.SYSTEM);
	}

	/**
	 * Takes {@code retryClients} only so that the properties are validated (with messages
	 * naming them) before {@code max-hosts} and {@code max-duration} are used here.
	 */
	@Bean
	@ConditionalOnMissingBean(CooldownStore.class)
	LocalCooldownStore localCooldownStore(RetryAfterProperties properties, RetryClients retryClients) {
		if (properties.getStore() == RetryAfterProperties.Store.REDIS) {
			logger.warn("retry-after.store is 'redis' but Spring Data Redis or a RedisConnectionFactory bean is "
					+ "missing: host cooldowns are kept in this instance only");
		}
		return new LocalCooldownStore(new RetryAfterSettingsMapper(properties).hostCooldowns(),
				PartitionSecrets.forLocalStore(properties));
	}

	@Bean
	@ConditionalOnMissingBean
	RetryAfterInterceptor retryAfterInterceptor(RetryClients retryClients, ObjectProvider<RetryListener> listeners,
			CooldownStore cooldownStore, RetryBudgets retryBudgets, ObjectProvider<OuterRetryDetector> detectors) {
		return new RetryAfterInterceptor(retryClients, RetryListener.composite(listeners.orderedStream().toList()),
				cooldownStore, retryBudgets, anyOf(detectors.orderedStream().toList()));
	}

	/**
	 * Any detector seeing an outer retry layer is enough; without one (no spring-retry), the
	 * interceptor always retries by itself.
	 */
	static OuterRetryDetector anyOf(List<OuterRetryDetector> detectors) {
		if (detectors.isEmpty()) {
			return OuterRetryDetector.NEVER;
		}
		if (detectors.size() == 1) {
			return detectors.get(0);
		}
		return new OuterRetryDetector() {

			@Override
			public boolean isOuterRetryActive() {
				return detectors.stream().anyMatch(OuterRetryDetector::isOuterRetryActive);
			}

			@Override
			public @Nullable RetriedInvocation invocation() {
				for (OuterRetryDetector detector : detectors) {
					RetriedInvocation invocation = detector.invocation();
					if (invocation != null) {
						return invocation;
					}
				}
				return null;
			}

		};
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RestClientCustomizer.class)
	static class RestClientConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RetryAfterRestClientCustomizer retryAfterRestClientCustomizer(RetryAfterInterceptor retryAfterInterceptor) {
			return new RetryAfterRestClientCustomizer(retryAfterInterceptor);
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
	@ConditionalOnClass(ClientHttpRequestFactoryBuilderCustomizer.class)
	static class SentRequestConfiguration {

		@Bean
		SentRequestFactoryCustomizer sentRequestFactoryCustomizer(RetryClients retryClients) {
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
		RetryAfterBackOffPolicy retryAfterBackOffPolicy(RetryClients retryClients) {
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
