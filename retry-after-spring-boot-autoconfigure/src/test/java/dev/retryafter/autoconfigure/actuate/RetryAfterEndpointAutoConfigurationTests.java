package dev.retryafter.autoconfigure.actuate;

import java.time.Duration;

import dev.retryafter.actuate.RetryAfterEndpoint.CooldownDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
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

	private static final ClientSettingsCatalog CLIENTS = ClientSettingsCatalog.of(RetrySettings.defaults());

	private final ApplicationContextRunner withClients = this.contextRunner.withBean(ClientSettingsCatalog.class, () -> CLIENTS)
		.withBean(CooldownStore.class, () -> new LocalCooldownStore(new OriginProtection(10)))
		.withBean(RetryBudgets.class, () -> new RetryBudgets(CLIENTS, MonotonicClock.SYSTEM));

	@Test
	void whenExposedThenEndpointPresent() {
		this.withClients.withPropertyValues("management.endpoints.web.exposure.include=retryafter")
			.run((context) -> {
				assertThat(context).hasSingleBean(RetryAfterEndpoint.class);
				assertThat(context.getBean(RetryAfterEndpoint.class).retryAfter().cooldowns()).isEmpty();
			});
	}

	@Test
	void whenTheStoreHoldsACooldownThenEndpointShowsIt() {
		this.withClients.withPropertyValues("management.endpoints.web.exposure.include=retryafter").run((context) -> {
			long now = MonotonicClock.SYSTEM.nanoTime();
			context.getBean(CooldownStore.class)
				.record(CooldownKey.of(Origin.of("http", "127.0.0.1", 8080)), Duration.ofHours(1), now);
			assertThat(context.getBean(RetryAfterEndpoint.class).retryAfter().cooldowns()).singleElement()
				.satisfies((cooldown) -> {
					assertThat(cooldown.client()).isEqualTo("default");
					assertThat(cooldown.origin()).isEqualTo("http://127.0.0.1:8080");
					assertThat(cooldown.partition()).isNull();
				});
		});
	}

	@Test
	void shouldBackOffIfTheCooldownStoreIsMissing() {
		this.contextRunner.withBean(ClientSettingsCatalog.class, () -> CLIENTS)
			.withBean(RetryBudgets.class, () -> new RetryBudgets(CLIENTS, MonotonicClock.SYSTEM))
			.withPropertyValues("management.endpoints.web.exposure.include=retryafter")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(RetryAfterEndpoint.class));
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
