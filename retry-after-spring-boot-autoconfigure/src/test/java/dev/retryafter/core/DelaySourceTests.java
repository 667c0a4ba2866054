package dev.retryafter.core;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DelaySource}: tag values are the documented meter tag strings.
 */
class DelaySourceTests {

	@ParameterizedTest
	@CsvSource({ "RETRY_AFTER_SECONDS, retry-after-seconds", "RETRY_AFTER_DATE, retry-after-date",
			"RETRY_AFTER_MS, retry-after-ms", "QUOTA_RESET, quota-reset", "BACKOFF, backoff" })
	void whenSourceThenTagValueIsThatOfSpec(DelaySource source, String tagValue) {
		assertThat(source.tagValue()).isEqualTo(tagValue);
	}

	@Test
	void whenAllSourcesThenExactlyTheSourceTagsOfThePlannedDelayMeter() {
		assertThat(Arrays.stream(DelaySource.values()).map(DelaySource::tagValue))
			.containsExactly("retry-after-seconds", "retry-after-date", "retry-after-ms", "quota-reset", "backoff");
	}

}
