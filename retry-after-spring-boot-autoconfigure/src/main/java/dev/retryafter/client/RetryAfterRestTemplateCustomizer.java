package dev.retryafter.client;

import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.web.client.RestTemplate;

/**
 * Adds the {@link RetryAfterInterceptor} to a {@link RestTemplate} as its first interceptor.
 *
 * @since 0.1.0
 */
public class RetryAfterRestTemplateCustomizer implements RestTemplateCustomizer {

	private final RetryAfterInterceptor interceptor;

	/**
	 * Creates a customizer adding {@code interceptor}.
	 * @param interceptor the retry interceptor
	 */
	public RetryAfterRestTemplateCustomizer(RetryAfterInterceptor interceptor) {
		this.interceptor = interceptor;
	}

	@Override
	public void customize(RestTemplate restTemplate) {
		restTemplate.getInterceptors().add(0, this.interceptor);
	}

}
