package dev.retryafter.client;

import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.web.client.RestClient;

/**
 * Adds the {@link RetryAfterInterceptor} to a {@link RestClient.Builder} as its first
 * interceptor, so every attempt passes through the interceptors after it.
 *
 * @since 0.1.0
 */
public class RetryAfterRestClientCustomizer implements RestClientCustomizer {

	private final RetryAfterInterceptor interceptor;

	/**
	 * Creates a customizer adding {@code interceptor}.
	 * @param interceptor the retry interceptor
	 */
	public RetryAfterRestClientCustomizer(RetryAfterInterceptor interceptor) {
		this.interceptor = interceptor;
	}

	@Override
	public void customize(RestClient.Builder builder) {
		builder.requestInterceptors((interceptors) -> interceptors.add(0, this.interceptor));
	}

}
