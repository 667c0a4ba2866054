package dev.retryafter.autoconfigure.client;

import dev.retryafter.client.SentRequestFactory;
import dev.retryafter.core.ClientSettingsCatalog;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.core.Ordered;

/**
 * Makes every request factory Spring Boot builds a {@link SentRequestFactory}, the innermost
 * element that sees each request as it is sent, when some client keeps cooldowns: the
 * application's interceptors, which run after the retry interceptor, may add the partition
 * headers ({@code cooldown.partition-headers}), and the transport may follow a redirect to
 * another origin, which its response is then charged to (the JDK factory is rebuilt around a
 * {@code HopReportingHttpClient} for that, see {@link JdkClientHops}). With cooldowns off
 * everywhere the builder is left as it is.
 * <p>
 * It runs last ({@link Ordered#LOWEST_PRECEDENCE}): a customizer for one kind of builder
 * (Apache HttpClient's, the JDK's) must still meet the builder it expects.
 */
final class SentRequestFactoryCustomizer
		implements ClientHttpRequestFactoryBuilderCustomizer<ClientHttpRequestFactoryBuilder<?>>, Ordered {

	private final ClientSettingsCatalog clients;

	SentRequestFactoryCustomizer(ClientSettingsCatalog clients) {
		this.clients = clients;
	}

	@Override
	public ClientHttpRequestFactoryBuilder<?> customize(ClientHttpRequestFactoryBuilder<?> builder) {
		if (!cooling(this.clients)) {
			return builder;
		}
		return (settings) -> new SentRequestFactory(JdkClientHops.reporting(builder.build(settings)));
	}

	/**
	 * Whether any client keeps cooldowns, whose keys the request as sent decides.
	 * @param clients the settings per named client
	 * @return whether some client's cooldowns are on
	 */
	static boolean cooling(ClientSettingsCatalog clients) {
		return clients.all().stream().anyMatch((client) -> client.settings().cooldown().enabled());
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
