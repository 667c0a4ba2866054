package dev.retryafter.autoconfigure.reactive;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;

import dev.retryafter.autoconfigure.client.JdkClientHops;
import dev.retryafter.call.HopReportingHttpClient;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.reactive.SentRequestConnector;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.ResponseCookie;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Gives every {@link WebClient.Builder} Spring Boot builds the connector Spring Boot built,
 * seen through a {@link SentRequestConnector}, the innermost element that sees each request as
 * it is sent, when some client keeps cooldowns: the application's filters, which run after the
 * retry filter, may add the partition headers ({@code cooldown.partition-headers}), and the
 * transport may follow a redirect to another origin, which its response is then charged to
 * (Spring's JDK connector is rebuilt around a {@link HopReportingHttpClient} for that).
 * With cooldowns off everywhere, or without Spring Boot's connector, the builder is left as it
 * is.
 * <p>
 * It runs after Spring Boot's own customizer, which sets the same connector unwrapped.
 */
final class SentRequestConnectorCustomizer implements WebClientCustomizer, Ordered {

	private final ClientSettingsCatalog clients;

	private final ObjectProvider<ClientHttpConnector> connector;

	SentRequestConnectorCustomizer(ClientSettingsCatalog clients, ObjectProvider<ClientHttpConnector> connector) {
		this.clients = clients;
		this.connector = connector;
	}

	@Override
	public void customize(WebClient.Builder webClientBuilder) {
		if (!cooling(this.clients)) {
			return;
		}
		ClientHttpConnector connector = this.connector.getIfAvailable();
		if (connector != null) {
			webClientBuilder.clientConnector(new SentRequestConnector(reporting(connector)));
		}
	}

	/**
	 * The connector, around a client that tells each response's last hop, when it is
	 * Spring's JDK connector (see {@link JdkClientHops} for why its fields are read).
	 * @param connector the connector Spring Boot built
	 * @return an equal connector around a {@link HopReportingHttpClient}, or {@code connector}
	 */
	static ClientHttpConnector reporting(ClientHttpConnector connector) {
		if (connector.getClass() != JdkClientHttpConnector.class) {
			return connector;
		}
		Map<String, @Nullable Object> fields = JdkClientHops.read(connector, JdkClientHops.CONNECTOR_FIELDS);
		if (fields == null || !(fields.get("httpClient") instanceof HttpClient client)
				|| !(fields.get("bufferFactory") instanceof DataBufferFactory bufferFactory)
				|| !(fields.get("cookieParser") instanceof ResponseCookie.Parser cookieParser)) {
			return connector;
		}
		if (client instanceof HopReportingHttpClient) {
			return connector;
		}
		JdkClientHttpConnector rebuilt = new JdkClientHttpConnector(new HopReportingHttpClient(client));
		rebuilt.setBufferFactory(bufferFactory);
		rebuilt.setCookieParser(cookieParser);
		if (fields.get("readTimeout") instanceof Duration readTimeout) {
			rebuilt.setReadTimeout(readTimeout);
		}
		return rebuilt;
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	/**
	 * Whether any client keeps cooldowns, whose keys the request as sent decides: the same
	 * test as the blocking factory customizer's, which lives in the parent package.
	 */
	private static boolean cooling(ClientSettingsCatalog clients) {
		return clients.all().stream().anyMatch((client) -> client.settings().cooldown().enabled());
	}

}
