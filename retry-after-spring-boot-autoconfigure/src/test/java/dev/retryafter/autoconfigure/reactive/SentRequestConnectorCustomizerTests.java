package dev.retryafter.autoconfigure.reactive;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;

import dev.retryafter.autoconfigure.client.JdkClientHops;
import dev.retryafter.call.HopReportingHttpClient;
import org.junit.jupiter.api.Test;

import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.JdkClientHttpConnector;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring's JDK connector is rebuilt around a client that tells the last hop, with every
 * setting it had, as {@code JdkClientHopsTests} shows for the blocking factory.
 */
class SentRequestConnectorCustomizerTests {

	private final HttpClient jdk = HttpClient.newHttpClient();

	@Test
	void whenTheConnectorIsSpringsJdkConnectorThenItIsRebuiltAroundAReportingClientWithItsSettings() {
		JdkClientHttpConnector connector = new JdkClientHttpConnector(this.jdk);
		connector.setReadTimeout(Duration.ofSeconds(7));
		ClientHttpConnector rebuilt = SentRequestConnectorCustomizer.reporting(connector);
		assertThat(rebuilt).isInstanceOf(JdkClientHttpConnector.class).isNotSameAs(connector);
		Map<String, Object> before = JdkClientHops.read(connector, JdkClientHops.CONNECTOR_FIELDS);
		Map<String, Object> after = JdkClientHops.read(rebuilt, JdkClientHops.CONNECTOR_FIELDS);
		assertThat(after.get("httpClient")).isInstanceOfSatisfying(HopReportingHttpClient.class,
				(client) -> assertThat(client.delegate()).isSameAs(this.jdk));
		assertThat(after.get("bufferFactory")).isSameAs(before.get("bufferFactory"));
		assertThat(after.get("cookieParser")).isSameAs(before.get("cookieParser"));
		assertThat(after.get("readTimeout")).isEqualTo(Duration.ofSeconds(7));
	}

}
