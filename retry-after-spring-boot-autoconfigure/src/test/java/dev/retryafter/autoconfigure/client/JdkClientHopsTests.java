package dev.retryafter.autoconfigure.client;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.retryafter.call.HopReportingHttpClient;
import org.junit.jupiter.api.Test;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring's JDK factory is rebuilt around a client that tells the last hop, with every setting
 * it had; anything else, or a class whose fields are not the ones this was written against, is
 * left as it is. The JDK connector: {@code SentRequestConnectorCustomizerTests}.
 */
class JdkClientHopsTests {

	private final HttpClient jdk = HttpClient.newHttpClient();

	@Test
	void whenTheFactoryIsSpringsJdkFactoryThenItIsRebuiltAroundAReportingClientWithItsSettings() {
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(this.jdk);
		factory.setReadTimeout(Duration.ofSeconds(7));
		factory.enableCompression(false);
		ClientHttpRequestFactory rebuilt = JdkClientHops.reporting(factory);
		assertThat(rebuilt).isInstanceOf(JdkClientHttpRequestFactory.class).isNotSameAs(factory);
		Map<String, Object> before = JdkClientHops.read(factory, JdkClientHops.FACTORY_FIELDS);
		Map<String, Object> after = JdkClientHops.read(rebuilt, JdkClientHops.FACTORY_FIELDS);
		assertThat(after.get("httpClient")).isInstanceOfSatisfying(HopReportingHttpClient.class,
				(client) -> assertThat(client.delegate()).isSameAs(this.jdk));
		assertThat(after.get("executor")).isSameAs(before.get("executor"));
		assertThat(after.get("readTimeout")).isEqualTo(Duration.ofSeconds(7));
		assertThat(after.get("compression")).isEqualTo(false);
		// Rebuilding twice wraps once.
		assertThat(JdkClientHops.reporting(rebuilt)).isSameAs(rebuilt);
	}

	@Test
	void whenTheFactoryIsAnotherThenItIsLeftAsItIs() {
		SimpleClientHttpRequestFactory simple = new SimpleClientHttpRequestFactory();
		assertThat(JdkClientHops.reporting(simple)).isSameAs(simple);
		JdkClientHttpRequestFactory subclass = new JdkClientHttpRequestFactory(this.jdk) {
		};
		assertThat(JdkClientHops.reporting(subclass)).isSameAs(subclass);
	}

	@Test
	void whenAClassHasOtherFieldsThanExpectedThenNothingIsReadOrChanged() {
		assertThat(JdkClientHops.read(new Unexpected(), List.of("httpClient", "readTimeout"))).isNull();
		assertThat(JdkClientHops.read(new Unexpected(), List.of("httpClient"))).isNull();
	}

	static final class Unexpected {

		HttpClient httpClient = HttpClient.newHttpClient();

		Duration readTimeout = Duration.ofSeconds(1);

		boolean somethingNew;

	}

}
