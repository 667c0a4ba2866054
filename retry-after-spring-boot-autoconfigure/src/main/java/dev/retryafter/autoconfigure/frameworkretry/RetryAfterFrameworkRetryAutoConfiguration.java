package dev.retryafter.autoconfigure.frameworkretry;

import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;

import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.redis.RetryAfterRedisAutoConfiguration;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryListener;
import dev.retryafter.frameworkretry.FrameworkRetryDetector;
import dev.retryafter.frameworkretry.FrameworkRetryContext;
import dev.retryafter.frameworkretry.RetriedInvocationTaskDecorator;
import dev.retryafter.frameworkretry.RetriedMethodInterceptor;
import dev.retryafter.frameworkretry.RetriedMethodsPostProcessor;
import dev.retryafter.frameworkretry.RetryAfterReactorRetry;
import dev.retryafter.frameworkretry.RetryAfterRetryPolicy;
import dev.retryafter.frameworkretry.RetryAfterRetryTemplate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
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
 * inside them. The policy and the template are reached by name (qualifier), never by type
 * alone: they take no other library's place.
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
@ConditionalOnBean({ ClientSettingsCatalog.class, RetryBudgets.class })
public final class RetryAfterFrameworkRetryAutoConfiguration {

	/** The policy's bean name, the qualifier applications inject it with. */
	static final String RETRY_POLICY = "retryAfterRetryPolicy";

	/** The template's bean name, the qualifier applications inject it with. */
	static final String RETRY_TEMPLATE = "retryAfterRetryTemplate";

	@Bean
	@ConditionalOnMissingBean
	FrameworkRetryContext outerRetries(ClientSettingsCatalog retryClients, RetryBudgets retryBudgets,
			ObjectProvider<RetryListener> listeners) {
		return new FrameworkRetryContext(retryClients, retryBudgets, RetryListener.composite(listeners.orderedStream().toList()),
				MonotonicClock.SYSTEM, Clock.systemUTC(), () -> ThreadLocalRandom.current().nextLong());
	}

	/**
	 * Not a default candidate: an injection point of type {@code RetryPolicy} without a
	 * qualifier never sees it, and Boot's {@code @ConditionalOnMissingBean(RetryPolicy.class)}
	 * ignores it, so another library's policy defined "only when none exists" (Spring AI's,
	 * for one) is still defined and keeps its own settings. Applications reach this one with
	 * {@code @Qualifier("retryAfterRetryPolicy")}; they replace it by defining a bean of that
	 * name.
	 */
	@Bean(defaultCandidate = false)
	@ConditionalOnMissingBean(name = RETRY_POLICY)
	RetryAfterRetryPolicy retryAfterRetryPolicy(FrameworkRetryContext outerRetries) {
		return new RetryAfterRetryPolicy(outerRetries);
	}

	/**
	 * Not a default candidate, for the same reason as the policy: another library's
	 * {@code @ConditionalOnMissingBean RetryTemplate} still defines its template. Reached with
	 * {@code @Qualifier("retryAfterRetryTemplate")}.
	 */
	@Bean(defaultCandidate = false)
	@ConditionalOnMissingBean(name = RETRY_TEMPLATE)
	@ConditionalOnBean(name = RETRY_POLICY)
	RetryAfterRetryTemplate retryAfterRetryTemplate(@Qualifier(RETRY_POLICY) RetryAfterRetryPolicy retryAfterRetryPolicy) {
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

	/**
	 * Carries the invocation to the threads of the executors Boot builds, which apply every
	 * {@code TaskDecorator} bean, composed with the application's own. It must be a default
	 * candidate: Boot collects the decorators through a stream that leaves the others out.
	 * An application replaces it by defining a bean of this type.
	 */
	@Bean
	@ConditionalOnMissingBean
	RetriedInvocationTaskDecorator retriedInvocationTaskDecorator() {
		return new RetriedInvocationTaskDecorator();
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
		static BeanPostProcessor retriedMethodsPostProcessor(ObjectProvider<FrameworkRetryContext> outerRetries) {
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
		RetryAfterReactorRetry retryAfterReactorRetry(FrameworkRetryContext outerRetries) {
			return new RetryAfterReactorRetry(outerRetries);
		}

	}

}
