package dev.retryafter.autoconfigure.metrics;

import java.time.Duration;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.metrics.RetryAfterMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryAfterMetricsAutoConfiguration}.
 */
class RetryAfterMetricsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterMetricsAutoConfiguration.class));

	@Test
	void whenMeterRegistryPresentThenMetricsRecordToIt() {
		this.contextRunner.withBean(SimpleMeterRegistry.class).run((context) -> {
			assertThat(context).hasSingleBean(RetryAfterMetrics.class);
			context.getBean(RetryAfterMetrics.class)
				.attemptCompleted("default", "GET", 1, new AttemptOutcome.Response(503, RetryAfter.ABSENT),
						new RetryDecision.Stop(StopReason.MAX_ATTEMPTS));
			assertThat(context.getBean(MeterRegistry.class)
				.get("http.client.retry.abandoned")
				.tags("client", "default", "reason", "max-attempts")
				.counter()
				.count()).isEqualTo(1.0);
		});
	}

	@Test
	void whenBootMetricsAutoConfiguredThenMetricsBeanPresent() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(RetryAfterMetrics.class);
				context.getBean(RetryAfterMetrics.class)
					.waited("default", Duration.ofMillis(10), Duration.ofMillis(12));
				assertThat(context.getBean(MeterRegistry.class)
					.get("http.client.retry.delay.actual")
					.tags("client", "default")
					.timer()
					.count()).isEqualTo(1);
			});
	}

	@Test
	void shouldBackOffIfMeterRegistryIsMissing() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(RetryAfterMetrics.class));
	}

	@Test
	void shouldBackOffIfMicrometerIsNotOnTheClasspath() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("io.micrometer"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(RetryAfterMetrics.class));
	}

	@Test
	void shouldBackOffIfDisabled() {
		this.contextRunner.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("retry-after.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RetryAfterMetrics.class));
	}

	@Test
	void shouldBackOffIfUserDefinesMetrics() {
		this.contextRunner.withUserConfiguration(UserMetricsConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(RetryAfterMetrics.class)
				.hasBean("customRetryAfterMetrics"));
	}

	@Configuration(proxyBeanMethods = false)
	static class UserMetricsConfiguration {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		RetryAfterMetrics customRetryAfterMetrics(MeterRegistry meterRegistry) {
			return new RetryAfterMetrics(meterRegistry);
		}

	}

}
