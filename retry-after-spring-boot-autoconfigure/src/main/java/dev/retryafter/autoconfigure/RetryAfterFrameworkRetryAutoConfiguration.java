package dev.retryafter.autoconfigure;

import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;

import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetryListener;
import dev.retryafter.frameworkretry.FrameworkRetryDetector;
import dev.retryafter.frameworkretry.OuterRetries;
import dev.retryafter.frameworkretry.RetriedMethodInterceptor;
import dev.retryafter.frameworkretry.RetriedMethodsPostProcessor;
import dev.retryafter.frameworkretry.RetryAfterReactorRetry;
import dev.retryafter.frameworkretry.RetryAfterRetryPolicy;
import dev.retryafter.frameworkretry.RetryAfterRetryTemplate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.resilience.annotation.RetryAnnotationBeanPostProcessor;
import org.springframework.web.client.RestClientResponseException;

/**
 * Auto-configuration of the Spring Framework 7 retry adapter, on the same settings, retry
 * budgets and listeners as the HTTP client adapters: a {@code retryAfterRetryPolicy} for
 * {@link RetryTemplate}, a {@code retryAfterRetryTemplate} on it, a Reactor {@code Retry} spec
 * for {@code WebClient} calls, and the detector through which the interceptor steps aside
 * inside them.
 * <p>
 * With {@code @EnableResilientMethods} (Spring's {@code RetryAnnotationBeanPostProcessor}
 * present), it also adds {@link RetriedMethodInterceptor} inside the {@code @Retryable} advice;
 * without it, that part is not even loaded.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { RetryAfterAutoConfiguration.class, RetryAfterRedisAutoConfiguration.class })
@ConditionalOnClass({ RetryPolicy.class, RestClientResponseException.class })
@ConditionalOnBooleanProperty(name = "retry-after.enabled", matchIfMissing = true)
@ConditionalOnBean({ RetryClients.class, RetryBudgets.class })
public final class RetryAfterFrameworkRetryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	OuterRetries outerRetries(RetryClients retryClients, RetryBudgets retryBudgets,
			ObjectProvider<RetryListener> listeners) {
		return new OuterRetries(retryClients, retryBudgets, RetryListener.composite(listeners.orderedStream().toList()),
				MonotonicClock.SYSTEM, Clock.systemUTC(), () -> ThreadLocalRandom.current().nextLong());
	}

	/**
	 * Backs off when the application defines any {@code RetryPolicy} of its own, so an
	 * injection point of that type never becomes ambiguous.
	 */
	@Bean
	@ConditionalOnMissingBean(RetryPolicy.class)
	RetryAfterRetryPolicy retryAfterRetryPolicy(OuterRetries outerRetries) {
		return new RetryAfterRetryPolicy(outerRetries);
	}

	/**
	 * Backs off when the application defines a {@code RetryTemplate} of its own.
	 */
	@Bean
	@ConditionalOnMissingBean(RetryTemplate.class)
	@ConditionalOnBean(RetryAfterRetryPolicy.class)
	RetryAfterRetryTemplate retryAfterRetryTemplate(RetryAfterRetryPolicy retryAfterRetryPolicy) {
		return new RetryAfterRetryTemplate(retryAfterRetryPolicy);
	}

	/**
	 * Lets the interceptor send one attempt per attempt of Spring Framework's retry.
	 */
	@Bean
	@ConditionalOnMissingBean
	FrameworkRetryDetector frameworkRetryDetector() {
		return new FrameworkRetryDetector();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(RetryAnnotationBeanPostProcessor.class)
	static class RetryableMethodsConfiguration {

		/**
		 * Static, and given only a provider: a post-processor is created before other beans.
		 * Declared as a {@code BeanPostProcessor}, so that reading this class's methods (as a
		 * context does for a configuration given as a class) loads no class of the advice.
		 */
		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static BeanPostProcessor retriedMethodsPostProcessor(ObjectProvider<OuterRetries> outerRetries) {
			// Resolved on the first invocation and kept: not a bean lookup per attempt.
			return new RetriedMethodsPostProcessor(
					new RetriedMethodInterceptor(SingletonSupplier.of(outerRetries::getObject)));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "reactor.util.retry.Retry",
			"org.springframework.web.reactive.function.client.WebClientResponseException" })
	static class ReactorConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RetryAfterReactorRetry retryAfterReactorRetry(OuterRetries outerRetries) {
			return new RetryAfterReactorRetry(outerRetries);
		}

	}

}
