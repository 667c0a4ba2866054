package dev.retryafter.core;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link IoFailureKind}: the tag values callers and log lines print.
 */
class IoFailureKindTests {

	@ParameterizedTest
	@CsvSource({ "CONNECT_REFUSED, connect-refused, false", "CONNECT_TIMEOUT, connect-timeout, false",
			"READ_TIMEOUT, read-timeout, true", "RESET_AFTER_SEND, reset-after-send, true",
			"UNKNOWN_HOST, unknown-host, false", "TLS_FAILURE, tls-failure, false", "OTHER, other, true" })
	void whenKindThenTagValueAndMaybeSentAreFixed(IoFailureKind kind, String tagValue, boolean maybeSent) {
		assertThat(kind.tagValue()).isEqualTo(tagValue);
		assertThat(kind.maybeSent()).isEqualTo(maybeSent);
	}

}
