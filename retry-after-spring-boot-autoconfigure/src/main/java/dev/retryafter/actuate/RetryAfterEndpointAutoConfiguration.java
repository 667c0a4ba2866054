package dev.retryafter.actuate;

import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryClients;
import dev.retryafter.store.CooldownStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code retryafter} Actuator endpoint, when Actuator is on the classpath, the endpoint is
 * available (enabled and exposed), and the main auto-configuration defined the clients.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "dev.retryafter.autoconfigure.RetryAfterAutoConfiguration")
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBooleanProperty(name = "retry-after.enabled", matchIfMissing = true)
public final class RetryAfterEndpointAutoConfiguration {

	// The endpoint condition sits on the method, not the class: its condition class lives in
	// Actuator, and a class-level condition would be loaded before @ConditionalOnClass had a
	// chance to skip this configuration.
	@Bean
	@ConditionalOnAvailableEndpoint
	@ConditionalOnMissingBean
	@ConditionalOnBean(RetryClients.class)
	RetryAfterEndpoint retryAfterEndpoint(RetryClients retryClients, ObjectProvider<RetryAfterRuntimeState> state) {
		return new RetryAfterEndpoint(retryClients, state.getIfAvailable(() -> RetryAfterRuntimeState.NONE));
	}

	@Bean
	@ConditionalOnAvailableEndpoint(RetryAfterEndpoint.class)
	@ConditionalOnMissingBean(RetryAfterRuntimeState.class)
	@ConditionalOnBean({ RetryClients.class, CooldownStore.class, RetryBudgets.class })
	OriginProtectionState originProtectionState(RetryClients retryClients, CooldownStore cooldownStore,
			RetryBudgets retryBudgets) {
		return new OriginProtectionState(retryClients, cooldownStore, retryBudgets);
	}

}
