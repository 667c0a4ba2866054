package dev.retryafter.core.header;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The value grammars of the vendors' quota fields, {@link RateLimitValues}: Go durations,
 * RFC 3339 timestamps, decimal seconds, and the time from a response to an instant.
 */
class RateLimitValuesTests {

	private static final long MS = 1_000_000L;

	private static final long S = 1_000_000_000L;

	@ParameterizedTest
	@CsvSource({ "20ms, 20000000", "1s, 1000000000", "6m0s, 360000000000", "1m30.5s, 90500000000",
			"0, 0", "0s, 0", "2h, 7200000000000", "1h2m3s, 3723000000000", "17.25ms, 17250000",
			"1.5us, 1500", "3\u00b5s, 3000", "3\u03bcs, 3000", "7ns, 7", "' 1s\t', 1000000000",
			"0.0000000001s, 1", "24h, 86400000000000" })
	void whenAGoDurationIsWellFormedThenItIsReadRoundedUp(String value, long nanos) {
		assertThat(RateLimitValues.goDuration(List.of(value))).isEqualTo(nanos);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "-1s", "+1s", "1", "s", "1x", "1S", "1.s", ".5s", "1..5s", "1s-", "24h1ns",
			"25h", "99999999999999999999h", "1e3s", "1 s", "\u0661s", "ms", "00" })
	void whenAGoDurationIsNegativeMalformedOrOverADayThenItIsInvalid(String value) {
		assertThat(RateLimitValues.goDuration(List.of(value))).isEqualTo(RateLimitValues.INVALID);
	}

	@ParameterizedTest
	@CsvSource({ "2026-12-02T13:24:12Z, 2026-12-02T13:24:12Z", "2026-12-02t13:24:12z, 2026-12-02T13:24:12Z",
			"2026-12-02T14:24:12+01:00, 2026-12-02T13:24:12Z", "2026-12-02T08:24:12-05:00, 2026-12-02T13:24:12Z",
			"2026-12-02T13:24:12.5Z, 2026-12-02T13:24:12.5Z", "2026-12-02T13:24:12.0000000001Z, 2026-12-02T13:24:12.000000001Z",
			"2024-02-29T00:00:00Z, 2024-02-29T00:00:00Z", "2016-12-31T23:59:60Z, 2017-01-01T00:00:00Z" })
	void whenAnRfc3339TimestampIsWellFormedThenItIsRead(String value, String instant) {
		Instant expected = Instant.parse(instant);
		assertThat(RateLimitValues.rfc3339(List.of(value)))
			.isEqualTo(expected.getEpochSecond() * S + expected.getNano());
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "2026-12-02", "2026-12-02T13:24:12", "2026-12-02 13:24:12Z", "2026-13-02T13:24:12Z",
			"2026-02-29T00:00:00Z", "2026-12-02T24:00:00Z", "2026-12-02T13:60:00Z", "2026-12-02T13:24:61Z",
			"2026-12-02T13:24:12.Z", "2026-12-02T13:24:12+0100", "2026-12-02T13:24:12+24:00", "1969-12-31T23:59:59Z",
			"9999-12-31T23:59:59Z", "2026-12-02T13:24:12ZZ", "+2026-12-02T13:24:12Z", "2026-1a-02T13:24:12Z" })
	void whenAnRfc3339TimestampIsMalformedOrOutOfRangeThenItIsInvalid(String value) {
		assertThat(RateLimitValues.rfc3339(List.of(value))).isEqualTo(RateLimitValues.INVALID);
	}

	@ParameterizedTest
	@CsvSource({ "1470173023.123, 1470173023123000000", "0.25, 250000000", "2, 2000000000", "' 64.5 ', 64500000000" })
	void whenDecimalSecondsAreWellFormedThenTheyAreRead(String value, long nanos) {
		assertThat(RateLimitValues.decimalSeconds(List.of(value))).isEqualTo(nanos);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "-1", "1.", ".5", "1.2.3", "1e3", "99999999999", "1,5", "NaN" })
	void whenDecimalSecondsAreMalformedThenTheyAreInvalid(String value) {
		assertThat(RateLimitValues.decimalSeconds(List.of(value))).isEqualTo(RateLimitValues.INVALID);
	}

	@Test
	void whenAFieldIsAbsentRepeatedOrNullThenEveryGrammarSaysInvalid() {
		for (List<String> lines : List.of(List.<String>of(), List.of("1s", "1s"), Arrays.asList((String) null))) {
			assertThat(RateLimitValues.count(lines)).isEqualTo(RateLimitValues.INVALID);
			assertThat(RateLimitValues.decimalSeconds(lines)).isEqualTo(RateLimitValues.INVALID);
			assertThat(RateLimitValues.goDuration(lines)).isEqualTo(RateLimitValues.INVALID);
			assertThat(RateLimitValues.rfc3339(lines)).isEqualTo(RateLimitValues.INVALID);
			assertThat(RateLimitValues.httpDate(lines, Instant.EPOCH)).isEqualTo(RateLimitValues.INVALID);
		}
	}

	@Test
	void whenAnInstantIsWholeSecondsThenItIsMeasuredFromTheStartOfTheSecondReceived() {
		Instant received = Instant.parse("2026-12-02T13:24:12.750Z");
		long reset = Instant.parse("2026-12-02T13:24:14Z").getEpochSecond() * S;

		assertThat(RateLimitValues.until(reset, true, received)).isEqualTo(2 * S);
		assertThat(RateLimitValues.until(reset, false, received)).isEqualTo(1250 * MS);
	}

	@Test
	void whenAnInstantIsPastThenItIsNowAndWhenOverADayAwayThenItIsInvalid() {
		Instant received = Instant.parse("2026-12-02T13:24:12Z");
		long now = received.getEpochSecond() * S;

		assertThat(RateLimitValues.until(now - 5 * S, true, received)).isZero();
		assertThat(RateLimitValues.until(now + Duration.ofDays(1).toNanos(), true, received))
			.isEqualTo(Duration.ofDays(1).toNanos());
		assertThat(RateLimitValues.until(now + Duration.ofDays(1).toNanos() + 1, false, received))
			.isEqualTo(RateLimitValues.INVALID);
		assertThat(RateLimitValues.until(now, true, Instant.MAX)).isZero();
		assertThat(RateLimitValues.until(now, true, Instant.MIN)).isEqualTo(RateLimitValues.INVALID);
	}

}
