package dev.retryafter.autoconfigure.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.RetryAfterProperties;
import dev.retryafter.autoconfigure.redis.RetryAfterRedisAutoConfiguration;
import dev.retryafter.call.CallContext;
import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.client.RetryAfterRestClientCustomizer;
import dev.retryafter.client.RetryAfterRestTemplateCustomizer;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.springretry.BackOffPolicyRetryDetector;
import dev.retryafter.springretry.RetryAfterBackOffPolicy;
import dev.retryafter.store.LocalCooldownStore;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.service.HttpServiceClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.retry.RetryContext;
import org.springframework.retry.context.RetryContextSupport;
import org.springframework.retry.support.RetrySynchronizationManager;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryAfterRestClientAutoConfiguration}, on the beans of
 * {@link RetryAfterAutoConfiguration} it uses.
 */
class RetryAfterRestClientAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class));

	private final ApplicationContextRunner clientsContextRunner = this.contextRunner
		.withConfiguration(AutoConfigurations.of(HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
				RestTemplateAutoConfiguration.class));

	@Test
	void shouldProvideBeansWithDefaultSettings() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(RetryAfterProperties.class)
				.hasSingleBean(ClientSettingsCatalog.class)
				.hasSingleBean(RetryAfterInterceptor.class)
				.hasSingleBean(RetryAfterRestClientCustomizer.class)
				.hasSingleBean(RetryAfterRestTemplateCustomizer.class)
				.hasSingleBean(HttpComponentsNoRetryCustomizer.class)
				.hasSingleBean(RetryAfterBackOffPolicy.class)
				.hasSingleBean(BackOffPolicyRetryDetector.class);
			assertThat(context.getBean(RetryAfterInterceptor.class)).extracting("context.outerRetry")
				.isSameAs(context.getBean(BackOffPolicyRetryDetector.class));
			ClientSettingsCatalog clients = context.getBean(ClientSettingsCatalog.class);
			assertThat(clients.defaults().settings()).isEqualTo(RetrySettings.defaults());
			assertThat(clients.all()).containsExactly(clients.defaults());
		});
	}

	@Test
	void whenDisabledShouldProvideNoBeans() {
		this.contextRunner.withPropertyValues("retry-after.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RetryAfterProperties.class)
				.doesNotHaveBean(ClientSettingsCatalog.class)
				.doesNotHaveBean(RetryAfterInterceptor.class)
				.doesNotHaveBean(RetryAfterRestClientCustomizer.class)
				.doesNotHaveBean(RetryAfterRestTemplateCustomizer.class)
				.doesNotHaveBean(HttpComponentsNoRetryCustomizer.class)
				.doesNotHaveBean(RetryAfterBackOffPolicy.class)
				.doesNotHaveBean(OuterRetryDetector.class));
	}

	@Test
	void whenExplicitlyEnabledShouldProvideBeans() {
		this.contextRunner.withPropertyValues("retry-after.enabled=true")
			.run((context) -> assertThat(context).hasSingleBean(RetryAfterInterceptor.class));
	}

	@Test
	void shouldBackOffIfUserDefinesInterceptor() {
		this.contextRunner.withUserConfiguration(UserInterceptorConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(RetryAfterInterceptor.class)
				.getBean(RetryAfterInterceptor.class)
				.isSameAs(context.getBean("userInterceptor")));
	}

	@Test
	void shouldBackOffIfUserDefinesRestClientCustomizer() {
		this.contextRunner.withUserConfiguration(UserRestClientCustomizerConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(RetryAfterRestClientCustomizer.class)
				.getBean(RetryAfterRestClientCustomizer.class)
				.isSameAs(context.getBean("userRestClientCustomizer")));
	}

	@Test
	void shouldBackOffIfUserDefinesRestTemplateCustomizer() {
		this.contextRunner.withUserConfiguration(UserRestTemplateCustomizerConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(RetryAfterRestTemplateCustomizer.class)
				.getBean(RetryAfterRestTemplateCustomizer.class)
				.isSameAs(context.getBean("userRestTemplateCustomizer")));
	}

	@Test
	void whenSpringRetryIsMissingShouldStartWithoutBackOffPolicy() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.retry"))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(RetryAfterBackOffPolicy.class)
					.doesNotHaveBean(OuterRetryDetector.class)
					.hasSingleBean(RetryAfterInterceptor.class);
				assertThat(context.getBean(RetryAfterInterceptor.class)).extracting("context.outerRetry")
					.isSameAs(OuterRetryDetector.NEVER);
			});
	}

	@Test
	void whenTheApplicationDefinesADetectorTooThenEitherOneSeeingAnOuterRetryIsEnough() {
		AtomicBoolean applicationSees = new AtomicBoolean();
		this.contextRunner.withBean("applicationDetector", OuterRetryDetector.class, () -> applicationSees::get)
			.run((context) -> {
				assertThat(context).hasSingleBean(BackOffPolicyRetryDetector.class)
					.getBeans(OuterRetryDetector.class)
					.hasSize(2);
				CallContext calls = (CallContext) ReflectionTestUtils
					.getField(context.getBean(RetryAfterInterceptor.class), "context");
				OuterRetryDetector combined = calls.outerRetry();
				assertThat(combined.isOuterRetryActive()).isFalse();
				applicationSees.set(true);
				assertThat(combined.isOuterRetryActive()).isTrue();
				applicationSees.set(false);
				RetryContext marked = new RetryContextSupport(null);
				marked.setAttribute(RetryAfterBackOffPolicy.RETRYING_ATTRIBUTE, Boolean.TRUE);
				RetrySynchronizationManager.register(marked);
				try {
					assertThat(combined.isOuterRetryActive()).isTrue();
				}
				finally {
					RetrySynchronizationManager.clear();
				}
			});
	}

	@Test
	void whenMicrometerIsMissingShouldStart() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("io.micrometer"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(RetryAfterInterceptor.class)
				.hasSingleBean(RetryAfterRestClientCustomizer.class));
	}

	@Test
	void whenHttpClient5IsMissingShouldStartWithoutItsCustomizer() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(HttpClientBuilder.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(HttpComponentsNoRetryCustomizer.class)
				.hasSingleBean(RetryAfterInterceptor.class));
	}

	@Test
	void whenRestClientModuleIsMissingShouldStartWithoutCustomizers() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.boot.restclient"))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(RetryAfterRestClientCustomizer.class)
				.doesNotHaveBean(RetryAfterRestTemplateCustomizer.class)
				.hasSingleBean(RetryAfterInterceptor.class));
	}

	@Test
	void shouldAddInterceptorFirstToBootBuiltRestClientBuilder() {
		this.clientsContextRunner.withUserConfiguration(UserInterceptorConfiguration.class).run((context) -> {
			List<ClientHttpRequestInterceptor> interceptors = new ArrayList<>();
			context.getBean(RestClient.Builder.class)
				.requestInterceptor((request, body, execution) -> execution.execute(request, body))
				.requestInterceptors(interceptors::addAll);
			assertThat(interceptors).hasSize(2).first().isSameAs(context.getBean("userInterceptor"));
		});
	}

	@Test
	void shouldAddInterceptorFirstToBootBuiltRestTemplate() {
		this.clientsContextRunner.withUserConfiguration(UserInterceptorConfiguration.class)
			.run((context) -> assertThat(context.getBean(RestTemplateBuilder.class)
				.additionalInterceptors((request, body, execution) -> execution.execute(request, body))
				.build()
				.getInterceptors()).hasSize(2).first().isSameAs(context.getBean("userInterceptor")));
	}

	@Test
	void shouldBeListedInAutoConfigurationImports() {
		assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()))
			.contains(RetryAfterRestClientAutoConfiguration.class.getName());
	}

	@Test
	void shouldBeOrderedAfterTheSharedBeansAndBeforeBootClientAutoConfigurations() {
		AutoConfiguration annotation = RetryAfterRestClientAutoConfiguration.class
			.getAnnotation(AutoConfiguration.class);
		assertThat(annotation.after()).containsExactlyInAnyOrder(RetryAfterAutoConfiguration.class,
				RetryAfterRedisAutoConfiguration.class);
		assertThat(annotation.beforeName()).containsExactlyInAnyOrder(
				ImperativeHttpClientAutoConfiguration.class.getName(), RestClientAutoConfiguration.class.getName(),
				RestTemplateAutoConfiguration.class.getName(), HttpServiceClientAutoConfiguration.class.getName());
	}

	/** An interceptor built by hand, as an application that declares its own would. */
	private static RetryAfterInterceptor handBuiltInterceptor() {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(RetrySettings.defaults());
		return new RetryAfterInterceptor(clients, RetryListener.NONE,
				new LocalCooldownStore(new OriginProtection(OriginProtection.DEFAULT_MAX_HOSTS)),
				new RetryBudgets(clients, MonotonicClock.SYSTEM), OuterRetryDetector.NEVER);
	}

	@Configuration(proxyBeanMethods = false)
	static class UserInterceptorConfiguration {

		@Bean
		RetryAfterInterceptor userInterceptor() {
			return handBuiltInterceptor();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserRestClientCustomizerConfiguration {

		@Bean
		RetryAfterRestClientCustomizer userRestClientCustomizer() {
			return new RetryAfterRestClientCustomizer(
					handBuiltInterceptor());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserRestTemplateCustomizerConfiguration {

		@Bean
		RetryAfterRestTemplateCustomizer userRestTemplateCustomizer() {
			return new RetryAfterRestTemplateCustomizer(
					handBuiltInterceptor());
		}

	}

}
