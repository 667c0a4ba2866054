package dev.retryafter.autoconfigure.reactive;

import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.redis.RetryAfterRedisAutoConfiguration;
import dev.retryafter.call.RecordedBytes;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.reactive.RetryAfterExchangeFilter;
import dev.retryafter.reactive.RetryAfterWebClientCustomizer;
import dev.retryafter.reactive.RetryAfterWebClientGroupConfigurer;
import dev.retryafter.reactive.WaitScheduler;
import dev.retryafter.spi.CallTime;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.CooldownStore;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Auto-configuration of the reactive adapter: contributes the {@link RetryAfterExchangeFilter}
 * to every {@code WebClient.Builder} Spring Boot builds (and so to its reactive HTTP service
 * clients), on the same settings, cooldown store, retry budgets and listeners as the
 * blocking clients, so a {@code WebClient} and a {@code RestClient} calling one origin share
 * its cooldown and its client's budget.
 * <p>
 * Only when Spring WebFlux and Boot's {@code spring-boot-webclient} are on the class path:
 * without them nothing in {@code dev.retryafter.reactive} is loaded. Ordered after
 * {@link RetryAfterAutoConfiguration}, whose beans it uses, and before Boot's
 * {@code WebClient} auto-configurations.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { RetryAfterAutoConfiguration.class, RetryAfterRedisAutoConfiguration.class },
		beforeName = { "org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration",
				"org.springframework.boot.webclient.autoconfigure.service.ReactiveHttpServiceClientAutoConfiguration" })
@ConditionalOnClass({ WebClient.class, WebClientCustomizer.class })
@ConditionalOnBooleanProperty(name = "retry-after.enabled", matchIfMissing = true)
@ConditionalOnBean({ ClientSettingsCatalog.class, CooldownStore.class, RetryBudgets.class, RecordedBytes.class })
public final class RetryAfterWebClientAutoConfiguration {

	/**
	 * On the {@link CallTime} bean's clocks when there is one, its waits timed on the
	 * {@link WaitScheduler} bean's scheduler (Reactor's parallel one without it).
	 */
	@Bean
	@ConditionalOnMissingBean
	RetryAfterExchangeFilter retryAfterExchangeFilter(ClientSettingsCatalog retryClients,
			ObjectProvider<RetryListener> listeners, CooldownStore cooldownStore, RetryBudgets retryBudgets,
			ObjectProvider<OuterRetryDetector> detectors, RecordedBytes recordedBytes,
			ObjectProvider<CallTime> callTime, ObjectProvider<WaitScheduler> waitScheduler) {
		RetryListener listener = RetryListener.composite(listeners.orderedStream().toList());
		OuterRetryDetector outerRetry = OuterRetryDetector.anyOf(detectors.orderedStream().toList());
		CallTime time = callTime.getIfAvailable();
		if (time == null) {
			return new RetryAfterExchangeFilter(retryClients, listener, cooldownStore, retryBudgets, outerRetry,
					recordedBytes);
		}
		WaitScheduler scheduler = waitScheduler.getIfAvailable(() -> Schedulers::parallel);
		return new RetryAfterExchangeFilter(retryClients, listener, cooldownStore, retryBudgets, outerRetry,
				recordedBytes, time, scheduler.scheduler());
	}

	@Bean
	SentRequestConnectorCustomizer sentRequestConnectorCustomizer(ClientSettingsCatalog retryClients,
			ObjectProvider<ClientHttpConnector> connector) {
		return new SentRequestConnectorCustomizer(retryClients, connector);
	}

	@Bean
	@ConditionalOnMissingBean
	RetryAfterWebClientCustomizer retryAfterWebClientCustomizer(RetryAfterExchangeFilter retryAfterExchangeFilter) {
		return new RetryAfterWebClientCustomizer(retryAfterExchangeFilter);
	}

	@Bean
	@ConditionalOnMissingBean
	RetryAfterWebClientGroupConfigurer retryAfterWebClientGroupConfigurer(ClientSettingsCatalog retryClients) {
		return new RetryAfterWebClientGroupConfigurer(retryClients);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "reactor.netty.http.client.HttpClient",
			"org.springframework.boot.http.client.reactive.ReactorClientHttpConnectorBuilder",
			"org.springframework.boot.http.client.autoconfigure.reactive.ClientHttpConnectorBuilderCustomizer" })
	static class ReactorNettyConfiguration {

		@Bean
		ReactorNettyHopsCustomizer reactorNettyHopsCustomizer() {
			return new ReactorNettyHopsCustomizer();
		}

	}

}
