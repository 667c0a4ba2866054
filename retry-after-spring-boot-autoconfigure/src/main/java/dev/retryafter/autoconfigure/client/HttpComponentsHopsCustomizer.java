package dev.retryafter.autoconfigure.client;

import dev.retryafter.client.TransportHops;
import org.apache.hc.core5.net.URIAuthority;

import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.core.Ordered;

/**
 * Reports each hop of a request that Apache HttpClient 5 sends, redirects included, to
 * {@link TransportHops}, so that a response from the origin a redirect led to is charged to
 * that origin, not to the one the request was sent to. HttpClient runs a request's hops on the
 * calling thread, where the request factory waits for them. It runs before the
 * {@link SentRequestFactoryCustomizer}, which hands on a builder of another kind.
 */
final class HttpComponentsHopsCustomizer
		implements ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder>, Ordered {

	@Override
	public HttpComponentsClientHttpRequestFactoryBuilder customize(HttpComponentsClientHttpRequestFactoryBuilder builder) {
		return builder.withHttpClientCustomizer((httpClient) -> httpClient.addRequestInterceptorLast((request, entity,
				context) -> {
			URIAuthority authority = request.getAuthority();
			if (authority != null) {
				TransportHops.hop(request.getScheme(), authority.getHostName(), authority.getPort());
			}
		}));
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE - 1;
	}

}
