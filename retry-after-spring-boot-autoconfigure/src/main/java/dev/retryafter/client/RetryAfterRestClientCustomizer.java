package dev.retryafter.client;

import dev.retryafter.call.OutermostPlacement;

import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.core.Ordered;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestClient;

/**
 * Adds the {@link RetryAfterInterceptor} to a {@link RestClient.Builder} as its first
 * (outermost) interceptor, so every interceptor added by the application runs once per
 * attempt. Boot applies every {@code RestClientCustomizer} bean to the auto-configured
 * builder and to the builders of HTTP service clients, so one bean reaches them all.
 * <p>
 * It orders itself {@link Ordered#LOWEST_PRECEDENCE}, so it runs after the application's own
 * customizers and still ends up in front of the interceptors they add. Applying it twice
 * leaves a single interceptor.
 *
 * @since 0.1.0
 */
public class RetryAfterRestClientCustomizer extends OutermostPlacement<ClientHttpRequestInterceptor>
		implements RestClientCustomizer {

	/**
	 * Creates a customizer adding {@code interceptor}.
	 * @param interceptor the retry interceptor
	 */
	public RetryAfterRestClientCustomizer(RetryAfterInterceptor interceptor) {
		super(interceptor, RetryAfterInterceptor.class);
	}

	@Override
	public void customize(RestClient.Builder restClientBuilder) {
		restClientBuilder.requestInterceptors(this::putFirst);
	}

}
