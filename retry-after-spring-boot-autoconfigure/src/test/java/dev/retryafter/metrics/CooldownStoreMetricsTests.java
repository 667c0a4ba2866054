package dev.retryafter.metrics;

import java.time.Duration;

import dev.retryafter.autoconfigure.metrics.RetryAfterMetricsAutoConfiguration;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.store.MessageRejection;
import dev.retryafter.testsupport.FakeClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class CooldownStoreMetricsTests {

	private final FakeClock clock = new FakeClock();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void whenOriginsAreCoolingDownThenTheGaugeCountsThem() {
		LocalCooldownStore store = new LocalCooldownStore(new OriginProtection(10));
		new CooldownStoreMetrics(store, this.clock).bindTo(this.registry);
		record(store, "a.example", Duration.ofSeconds(1));
		record(store, "b.example", Duration.ofSeconds(5));

		assertThat(this.registry.get("http.client.retry.cooldown.hosts").gauge().value()).isEqualTo(2.0);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.registry.get("http.client.retry.cooldown.hosts").gauge().value()).isEqualTo(1.0);
	}

	@Test
	void whenTheStoreFailsThenErrorsAreCountedWithTheStoreTag() {
		CooldownStore failing = new CooldownStore() {

			private final OriginProtection cooldowns = new OriginProtection(10);

			@Override
			public String name() {
				return "redis";
			}

			@Override
			public void record(CooldownKey origin, Duration delay, long nowNanos) {
			}

			@Override
			public OriginProtection protection() {
				return this.cooldowns;
			}

			@Override
			public long errorCount() {
				return 3;
			}

			@Override
			public long droppedCount() {
				return 5;
			}

			@Override
			public long rejectedCount(MessageRejection reason) {
				return reason.ordinal() + 7;
			}

			@Override
			public long quotaFallbackCount() {
				return 11;
			}

			@Override
			public long pacingFallbackCount() {
				return 13;
			}

		};
		new CooldownStoreMetrics(failing, this.clock).bindTo(this.registry);

		assertThat(this.registry.get("http.client.retry.store.errors").tag("store", "redis").functionCounter().count())
			.isEqualTo(3.0);
		assertThat(this.registry.get("http.client.retry.store.dropped").tag("store", "redis").functionCounter().count())
			.isEqualTo(5.0);
		assertThat(this.registry.get("http.client.retry.store.rejected").tags("store", "redis", "reason", "signature")
			.functionCounter()
			.count()).isEqualTo(7.0);
		assertThat(this.registry.get("http.client.retry.store.rejected").tags("store", "redis", "reason", "stale")
			.functionCounter()
			.count()).isEqualTo(8.0);
		assertThat(this.registry.get("http.client.retry.store.rejected").tags("store", "redis", "reason", "replayed")
			.functionCounter()
			.count()).isEqualTo(9.0);
		assertThat(this.registry.find("http.client.retry.store.rejected").functionCounters()).hasSize(3);
		assertThat(this.registry.get("http.client.retry.store.quota.fallbacks")
			.tags("store", "redis", "reason", "quota")
			.functionCounter()
			.count()).isEqualTo(11.0);
		assertThat(this.registry.get("http.client.retry.store.quota.fallbacks")
			.tags("store", "redis", "reason", "pacing")
			.functionCounter()
			.count()).isEqualTo(13.0);
	}

	@Test
	void whenAutoConfiguredThenTheLocalStoreIsMetered() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
					RetryAfterMetricsAutoConfiguration.class))
			.withBean(CooldownStore.class, () -> new LocalCooldownStore(new OriginProtection(10)))
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("http.client.retry.cooldown.hosts").gauge().value()).isEqualTo(0.0);
				assertThat(registry.get("http.client.retry.store.errors")
					.tag("store", "local")
					.functionCounter()
					.count()).isEqualTo(0.0);
			});
	}

	private void record(CooldownStore store, String host, Duration delay) {
		store.record(CooldownKey.of(Origin.of("http", host, -1)), delay, this.clock.nanoTime());
	}

}
