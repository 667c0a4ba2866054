package dev.retryafter.autoconfigure.client;

import dev.retryafter.call.JettyHops;

import org.springframework.boot.http.client.JettyClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.core.Ordered;

/**
 * Makes the Jetty clients Spring Boot builds for blocking request factories tell the last hop
 * of each request ({@link JettyHops}), so that a response after a redirect to another origin
 * is charged to that origin, not to the one the request was sent to. It runs before the
 * {@link SentRequestFactoryCustomizer}, which hands on a builder of another kind. WebClient's
 * Jetty connector needs no customizer: its requests hand out the Jetty request they send.
 */
final class JettyHopsCustomizer
		implements ClientHttpRequestFactoryBuilderCustomizer<JettyClientHttpRequestFactoryBuilder>, Ordered {

	@Override
	public JettyClientHttpRequestFactoryBuilder customize(JettyClientHttpRequestFactoryBuilder builder) {
		return builder.withHttpClientCustomizer(JettyHops::reporting);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE - 1;
	}

}
