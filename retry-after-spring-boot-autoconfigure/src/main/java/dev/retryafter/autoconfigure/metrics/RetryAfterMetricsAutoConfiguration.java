package dev.retryafter.autoconfigure.metrics;

import dev.retryafter.call.RecordedBytes;
import dev.retryafter.metrics.CooldownStoreMetrics;
import dev.retryafter.metrics.RecordedBytesMetrics;
import dev.retryafter.metrics.RetryAfterMetrics;
import dev.retryafter.spi.CallTime;
import dev.retryafter.store.CooldownStore;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Records the {@code http.client.retry.*} meters when Micrometer is on the classpath and a
 * {@link MeterRegistry} bean exists. The adapters' auto-configurations hand every
 * {@link dev.retryafter.core.RetryListener} bean to the interceptor, so declaring the bean is
 * all it takes. The cooldown gauge and the store error counter come from the
 * {@link CooldownStore}, bound like any other {@code MeterBinder}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class },
		afterName = "dev.retryafter.autoconfigure.RetryAfterAutoConfiguration")
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "retry-after.enabled", matchIfMissing = true)
public final class RetryAfterMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RetryAfterMetrics retryAfterMetrics(MeterRegistry meterRegistry) {
		return new RetryAfterMetrics(meterRegistry);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(CooldownStore.class)
	CooldownStoreMetrics cooldownStoreMetrics(CooldownStore cooldownStore, ObjectProvider<CallTime> callTime) {
		CallTime time = callTime.getIfAvailable();
		return (time != null) ? new CooldownStoreMetrics(cooldownStore, time.monotonicClock())
				: new CooldownStoreMetrics(cooldownStore);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(RecordedBytes.class)
	RecordedBytesMetrics recordedBytesMetrics(RecordedBytes recordedBytes) {
		return new RecordedBytesMetrics(recordedBytes);
	}

}
