package dev.retryafter.client;

import dev.retryafter.call.OutermostPlacement;

import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.core.Ordered;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestTemplate;

/**
 * Adds the {@link RetryAfterInterceptor} to a {@link RestTemplate} as its first (outermost)
 * interceptor, so every interceptor added by the application runs once per attempt.
 * <p>
 * It orders itself {@link Ordered#LOWEST_PRECEDENCE}, so it runs after the application's own
 * customizers and still ends up in front of the interceptors they add. Applying it twice
 * leaves a single interceptor.
 *
 * @since 0.1.0
 */
public class RetryAfterRestTemplateCustomizer extends OutermostPlacement<ClientHttpRequestInterceptor>
		implements RestTemplateCustomizer {

	/**
	 * Creates a customizer adding {@code interceptor}.
	 * @param interceptor the retry interceptor
	 */
	public RetryAfterRestTemplateCustomizer(RetryAfterInterceptor interceptor) {
		super(interceptor, RetryAfterInterceptor.class);
	}

	@Override
	public void customize(RestTemplate restTemplate) {
		// The live list is edited in place: RestTemplate.setInterceptors would re-sort it.
		putFirst(restTemplate.getInterceptors());
	}

}
