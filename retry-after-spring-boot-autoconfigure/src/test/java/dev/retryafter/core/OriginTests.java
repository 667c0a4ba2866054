package dev.retryafter.core;

import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class OriginTests {

	@Test
	void whenAPortIsMissingThenTheEffectivePortIsTheSchemesDefault() {
		assertThat(Origin.effectivePort("https", -1)).isEqualTo(443);
		assertThat(Origin.effectivePort("HTTP", -1)).isEqualTo(80);
		assertThat(Origin.effectivePort("https", 8443)).isEqualTo(8443);
		assertThat(Origin.effectivePort("ftp", -1)).isEqualTo(-1);
		assertThat(Origin.effectivePort(null, -1)).isEqualTo(-1);
		assertThat(Origin.of("https", "h", -1)).isEqualTo(Origin.of("https", "h", 443));
	}

	@Test
	void whenCreatedThenSchemeAndHostAreLowerCaseAndDefaultPortsFilledIn() {
		assertThat(Origin.of("HTTP", "Example.COM", -1)).isEqualTo(new Origin("http", "example.com", 80));
		assertThat(Origin.of("https", "example.com", -1)).isEqualTo(new Origin("https", "example.com", 443));
		assertThat(Origin.of("http", "example.com", 80)).isEqualTo(Origin.of("HTTP", "EXAMPLE.com", -1));
	}

	@Test
	void whenPrintedThenSchemeHostAndPort() {
		assertThat(Origin.of("http", "127.0.0.1", 8080)).hasToString("http://127.0.0.1:8080");
		assertThat(Origin.of("https", "api.example.com", -1)).hasToString("https://api.example.com:443");
	}

	@Test
	void whenHostIsIpv6LiteralThenItIsBracketedEitherWay() {
		assertThat(Origin.of("http", "::1", 8080)).isEqualTo(Origin.of("http", "[::1]", 8080));
		assertThat(Origin.of("http", "::1", 8080)).hasToString("http://[::1]:8080");
	}

	@Test
	void whenSchemeHasNoDefaultPortThenClearError() {
		assertThatIllegalArgumentException().isThrownBy(() -> Origin.of("ftp", "example.com", -1))
			.withMessage("No default port known for scheme 'ftp'");
	}

	@Test
	void whenPartsAreMalformedThenClearError() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Origin("http", "", 80))
			.withMessage("Invalid origin host: ''");
		assertThatIllegalArgumentException().isThrownBy(() -> new Origin("http", "a b", 80))
			.withMessage("Invalid origin host: 'a b'");
		assertThatIllegalArgumentException().isThrownBy(() -> new Origin("1http", "a", 80))
			.withMessage("Invalid origin scheme: '1http'");
		assertThatIllegalArgumentException().isThrownBy(() -> new Origin("http", "a", 65_536))
			.withMessage("Origin port must be between 0 and 65535: 65536");
	}

	@ParameterizedTest
	@ValueSource(strings = { "http://127.0.0.1:8080", "https://api.example.com:443", "http://[::1]:80",
			"http://h:0" })
	void whenTextFormIsParsedThenSameOrigin(String text) {
		Optional<Origin> parsed = Origin.parse(text);
		assertThat(parsed).isPresent();
		assertThat(parsed.get()).hasToString(text);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "http", "http://", "http://host", "http://host:", "http://host:x80",
			"http://host:999999", "http://host:65536", "://host:80", "http://a b:80", "http://::1:80",
			"http://host:-1", "http://:80" })
	void whenTextIsNotAnOriginThenParseIsEmpty(String text) {
		assertThat(Origin.parse(text)).isEmpty();
	}

}
