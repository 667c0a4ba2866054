package dev.retryafter.autoconfigure;

import java.time.Clock;

import dev.retryafter.actuate.RetryAfterEndpoint;
import dev.retryafter.autoconfigure.actuate.RetryAfterEndpointAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.autoconfigure.metrics.RetryAfterMetricsAutoConfiguration;
import dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration;
import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.Sleeper;
import dev.retryafter.metrics.CooldownStoreMetrics;
import dev.retryafter.reactive.RetryAfterExchangeFilter;
import dev.retryafter.reactive.WaitScheduler;
import dev.retryafter.spi.CallTime;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.RecordingSleeper;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link CallTime} bean is the time every part of the retries runs on (the interceptor's
 * calls and sleeps, the retry budgets, the filter's calls with the {@link WaitScheduler}'s
 * scheduler, the cooldown gauge and the endpoint); without one, the system's.
 */
class CallTimeAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterWebClientAutoConfiguration.class, RetryAfterMetricsAutoConfiguration.class,
				RetryAfterEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=retryafter")
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new);

	@Test
	void whenACallTimeBeanExistsThenEveryClockAndWaitIsItsOwn() {
		FakeClock clock = new FakeClock();
		RecordingSleeper sleeper = new RecordingSleeper(clock);
		CallTime time = new FixedCallTime(clock, clock, sleeper);
		Scheduler scheduler = Schedulers.single();
		this.contextRunner.withBean(CallTime.class, () -> time)
			.withBean(WaitScheduler.class, () -> () -> scheduler)
			.run((context) -> {
				assertThat(context.getBean(RetryBudgets.class).budget("default").ticksOn(clock)).isTrue();
				RetryAfterInterceptor interceptor = context.getBean(RetryAfterInterceptor.class);
				assertThat(interceptor).extracting("sleeper").isSameAs(sleeper);
				assertThat(interceptor).extracting("context.monotonicClock").isSameAs(clock);
				assertThat(interceptor).extracting("context.wallClock").isSameAs(clock);
				RetryAfterExchangeFilter filter = context.getBean(RetryAfterExchangeFilter.class);
				assertThat(filter).extracting("scheduler").isSameAs(scheduler);
				assertThat(filter).extracting("context.monotonicClock").isSameAs(clock);
				assertThat(context.getBean(CooldownStoreMetrics.class)).extracting("clock").isSameAs(clock);
				assertThat(context.getBean(RetryAfterEndpoint.class)).extracting("state.clock").isSameAs(clock);
			});
	}

	@Test
	void withoutACallTimeBeanTheCallsRunOnTheSystemClocksAndTheParallelScheduler() {
		this.contextRunner.run((context) -> {
			assertThat(context.getBean(RetryBudgets.class).budget("default").ticksOn(MonotonicClock.SYSTEM)).isTrue();
			assertThat(context.getBean(RetryAfterInterceptor.class)).extracting("context.monotonicClock")
				.isSameAs(MonotonicClock.SYSTEM);
			assertThat(context.getBean(RetryAfterExchangeFilter.class)).extracting("scheduler")
				.isSameAs(Schedulers.parallel());
			assertThat(context.getBean(CooldownStoreMetrics.class)).extracting("clock").isSameAs(MonotonicClock.SYSTEM);
		});
	}

	private record FixedCallTime(MonotonicClock monotonicClock, Clock wallClock, Sleeper sleeper) implements CallTime {
	}

}
