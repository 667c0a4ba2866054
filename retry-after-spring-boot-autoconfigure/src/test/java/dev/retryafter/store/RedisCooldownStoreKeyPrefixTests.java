package dev.retryafter.store;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class RedisCooldownStoreKeyPrefixTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|', nullValues = "null", value = { "orders|retry-after:orders:",
			"' billing '|retry-after:billing:", "null|retry-after:", "''|retry-after:", "'  '|retry-after:" })
	void whenTheApplicationIsNamedThenTheDefaultPrefixCarriesTheName(String applicationName, String expected) {
		assertThat(RedisCooldownStore.defaultKeyPrefix(applicationName)).isEqualTo(expected);
	}

}
