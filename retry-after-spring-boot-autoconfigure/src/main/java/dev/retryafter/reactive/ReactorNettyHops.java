package dev.retryafter.reactive;

import java.net.URI;

import reactor.netty.http.client.HttpClient;

/**
 * Makes a Reactor Netty client report each hop of a request, redirects included, to the
 * {@link SentRequestConnector} that sends it, so that a response from the origin a redirect led
 * to is charged to that origin, not to the one the request was sent to.
 *
 * @since 0.3.0
 */
public final class ReactorNettyHops {

	private ReactorNettyHops() {
	}

	/**
	 * Adds the hop report to {@code client}.
	 * @param client the client Spring Boot builds
	 * @return the client, reporting each response's URL
	 */
	public static HttpClient reporting(HttpClient client) {
		return client.doOnResponse((response, connection) -> {
			if (response.currentContextView().getOrDefault(ResponseHops.KEY, null) instanceof ResponseHops hops) {
				try {
					hops.hop(URI.create(response.resourceUrl()));
				}
				catch (IllegalArgumentException ex) {
					// A URL no origin can be read from: the request's own origin is charged.
				}
			}
		});
	}

}
