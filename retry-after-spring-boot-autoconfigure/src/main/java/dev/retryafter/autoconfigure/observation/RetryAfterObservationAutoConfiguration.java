package dev.retryafter.autoconfigure.observation;

import dev.retryafter.observation.RetryAfterObservations;
import dev.retryafter.observation.RetryAttemptObservationConvention;
import dev.retryafter.observation.RetryWaitObservationConvention;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Observes each attempt and each wait of the calls a tracer follows when an
 * {@link ObservationRegistry} bean exists (Spring Boot's actuator makes one), unless
 * {@code retry-after.observations.enabled} is {@code false}. The adapters' auto-configurations
 * hand every {@link dev.retryafter.core.RetryListener} bean to the interceptor and the
 * {@code WebClient} filter, so declaring the bean is all it takes. A
 * {@link RetryAttemptObservationConvention} or {@link RetryWaitObservationConvention} bean
 * replaces the default names and key values.
 *
 * @since 0.2.0
 */
@AutoConfiguration(afterName = {
		"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
		"dev.retryafter.autoconfigure.RetryAfterAutoConfiguration" })
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "retry-after.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "retry-after.observations.enabled", matchIfMissing = true)
public final class RetryAfterObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RetryAfterObservations retryAfterObservations(ObservationRegistry observationRegistry,
			ObjectProvider<RetryAttemptObservationConvention> attemptConvention,
			ObjectProvider<RetryWaitObservationConvention> waitConvention) {
		return new RetryAfterObservations(observationRegistry, attemptConvention.getIfUnique(),
				waitConvention.getIfUnique());
	}

}
