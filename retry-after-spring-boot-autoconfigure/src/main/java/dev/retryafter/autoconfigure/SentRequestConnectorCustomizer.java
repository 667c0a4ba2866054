package dev.retryafter.autoconfigure;

import dev.retryafter.core.RetryClients;
import dev.retryafter.reactive.SentRequestConnector;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.core.Ordered;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Gives every {@link WebClient.Builder} Spring Boot builds the connector Spring Boot built,
 * seen through a {@link SentRequestConnector}, the innermost element that sees each request as
 * it is sent, when some client keeps cooldowns: the application's filters, which run after the
 * retry filter, may add the partition headers ({@code cooldown.partition-headers}), and the
 * transport may follow a redirect to another origin, which its response is then charged to.
 * With cooldowns off everywhere, or without Spring Boot's connector, the builder is left as it
 * is.
 * <p>
 * It runs after Spring Boot's own customizer, which sets the same connector unwrapped.
 */
final class SentRequestConnectorCustomizer implements WebClientCustomizer, Ordered {

	private final RetryClients clients;

	private final ObjectProvider<ClientHttpConnector> connector;

	SentRequestConnectorCustomizer(RetryClients clients, ObjectProvider<ClientHttpConnector> connector) {
		this.clients = clients;
		this.connector = connector;
	}

	@Override
	public void customize(WebClient.Builder webClientBuilder) {
		if (!SentRequestFactoryCustomizer.cooling(this.clients)) {
			return;
		}
		ClientHttpConnector connector = this.connector.getIfAvailable();
		if (connector != null) {
			webClientBuilder.clientConnector(new SentRequestConnector(connector));
		}
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
