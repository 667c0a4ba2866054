package dev.retryafter.client;

import java.util.List;

import org.springframework.http.client.ClientHttpRequestInterceptor;

/**
 * Puts the retry interceptor first in an interceptor list, once.
 */
final class InterceptorPlacement {

	private InterceptorPlacement() {
	}

	/**
	 * Moves (or adds) {@code interceptor} to the front of {@code interceptors}. A list that
	 * already holds another {@link RetryAfterInterceptor} is left alone: its owner configured
	 * retries explicitly, and retrying at two layers would multiply attempts.
	 * @param interceptors the mutable interceptor list
	 * @param interceptor the retry interceptor
	 */
	static void putFirst(List<ClientHttpRequestInterceptor> interceptors, RetryAfterInterceptor interceptor) {
		for (ClientHttpRequestInterceptor candidate : interceptors) {
			if (candidate instanceof RetryAfterInterceptor && candidate != interceptor) {
				return;
			}
		}
		interceptors.removeIf((candidate) -> candidate == interceptor);
		interceptors.add(0, interceptor);
	}

}
