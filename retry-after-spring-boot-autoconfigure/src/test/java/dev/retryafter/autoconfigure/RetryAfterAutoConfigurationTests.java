package dev.retryafter.autoconfigure;

import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.springretry.RetryAfterBackOffPolicy;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.service.HttpServiceClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.retry.backoff.BackOffPolicy;
import org.springframework.retry.backoff.FixedBackOffPolicy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryAfterAutoConfiguration}.
 */
class RetryAfterAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class));

	@Test
	void shouldBackOffIfUserDefinesRetryClients() {
		this.contextRunner.withUserConfiguration(UserRetryClientsConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(ClientSettingsCatalog.class)
				.getBean(ClientSettingsCatalog.class)
				.isSameAs(context.getBean("userRetryClients")));
	}

	@Test
	void shouldBackOffIfUserDefinesAnyBackOffPolicy() {
		this.contextRunner.withUserConfiguration(UserBackOffPolicyConfiguration.class)
			.run((context) -> assertThat(context).doesNotHaveBean(RetryAfterBackOffPolicy.class)
				.hasSingleBean(BackOffPolicy.class));
	}

	@Test
	void shouldBuildBackOffPolicyFromDefaultClientSettings() {
		this.contextRunner.withUserConfiguration(UserRetryClientsConfiguration.class)
			.run((context) -> assertThat(context.getBean(RetryAfterBackOffPolicy.class))
				.extracting("settings.maxAttempts")
				.isEqualTo(7));
	}

	@Test
	void shouldBeListedInAutoConfigurationImports() {
		assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()))
			.contains(RetryAfterAutoConfiguration.class.getName());
	}

	@Test
	void shouldBeOrderedBeforeBootClientAutoConfigurationsThatExist() {
		AutoConfiguration annotation = RetryAfterAutoConfiguration.class.getAnnotation(AutoConfiguration.class);
		assertThat(annotation.beforeName()).containsExactlyInAnyOrder(
				ImperativeHttpClientAutoConfiguration.class.getName(), RestClientAutoConfiguration.class.getName(),
				RestTemplateAutoConfiguration.class.getName(), HttpServiceClientAutoConfiguration.class.getName());
	}

	@Configuration(proxyBeanMethods = false)
	static class UserRetryClientsConfiguration {

		@Bean
		ClientSettingsCatalog userRetryClients() {
			return ClientSettingsCatalog.of(RetrySettings.defaults().withMaxAttempts(7));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserBackOffPolicyConfiguration {

		@Bean
		FixedBackOffPolicy userBackOffPolicy() {
			return new FixedBackOffPolicy();
		}

	}


}
