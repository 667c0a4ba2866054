package dev.retryafter.actuate;

import java.util.List;

import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetrySettings;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryAfterEndpointAutoConfiguration}.
 */
class RetryAfterEndpointAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterEndpointAutoConfiguration.class));

	private final ApplicationContextRunner withClients = this.contextRunner.withBean(RetryClients.class,
			() -> RetryClients.of(RetrySettings.defaults()));

	@Test
	void whenExposedThenEndpointPresent() {
		this.withClients.withPropertyValues("management.endpoints.web.exposure.include=retryafter")
			.run((context) -> {
				assertThat(context).hasSingleBean(RetryAfterEndpoint.class);
				assertThat(context.getBean(RetryAfterEndpoint.class).retryAfter().cooldowns()).isEmpty();
			});
	}

	@Test
	void whenRuntimeStateBeanPresentThenEndpointShowsIt() {
		RetryAfterRuntimeState state = new RetryAfterRuntimeState() {

			@Override
			public List<CooldownDescriptor> cooldowns() {
				return List.of(new CooldownDescriptor("default", "http://127.0.0.1:8080", "1s"));
			}

		};
		this.withClients.withBean(RetryAfterRuntimeState.class, () -> state)
			.withPropertyValues("management.endpoints.web.exposure.include=retryafter")
			.run((context) -> assertThat(context.getBean(RetryAfterEndpoint.class).retryAfter().cooldowns())
				.containsExactly(
						new RetryAfterRuntimeState.CooldownDescriptor("default", "http://127.0.0.1:8080", "1s")));
	}

	@Test
	void shouldBackOffIfNotExposed() {
		this.withClients.run((context) -> assertThat(context).doesNotHaveBean(RetryAfterEndpoint.class));
	}

	@Test
	void shouldBackOffIfEndpointDisabled() {
		this.withClients
			.withPropertyValues("management.endpoints.web.exposure.include=retryafter",
					"management.endpoint.retryafter.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RetryAfterEndpoint.class));
	}

	@Test
	void shouldBackOffIfRetryClientsMissing() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=retryafter")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(RetryAfterEndpoint.class));
	}

	@Test
	void shouldBackOffIfRetryAfterDisabled() {
		this.withClients.withPropertyValues("management.endpoints.web.exposure.include=retryafter",
				"retry-after.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RetryAfterEndpoint.class));
	}

	@Test
	void shouldBackOffIfActuatorIsNotOnTheClasspath() {
		this.withClients.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
			.withPropertyValues("management.endpoints.web.exposure.include=retryafter")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(RetryAfterEndpoint.class));
	}

}
