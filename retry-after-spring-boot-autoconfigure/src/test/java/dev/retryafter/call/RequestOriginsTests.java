package dev.retryafter.call;

import java.net.URI;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RequestOriginsTests {

	@Test
	void whenUriHasNoPortThenOriginUsesTheSchemeDefault() {
		assertThat(RequestOrigins.originText(URI.create("https://API.example.com/orders?id=1")))
			.isEqualTo("https://api.example.com:443");
		assertThat(RequestOrigins.originText(URI.create("http://api.example.com/orders")))
			.isEqualTo("http://api.example.com:80");
		assertThat(RequestOrigins.originText(URI.create("http://user:secret@127.0.0.1:8080/orders")))
			.isEqualTo("http://127.0.0.1:8080");
	}

	@Test
	void whenTheOriginIsAnIpv6LiteralThenItIsWrittenAsTheCooldownsWriteIt() {
		assertThat(RequestOrigins.originText(URI.create("http://[::1]:8080/x"))).isEqualTo("http://[::1]:8080");
	}

	@Test
	void whenNoRequestCouldBeSentThereThenTheTextStillNamesWhatIsKnown() {
		assertThat(RequestOrigins.originText(URI.create("ftp://files.example.com/x"))).isEqualTo("ftp://files.example.com");
		assertThat(RequestOrigins.originText(URI.create("/relative"))).isEqualTo("http://");
	}

}
