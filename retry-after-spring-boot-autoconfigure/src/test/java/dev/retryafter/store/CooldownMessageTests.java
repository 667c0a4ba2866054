package dev.retryafter.store;

import java.util.stream.Stream;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class CooldownMessageTests {

	private static final CooldownKey KEY = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	private static final CooldownKey PARTITIONED = new CooldownKey(Origin.of("http", "127.0.0.1", 8080),
			"0123456789abcdef0123456789abcdef");

	static Stream<Arguments> messages() {
		return Stream.of(
				arguments(CooldownMessage.cooldown(30_000, "i-1", KEY), "cooldown 30000 i-1 http://127.0.0.1:8080"),
				arguments(CooldownMessage.cooldown(1, "i-1", PARTITIONED),
						"cooldown 1 i-1 http://127.0.0.1:8080#0123456789abcdef0123456789abcdef"),
				arguments(CooldownMessage.end("i-2", KEY), "end i-2 http://127.0.0.1:8080"),
				arguments(CooldownMessage.end("i-2", null), "end i-2 *"),
				arguments(CooldownMessage.heartbeat("i-3"), "heartbeat i-3"));
	}

	@ParameterizedTest
	@MethodSource("messages")
	void whenEncodedThenDecodedBackUnchanged(CooldownMessage message, String text) {
		assertThat(message.encode()).isEqualTo(text);
		assertThat(CooldownMessage.decode(text)).contains(message);
	}

	@Test
	void whenAMessageOfTheEarlierFormatArrivesThenItIsIgnored() {
		// "<not-before epoch ms> <instance> <key>", which a receiver would misread as a delay.
		assertThat(CooldownMessage.decode("1788000000123 instance-1 http://127.0.0.1:8080")).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "cooldown", "cooldown 1", "cooldown 1 a", "cooldown 1  http://h:80",
			"cooldown x a http://h:80", "cooldown -1 a http://h:80", "cooldown 1 a http://h",
			"cooldown 9999999999999999999 a http://h:80", "cooldown 1 a b http://h:80", "end", "end a",
			"end  http://h:80", "end a http://h", "end a * b", "heartbeat", "heartbeat ", "heartbeat a b",
			"other a http://h:80", "COOLDOWN 1 a http://h:80" })
	void whenMalformedThenIgnored(String text) {
		assertThat(CooldownMessage.decode(text)).isEmpty();
	}

}
