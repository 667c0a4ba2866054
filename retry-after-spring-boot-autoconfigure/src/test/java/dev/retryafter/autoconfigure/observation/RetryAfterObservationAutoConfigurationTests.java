package dev.retryafter.autoconfigure.observation;

import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.observation.DefaultRetryAttemptObservationConvention;
import dev.retryafter.observation.RetryAfterObservations;
import dev.retryafter.observation.RetryAttemptContext;
import dev.retryafter.observation.RetryAttemptObservationConvention;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.micrometer.tracing.handler.TracingObservationHandler;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When {@link RetryAfterObservationAutoConfiguration} observes attempts and waits: only with
 * an {@link ObservationRegistry} bean, unless switched off, and with the application's own
 * conventions when it declares them.
 */
class RetryAfterObservationAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(RetryAfterAutoConfiguration.class,
					RetryAfterRestClientAutoConfiguration.class, RetryAfterObservationAutoConfiguration.class));

	@Test
	void shouldBackOffIfObservationRegistryIsMissing() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(RetryAfterInterceptor.class);
			assertThat(context).doesNotHaveBean(RetryAfterObservations.class);
		});
	}

	@Test
	void whenAnObservationRegistryExistsThenAttemptsAreObserved() {
		this.contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
			.run((context) -> assertThat(context.getBean(RetryAfterObservations.class).watchesCalls()).isTrue());
	}

	@Test
	void whenObservationsAreSwitchedOffThenNoneAreMade() {
		this.contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
			.withPropertyValues("retry-after.observations.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RetryAfterObservations.class));
	}

	@Test
	void whenRetryAfterIsSwitchedOffThenNoneAreMade() {
		this.contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
			.withPropertyValues("retry-after.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RetryAfterObservations.class));
	}

	@Test
	void whenTheApplicationDefinesItsOwnObservationsThenTheyAreKept() {
		RetryAfterObservations own = new RetryAfterObservations(ObservationRegistry.NOOP);
		this.contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
			.withBean(RetryAfterObservations.class, () -> own)
			.run((context) -> assertThat(context.getBean(RetryAfterObservations.class)).isSameAs(own));
	}

	@Test
	void whenTheApplicationDeclaresAConventionThenTheAttemptsUseIt() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		this.contextRunner.withBean(ObservationRegistry.class, () -> registry)
			.withBean(RetryAttemptObservationConvention.class, () -> new DefaultRetryAttemptObservationConvention() {

				@Override
				public String getName() {
					return "outbound.attempt";
				}

				@Override
				public KeyValues getLowCardinalityKeyValues(RetryAttemptContext context) {
					return KeyValues.of("client", context.getClient());
				}

			})
			.run((context) -> {
				Observation parent = Observation.start("call", registry);
				// As Micrometer Tracing's handler leaves it: a tracer follows the call.
				parent.getContext()
					.put(TracingObservationHandler.TracingContext.class, new TracingObservationHandler.TracingContext());
				try (Observation.Scope scope = parent.openScope()) {
					RetryListener.Call call = context.getBean(RetryAfterObservations.class)
						.callStarted("default", "GET", null);
					call.attemptStarted(1);
					call.attemptEnded(1, new AttemptOutcome.Response(200, RetryAfter.ABSENT),
							new RetryDecision.Stop(StopReason.SUCCESS));
				}
				parent.stop();
				TestObservationRegistryAssert.assertThat(registry)
					.hasObservationWithNameEqualTo("outbound.attempt")
					.that()
					.hasLowCardinalityKeyValue("client", "default")
					.doesNotHaveLowCardinalityKeyValueWithKey("status")
					.hasParentObservationEqualTo(parent);
			});
	}

}
