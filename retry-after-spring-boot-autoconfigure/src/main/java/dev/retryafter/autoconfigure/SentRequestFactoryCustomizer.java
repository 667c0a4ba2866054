package dev.retryafter.autoconfigure;

import dev.retryafter.client.SentRequestFactory;
import dev.retryafter.core.RetryClients;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.core.Ordered;

/**
 * Makes every request factory Spring Boot builds a {@link SentRequestFactory}, the innermost
 * element that sees each request as it is sent, when a client splits its cooldowns by request
 * headers ({@code cooldown.partition-headers}): the application's interceptors, which run after
 * the retry interceptor, may add those headers. Without partition headers the builder is left
 * as it is.
 * <p>
 * It runs last ({@link Ordered#LOWEST_PRECEDENCE}): a customizer for one kind of builder
 * (Apache HttpClient's, the JDK's) must still meet the builder it expects.
 */
final class SentRequestFactoryCustomizer
		implements ClientHttpRequestFactoryBuilderCustomizer<ClientHttpRequestFactoryBuilder<?>>, Ordered {

	private final RetryClients clients;

	SentRequestFactoryCustomizer(RetryClients clients) {
		this.clients = clients;
	}

	@Override
	public ClientHttpRequestFactoryBuilder<?> customize(ClientHttpRequestFactoryBuilder<?> builder) {
		if (!partitioned(this.clients)) {
			return builder;
		}
		return (settings) -> new SentRequestFactory(builder.build(settings));
	}

	/**
	 * Whether any client splits its cooldowns by request headers.
	 * @param clients the settings per named client
	 * @return whether the request as sent decides some cooldown key
	 */
	static boolean partitioned(RetryClients clients) {
		return clients.all()
			.stream()
			.anyMatch((client) -> client.settings().cooldown().enabled()
					&& !client.settings().cooldown().partitionHeaders().isEmpty());
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
