package dev.retryafter.autoconfigure.client;

import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.core.Ordered;

/**
 * Switches off Apache HttpClient 5's own retries ({@code DefaultHttpRequestRetryStrategy},
 * which repeats 429 and 503 responses and some I/O failures once) in the request factories
 * Spring Boot builds. The retry interceptor is then the only retry layer, so attempts and waits
 * never multiply: a client retries at one layer only. It runs before the
 * {@link SentRequestFactoryCustomizer}, which hands on a builder of another kind.
 *
 * @since 0.1.0
 */
final class HttpComponentsNoRetryCustomizer
		implements ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder>, Ordered {

	@Override
	public HttpComponentsClientHttpRequestFactoryBuilder customize(HttpComponentsClientHttpRequestFactoryBuilder builder) {
		return builder.withHttpClientCustomizer((httpClient) -> httpClient.disableAutomaticRetries());
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE - 1;
	}

}
