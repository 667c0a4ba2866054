package dev.retryafter.reactive;

import dev.retryafter.call.OutermostPlacement;

import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.core.Ordered;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Adds the {@link RetryAfterExchangeFilter} to a {@link WebClient.Builder} as its first
 * (outermost) filter, so every filter added by the application runs once per attempt. Boot
 * applies every {@code WebClientCustomizer} bean to each {@code WebClient.Builder} it builds
 * and to the builders of reactive HTTP service clients, so one bean reaches them all.
 * <p>
 * It orders itself {@link Ordered#LOWEST_PRECEDENCE}, so it runs after the application's own
 * customizers and still ends up in front of the filters they add. Applying it twice leaves a
 * single filter, and a builder that already holds another {@link RetryAfterExchangeFilter}
 * is left alone: its owner configured retries explicitly, and retrying at two layers would
 * multiply attempts.
 *
 * @since 0.1.0
 */
public class RetryAfterWebClientCustomizer extends OutermostPlacement<ExchangeFilterFunction>
		implements WebClientCustomizer {

	/**
	 * Creates a customizer adding {@code filter}.
	 * @param filter the retry filter
	 */
	public RetryAfterWebClientCustomizer(RetryAfterExchangeFilter filter) {
		super(filter, RetryAfterExchangeFilter.class);
	}

	@Override
	public void customize(WebClient.Builder webClientBuilder) {
		webClientBuilder.filters(this::putFirst);
	}

}
