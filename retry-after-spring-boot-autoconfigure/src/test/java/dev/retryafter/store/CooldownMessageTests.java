package dev.retryafter.store;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class CooldownMessageTests {

	@Test
	void whenEncodedThenDecodedBackUnchanged() {
		CooldownMessage message = new CooldownMessage(1_788_000_000_123L, "instance-1",
				CooldownKey.of(Origin.of("http", "127.0.0.1", 8080)));
		assertThat(message.encode()).isEqualTo("1788000000123 instance-1 http://127.0.0.1:8080");
		assertThat(CooldownMessage.decode(message.encode())).contains(message);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "1", "1 a", "1  http://h:80", "x a http://h:80", "-1 a http://h:80",
			"1 a http://h", "9999999999999999999 a http://h:80", "1 a b http://h:80" })
	void whenMalformedThenIgnored(String text) {
		assertThat(CooldownMessage.decode(text)).isEmpty();
	}

}
