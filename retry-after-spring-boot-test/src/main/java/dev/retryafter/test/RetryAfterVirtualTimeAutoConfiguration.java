package dev.retryafter.test;

import dev.retryafter.reactive.WaitScheduler;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The beans of {@link AutoConfigureRetryAfterVirtualTime}: a {@link VirtualRetryTime}, which
 * the retry auto-configuration takes as the time every call runs on; with Reactor, the
 * scheduler on that time for the {@code WebClient} filter's timers; and a
 * {@link RetryRecorder}. Imported by the annotation only, never by
 * {@code @EnableAutoConfiguration}.
 *
 * @since 0.2.0
 */
@AutoConfiguration(beforeName = { "dev.retryafter.autoconfigure.RetryAfterAutoConfiguration",
		"dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration",
		"dev.retryafter.autoconfigure.reactive.RetryAfterWebClientAutoConfiguration" })
public final class RetryAfterVirtualTimeAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	VirtualRetryTime virtualRetryTime() {
		return new VirtualRetryTime();
	}

	@Bean
	@ConditionalOnMissingBean
	RetryRecorder retryRecorder() {
		return new RetryRecorder();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "reactor.core.scheduler.Scheduler")
	static class ReactorConfiguration {

		/** The timers' tasks still run on Reactor's parallel scheduler, as the filter's do. */
		@Bean
		@ConditionalOnMissingBean
		WaitScheduler virtualWaitScheduler(VirtualRetryTime virtualRetryTime) {
			Scheduler scheduler = new VirtualWaitScheduler(virtualRetryTime, Schedulers.parallel());
			return () -> scheduler;
		}

	}

}
