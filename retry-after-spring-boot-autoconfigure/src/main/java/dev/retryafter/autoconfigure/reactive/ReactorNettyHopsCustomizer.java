package dev.retryafter.autoconfigure.reactive;

import dev.retryafter.reactive.ReactorNettyHops;

import org.springframework.boot.http.client.autoconfigure.reactive.ClientHttpConnectorBuilderCustomizer;
import org.springframework.boot.http.client.reactive.ReactorClientHttpConnectorBuilder;

/**
 * Makes the Reactor Netty clients Spring Boot builds report each hop of a request
 * ({@link ReactorNettyHops}), so that a response after a redirect to another origin is charged
 * to that origin.
 */
final class ReactorNettyHopsCustomizer implements ClientHttpConnectorBuilderCustomizer<ReactorClientHttpConnectorBuilder> {

	@Override
	public ReactorClientHttpConnectorBuilder customize(ReactorClientHttpConnectorBuilder builder) {
		return builder.withHttpClientCustomizer(ReactorNettyHops::reporting);
	}

}
