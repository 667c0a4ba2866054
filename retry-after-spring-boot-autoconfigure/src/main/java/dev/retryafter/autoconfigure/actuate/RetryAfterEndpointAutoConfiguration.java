package dev.retryafter.autoconfigure.actuate;

import dev.retryafter.actuate.RetryAfterEndpoint;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.spi.CallTime;
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
 * available (enabled and exposed), and the main auto-configuration defined the clients, the
 * cooldown store and the retry budgets.
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
	@ConditionalOnBean({ ClientSettingsCatalog.class, CooldownStore.class, RetryBudgets.class })
	RetryAfterEndpoint retryAfterEndpoint(ClientSettingsCatalog retryClients, CooldownStore cooldownStore,
			RetryBudgets retryBudgets, ObjectProvider<CallTime> callTime) {
		CallTime time = callTime.getIfAvailable();
		return (time != null) ? new RetryAfterEndpoint(retryClients, cooldownStore, retryBudgets, time)
				: new RetryAfterEndpoint(retryClients, cooldownStore, retryBudgets);
	}

}
