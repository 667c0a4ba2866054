package dev.retryafter.autoconfigure.reactive;

import java.util.ArrayList;
import java.util.List;

import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.reactive.RetryAfterExchangeFilter;
import dev.retryafter.reactive.RetryAfterWebClientCustomizer;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.CooldownStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RetryAfterWebClientAutoConfiguration}: the filter reaches every Boot-built
 * {@code WebClient.Builder}, outermost and once, and nothing reactive loads without WebFlux.
 */
class RetryAfterWebClientAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterWebClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ReactiveHttpClientAutoConfiguration.class, WebClientAutoConfiguration.class));

	@Test
	void whenWebFluxIsPresentThenEveryBootBuiltWebClientBuilderGetsTheFilterFirst() {
		this.contextRunner.withBean("applicationFilters", WebClientCustomizer.class,
				() -> (builder) -> builder.filter((request, next) -> next.exchange(request)))
			.run((context) -> {
				RetryAfterExchangeFilter filter = context.getBean(RetryAfterExchangeFilter.class);
				assertThat(filtersOf(context.getBean(WebClient.Builder.class))).hasSize(2).first().isSameAs(filter);
				assertThat(filtersOf(context.getBean(WebClient.Builder.class))).first().isSameAs(filter);
			});
	}

	@Test
	void whenTheCustomizerRunsTwiceThenTheBuilderHoldsOneFilter() {
		this.contextRunner.run((context) -> {
			WebClient.Builder builder = context.getBean(WebClient.Builder.class);
			context.getBean(RetryAfterWebClientCustomizer.class).customize(builder);
			assertThat(filtersOf(builder)).containsExactly(context.getBean(RetryAfterExchangeFilter.class));
		});
	}

	@Test
	void whenABuilderHoldsAnotherRetryFilterThenItIsLeftAlone() {
		this.contextRunner.run((context) -> {
			RetryAfterExchangeFilter own = context.getBean(RetryAfterExchangeFilter.class);
			WebClient.Builder builder = WebClient.builder().filter(new RetryAfterExchangeFilter(
					context.getBean(ClientSettingsCatalog.class), RetryListener.NONE,
					context.getBean(CooldownStore.class),
					context.getBean(RetryBudgets.class), OuterRetryDetector.NEVER));
			context.getBean(RetryAfterWebClientCustomizer.class).customize(builder);
			assertThat(filtersOf(builder)).hasSize(1).first().isNotSameAs(own);
		});
	}

	@Test
	void whenDisabledThenNoFilterIsAdded() {
		this.contextRunner.withPropertyValues("retry-after.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(RetryAfterExchangeFilter.class)
				.doesNotHaveBean(RetryAfterWebClientCustomizer.class);
			assertThat(filtersOf(context.getBean(WebClient.Builder.class))).isEmpty();
		});
	}

	@Test
	void whenTheApplicationDefinesItsOwnFilterThenTheCustomizerUsesIt() {
		this.contextRunner.withUserConfiguration(OwnFilterConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(RetryAfterExchangeFilter.class);
			assertThat(filtersOf(context.getBean(WebClient.Builder.class))).first()
				.isSameAs(context.getBean("ownFilter"));
		});
	}

	@Test
	void withoutWebFluxThenNothingReactiveLoadsAndTheBlockingClientsKeepTheirInterceptor() {
		this.contextRunner
			.withClassLoader(new FilteredClassLoader("org.springframework.web.reactive", "reactor.",
					"org.springframework.boot.webclient"))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("retryAfterExchangeFilter")
				.doesNotHaveBean("retryAfterWebClientCustomizer")
				.hasSingleBean(RetryAfterInterceptor.class));
	}

	@Test
	void withoutBootsWebClientModuleThenNoCustomizerIsDefined() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(WebClientCustomizer.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("retryAfterExchangeFilter")
				.hasSingleBean(RetryAfterInterceptor.class));
	}

	private static List<ExchangeFilterFunction> filtersOf(WebClient.Builder builder) {
		List<ExchangeFilterFunction> filters = new ArrayList<>();
		builder.filters(filters::addAll);
		return filters;
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnFilterConfiguration {

		@Bean
		RetryAfterExchangeFilter ownFilter(ClientSettingsCatalog clients,
				CooldownStore cooldowns, RetryBudgets budgets) {
			return new RetryAfterExchangeFilter(clients, RetryListener.NONE, cooldowns, budgets, OuterRetryDetector.NEVER);
		}

	}

}
