package dev.retryafter.autoconfigure.client;

import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.redis.RetryAfterRedisAutoConfiguration;
import dev.retryafter.call.RecordedBytes;
import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.client.RetryAfterRestClientCustomizer;
import dev.retryafter.client.RetryAfterRestClientGroupConfigurer;
import dev.retryafter.client.RetryAfterRestTemplateCustomizer;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.spi.CallTime;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.CooldownStore;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestTemplate;

/**
 * Auto-configuration of the blocking adapter: contributes the {@link RetryAfterInterceptor}
 * to every {@code RestClient.Builder} and {@code RestTemplateBuilder} Spring Boot builds (and
 * so to its HTTP service clients), on the settings, cooldown store, retry budgets and listeners
 * of {@link RetryAfterAutoConfiguration}, and customizes the request factories Boot builds:
 * the transport's own retries switched off, each request seen as it is sent, and the hops of
 * a redirect reported.
 * <p>
 * The calls run on the system's clocks and park the calling thread while they wait, unless a
 * {@link CallTime} bean says otherwise (a test's virtual time). Ordered after
 * {@link RetryAfterAutoConfiguration}, whose beans it uses, and before Boot's HTTP client
 * auto-configurations so that its customizers are defined when those build their factories
 * and builders.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { RetryAfterAutoConfiguration.class, RetryAfterRedisAutoConfiguration.class },
		beforeName = {
				"org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration",
				"org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration",
				"org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration",
				"org.springframework.boot.restclient.autoconfigure.service.HttpServiceClientAutoConfiguration" })
@ConditionalOnClass(ClientHttpRequestInterceptor.class)
@ConditionalOnBooleanProperty(name = "retry-after.enabled", matchIfMissing = true)
public final class RetryAfterRestClientAutoConfiguration {

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

}
