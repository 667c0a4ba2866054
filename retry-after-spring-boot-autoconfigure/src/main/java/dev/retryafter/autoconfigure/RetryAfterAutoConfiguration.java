package dev.retryafter.autoconfigure;

import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.client.RetryAfterRestClientCustomizer;
import dev.retryafter.client.RetryAfterRestTemplateCustomizer;
import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetryListener;
import dev.retryafter.springretry.RetryAfterBackOffPolicy;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;

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
 * spring-retry back-off policy on the same settings.
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
	RetryClients retryClients(RetryAfterProperties properties) {
		return new RetryAfterSettingsMapper(properties).map();
	}

	@Bean
	@ConditionalOnMissingBean
	RetryAfterInterceptor retryAfterInterceptor(RetryClients retryClients, ObjectProvider<RetryListener> listeners) {
		return new RetryAfterInterceptor(retryClients, RetryListener.composite(listeners.orderedStream().toList()));
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

	}

}
