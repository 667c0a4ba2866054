package dev.retryafter.core.header;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.retryafter.core.header.RetryAfter.Delay;
import dev.retryafter.core.header.RetryAfter.Form;
import dev.retryafter.core.header.RetryAfter.Invalid;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryAfterParser}: RFC 9110 section 10.2.3, and what this library makes of
 * values the RFC leaves open.
 */
class RetryAfterParserTests {

	/** The seed articles' reference instant, also the server's {@code Date} unless a test skews it. */
	private static final Instant RECEIVED = Instant.parse("2026-09-08T12:00:00Z");

	private static final String SERVER_DATE = "Tue, 08 Sep 2026 12:00:00 GMT";

	private static final Invalid MULTIPLE = new Invalid("multiple Retry-After field lines");

	private static final Invalid MISSING = new Invalid("missing value");

	private static final Invalid EMPTY = new Invalid("empty value");

	private static final Invalid NOT_DELAY_OR_DATE = new Invalid("not delay-seconds or an HTTP-date");

	private static final Invalid IMPOSSIBLE = new Invalid("impossible date");

	private static final Delay SATURATED_SECONDS = new Delay(RetryAfter.MAX_DELAY, Form.SECONDS);

	@ParameterizedTest(name = "[{index}] {0}")
	@EnumSource(DateReference.class)
	void whenNoFieldLineThenAbsent(DateReference reference) {
		assertThat(RetryAfterParser.parse(List.of(), RECEIVED, null, reference)).isSameAs(RetryAfter.ABSENT);
		assertThat(RetryAfterParser.parse(List.of(), RECEIVED, SERVER_DATE, reference)).isSameAs(RetryAfter.ABSENT);
		assertThat(RetryAfterParser.parse(Collections.emptyList(), RECEIVED, "garbage", reference))
			.isSameAs(RetryAfter.ABSENT);
	}

	static Stream<List<String>> multipleFieldLines() {
		return Stream.of(List.of("1", "2"), List.of("5", "5"), List.of("", ""), List.of("3", ""), List.of("", "3"),
				List.of("1", "2", "3"), List.of(" 7 ", "7"), List.of("Tue, 08 Sep 2026 12:00:07 GMT", "7"),
				List.of("Tue, 08 Sep 2026 12:00:07 GMT", "Tue, 08 Sep 2026 12:00:07 GMT"),
				List.of("Sun Nov  6 08:49:37 1994", "Sunday, 06-Nov-94 08:49:37 GMT"), List.of("later", "3"),
				Arrays.asList(null, "3"), Arrays.asList("3", null), Arrays.asList(null, null));
	}

	@ParameterizedTest(name = "[{index}] {0}")
	@MethodSource("multipleFieldLines")
	void whenMoreThanOneFieldLineThenInvalidBecauseTheFieldIsASingleton(List<String> lines) {
		assertThat(RetryAfterParser.parse(lines, RECEIVED, SERVER_DATE, DateReference.SERVER_DATE)).isEqualTo(MULTIPLE);
		assertThat(RetryAfterParser.parse(lines, RECEIVED, null, DateReference.LOCAL_CLOCK)).isEqualTo(MULTIPLE);
	}

	@Test
	void whenTheOnlyFieldLineIsNullThenInvalid() {
		assertThat(RetryAfterParser.parse(Collections.singletonList(null), RECEIVED, SERVER_DATE,
				DateReference.SERVER_DATE))
			.isEqualTo(MISSING);
	}

	@ParameterizedTest(name = "[{index}] \"{0}\"")
	@ValueSource(strings = { "", " ", "\t", "  ", "\t\t", " \t ", "\t \t", "          " })
	void whenEmptyOrOnlyOwsThenInvalid(String value) {
		assertThat(parse(value)).isEqualTo(EMPTY);
	}

	@ParameterizedTest(name = "[{index}] \"{0}\" -> {1} s")
	@CsvSource(delimiter = '|', textBlock = """
			'0'            | 0
			'00'           | 0
			'1'            | 1
			'3'            | 3
			'0003'         | 3
			' 0003\t'      | 3
			'\t5'          | 5
			'5\t'          | 5
			' 5'           | 5
			'5 '           | 5
			'  \t 5 \t  '  | 5
			'20'           | 20
			'60'           | 60
			'61'           | 61
			'120'          | 120
			'86400'        | 86400
			'3153599999'   | 3153599999
			'3153600000'   | 3153600000
			""")
	void whenDelaySecondsThenSecondsDelay(String value, long seconds) {
		assertThat(parse(value)).isEqualTo(new Delay(Duration.ofSeconds(seconds), Form.SECONDS));
	}

	@ParameterizedTest(name = "[{index}] \"{0}\" saturates")
	@ValueSource(strings = { "3153600001", "9999999999", "99999999999999999999", "18446744073709551616",
			" 100000000000000000000000000000000000000000 " })
	void whenDelaySecondsAboveMaxDelayThenSaturated(String value) {
		RetryAfter result = parse(value);
		assertThat(result).isEqualTo(SATURATED_SECONDS);
		assertThat(((Delay) result).saturated()).isTrue();
	}

	@Test
	void whenJustBelowMaxDelayThenNotSaturated() {
		RetryAfter result = parse("3153599999");
		assertThat(((Delay) result).saturated()).isFalse();
	}

	@Test
	void whenFiveThousandNinesThenSaturated() {
		assertThat(parse("9".repeat(5000))).isEqualTo(SATURATED_SECONDS);
	}

	@Test
	void whenOneMegabyteOfDigitsThenSaturated() {
		assertThat(parse("7".repeat(1 << 20))).isEqualTo(SATURATED_SECONDS);
	}

	@Test
	void whenOneMegabyteOfJunkThenInvalid() {
		assertThat(parse("7".repeat(1 << 20) + "x")).isEqualTo(NOT_DELAY_OR_DATE);
		assertThat(parse("Sun, ".repeat(200_000))).isEqualTo(NOT_DELAY_OR_DATE);
		assertThat(parse(" ".repeat(1 << 20))).isEqualTo(EMPTY);
		assertThat(parse(" ".repeat(1 << 20) + "5" + "\t".repeat(1 << 20)))
			.isEqualTo(new Delay(Duration.ofSeconds(5), Form.SECONDS));
	}

	@ParameterizedTest(name = "[{index}] \"{0}\" is not delay-seconds")
	@ValueSource(strings = { "-1", "-0", "+1", "+0", "1.5", "1.0", ".5", "1e3", "1E3", "0x10", "٣", "٠", "１", "3٣",
			"3 3", "1 2", "3  3", "3\t3", "later", "bad", "soon", "NaN", "Infinity", "3s", "3 s", "s3", "3 seconds",
			"PT3S", "1_000", "\"3\"", "'3'", "3;", "3\u00A0", "\u00A03", "\u20033", "\n3", "3\n", "3\r\n", "\r3",
			"\u000B3", "\f3", "\u00003", "3\u0000", "1, 2", "1,2", "1 ,2", ",5", "5,", "5, 5",
			"5, Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT, 5",
			"Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT,",
			"5 Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT 5", "sun, 06 nov 1994 08:49:37 gmt",
			"Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT",
			"Sun Nov 6 08:49:37 1994", "Sunday, 06-Nov-1994 08:49:37 GMT", "1994-11-06T08:49:37Z", "784111777.0" })
	void whenNeitherFormThenInvalid(String value) {
		assertThat(parse(value)).isEqualTo(NOT_DELAY_OR_DATE);
	}

	@ParameterizedTest(name = "[{index}] \"{0}\" is an impossible date")
	@ValueSource(strings = { "Tue, 31 Feb 2026 12:00:00 GMT", "Mon, 30 Feb 2026 12:00:00 GMT",
			"Sun, 29 Feb 2026 12:00:00 GMT", "Thu, 29 Feb 1900 00:00:00 GMT", "Fri, 31 Apr 2026 00:00:00 GMT",
			"Tue, 08 Sep 2026 24:00:00 GMT", "Tue, 08 Sep 2026 12:60:00 GMT", "Tue, 08 Sep 2026 12:00:61 GMT",
			"Tue, 00 Sep 2026 12:00:00 GMT", "Tuesday, 31-Feb-26 12:00:00 GMT", "Tue Feb 31 12:00:00 2026",
			" Tue, 31 Feb 2026 12:00:00 GMT\t" })
	void whenImpossibleDateThenInvalid(String value) {
		assertThat(parse(value)).isEqualTo(IMPOSSIBLE);
	}

	@ParameterizedTest(name = "[{index}] \"{0}\"")
	@ValueSource(strings = { "Thu, 29 Feb 2024 12:00:00 GMT", "Tue, 29 Feb 2000 12:00:00 GMT",
			"Thursday, 29-Feb-24 12:00:00 GMT", "Thu Feb 29 12:00:00 2024" })
	void whenLeapDayOfALeapYearThenValidDateInThePast(String value) {
		assertThat(parse(value)).isEqualTo(new Delay(Duration.ZERO, Form.DATE));
	}

	@ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
	@CsvSource(delimiter = '|', textBlock = """
			'Tue, 08 Sep 2026 12:00:07 GMT'        | PT7S
			'Tuesday, 08-Sep-26 12:00:07 GMT'      | PT7S
			'Tue Sep  8 12:00:07 2026'             | PT7S
			'Tue Sep 08 12:00:07 2026'             | PT7S
			' Tue, 08 Sep 2026 12:00:07 GMT\t'     | PT7S
			'\tTue Sep  8 12:00:07 2026 '          | PT7S
			'Tue, 08 Sep 2026 12:00:00 GMT'        | PT0S
			'Tue, 08 Sep 2026 11:59:59 GMT'        | PT0S
			'Sunday, 06-Nov-94 08:49:37 GMT'       | PT0S
			'Sun, 06 Nov 1994 08:49:37 GMT'        | PT0S
			'Thu, 01 Jan 1970 00:00:00 GMT'        | PT0S
			'Sat, 01 Jan 0000 00:00:00 GMT'        | PT0S
			'Tue, 08 Sep 2026 12:01:00 GMT'        | PT1M
			'Tue, 08 Sep 2026 13:00:00 GMT'        | PT1H
			'Wed, 09 Sep 2026 12:00:00 GMT'        | PT24H
			'Tue, 08 Sep 2026 12:00:60 GMT'        | PT1M
			'Monday, 08-Sep-70 12:00:00 GMT'       | PT385704H
			'Tuesday, 08-Sep-76 12:00:00 GMT'      | PT438312H
			'Tuesday, 08-Sep-76 12:00:01 GMT'      | PT0S
			""")
	void whenHttpDateThenDelayFromReceipt(String value, Duration expected) {
		assertThat(parse(value)).isEqualTo(new Delay(expected, Form.DATE));
		assertThat(RetryAfterParser.parse(List.of(value), RECEIVED, null, DateReference.LOCAL_CLOCK))
			.isEqualTo(new Delay(expected, Form.DATE));
	}

	@Test
	void whenLeapSecondThenOneSecondAfterSecondFiftyNine() {
		Instant received = Instant.parse("2016-12-31T23:59:59Z");
		assertThat(RetryAfterParser.parse(List.of("Sat, 31 Dec 2016 23:59:60 GMT"), received, null,
				DateReference.LOCAL_CLOCK))
			.isEqualTo(new Delay(Duration.ofSeconds(1), Form.DATE));
		assertThat(RetryAfterParser.parse(List.of("Sat, 31 Dec 2016 23:59:60 GMT"), received,
				"Sat, 31 Dec 2016 23:59:59 GMT", DateReference.SERVER_DATE))
			.isEqualTo(new Delay(Duration.ofSeconds(1), Form.DATE));
		assertThat(RetryAfterParser.parse(List.of("Sun, 01 Jan 2017 00:00:00 GMT"), received,
				"Sat, 31 Dec 2016 23:59:60 GMT", DateReference.SERVER_DATE))
			.isEqualTo(new Delay(Duration.ZERO, Form.DATE));
	}

	@Test
	void whenServerClockIsFiveMinutesBehindThenServerDateReferenceRemovesTheSkew() {
		Instant received = Instant.parse("2026-09-08T12:05:00Z");
		String serverDate = "Tue, 08 Sep 2026 12:00:00 GMT";
		List<String> value = List.of("Tue, 08 Sep 2026 12:00:30 GMT");
		assertThat(RetryAfterParser.parse(value, received, serverDate, DateReference.SERVER_DATE))
			.isEqualTo(new Delay(Duration.ofSeconds(30), Form.DATE));
		assertThat(RetryAfterParser.parse(value, received, serverDate, DateReference.LOCAL_CLOCK))
			.isEqualTo(new Delay(Duration.ZERO, Form.DATE));
	}

	@Test
	void whenServerClockIsFiveMinutesAheadThenServerDateReferenceRemovesTheSkew() {
		Instant received = Instant.parse("2026-09-08T12:00:00Z");
		String serverDate = "Tue, 08 Sep 2026 12:05:00 GMT";
		List<String> value = List.of("Tue, 08 Sep 2026 12:05:30 GMT");
		assertThat(RetryAfterParser.parse(value, received, serverDate, DateReference.SERVER_DATE))
			.isEqualTo(new Delay(Duration.ofSeconds(30), Form.DATE));
		assertThat(RetryAfterParser.parse(value, received, serverDate, DateReference.LOCAL_CLOCK))
			.isEqualTo(new Delay(Duration.ofSeconds(330), Form.DATE));
	}

	@ParameterizedTest(name = "[{index}] Date \"{0}\" -> {1}")
	@CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
			'Tue, 08 Sep 2026 11:55:00 GMT'        | PT5M30S
			'Tuesday, 08-Sep-26 11:55:00 GMT'      | PT5M30S
			'Tue Sep  8 11:55:00 2026'             | PT5M30S
			' Tue, 08 Sep 2026 11:55:00 GMT\t'     | PT5M30S
			'Tue, 08 Sep 2026 12:00:30 GMT'        | PT0S
			'Tue, 08 Sep 2026 12:00:31 GMT'        | PT0S
			NULL                                   | PT30S
			''                                     | PT30S
			'  '                                   | PT30S
			'garbage'                              | PT30S
			'0'                                    | PT30S
			'1789300800'                           | PT30S
			'Tue, 31 Feb 2026 11:55:00 GMT'        | PT30S
			'Tue, 08 Sep 2026 24:00:00 GMT'        | PT30S
			'tue, 08 sep 2026 11:55:00 gmt'        | PT30S
			'Tue, 08 Sep 2026 11:55:00 UTC'        | PT30S
			'Tue, 08 Sep 2026 11:55:00 +0000'      | PT30S
			'Tue, 08 Sep 2026 11:55:00 GMT, Tue, 08 Sep 2026 11:55:00 GMT' | PT30S
			""")
	void whenServerDateReferenceThenDateFieldIfValidElseReceipt(@Nullable String dateField, Duration expected) {
		List<String> value = List.of("Tue, 08 Sep 2026 12:00:30 GMT");
		assertThat(RetryAfterParser.parse(value, RECEIVED, dateField, DateReference.SERVER_DATE))
			.isEqualTo(new Delay(expected, Form.DATE));
		assertThat(RetryAfterParser.parse(value, RECEIVED, dateField, DateReference.LOCAL_CLOCK))
			.isEqualTo(new Delay(Duration.ofSeconds(30), Form.DATE));
	}

	@ParameterizedTest(name = "[{index}] {0}")
	@EnumSource(DateReference.class)
	void whenDelaySecondsThenTheDateFieldDoesNotMatter(DateReference reference) {
		assertThat(RetryAfterParser.parse(List.of("30"), RECEIVED, "Tue, 08 Sep 2026 11:00:00 GMT", reference))
			.isEqualTo(new Delay(Duration.ofSeconds(30), Form.SECONDS));
		assertThat(RetryAfterParser.parse(List.of("30"), RECEIVED, "garbage", reference))
			.isEqualTo(new Delay(Duration.ofSeconds(30), Form.SECONDS));
	}

	@Test
	void whenReceivedMidSecondThenTheFractionIsSubtracted() {
		Instant received = Instant.parse("2026-09-08T12:00:00.250Z");
		assertThat(RetryAfterParser.parse(List.of("Tue, 08 Sep 2026 12:00:07 GMT"), received, null,
				DateReference.LOCAL_CLOCK))
			.isEqualTo(new Delay(Duration.ofMillis(6_750), Form.DATE));
		assertThat(RetryAfterParser.parse(List.of("Tue, 08 Sep 2026 12:00:07 GMT"), received, SERVER_DATE,
				DateReference.SERVER_DATE))
			.isEqualTo(new Delay(Duration.ofSeconds(7), Form.DATE));
		assertThat(RetryAfterParser.parse(List.of("Tue, 08 Sep 2026 12:00:00 GMT"), received, null,
				DateReference.LOCAL_CLOCK))
			.isEqualTo(new Delay(Duration.ZERO, Form.DATE));
	}

	@Test
	void whenDateIsAtOrBeyondMaxDelayThenSaturated() {
		Instant atMax = RECEIVED.plus(RetryAfter.MAX_DELAY);
		String justBelow = imfFixdate(atMax.minusSeconds(1));
		String exactly = imfFixdate(atMax);
		String justAbove = imfFixdate(atMax.plusSeconds(1));
		assertThat(parse(justBelow)).isEqualTo(new Delay(RetryAfter.MAX_DELAY.minusSeconds(1), Form.DATE));
		assertThat(parse(exactly)).isEqualTo(new Delay(RetryAfter.MAX_DELAY, Form.DATE));
		assertThat(parse(justAbove)).isEqualTo(new Delay(RetryAfter.MAX_DELAY, Form.DATE));
		assertThat(parse("Fri, 31 Dec 9999 23:59:59 GMT")).isEqualTo(new Delay(RetryAfter.MAX_DELAY, Form.DATE));
		assertThat(((Delay) parse("Fri, 31 Dec 9999 23:59:59 GMT")).saturated()).isTrue();
	}

	@Test
	void whenReceivedAtTheEndsOfInstantRangeThenNoOverflow() {
		List<String> date = List.of("Sunday, 06-Nov-94 08:49:37 GMT");
		assertThat(RetryAfterParser.parse(date, Instant.MAX, null, DateReference.LOCAL_CLOCK))
			.isEqualTo(new Delay(Duration.ZERO, Form.DATE));
		// At Instant.MIN the digits 94 are too far ahead, so they name the century before it.
		assertThat(RetryAfterParser.parse(date, Instant.MIN, null, DateReference.LOCAL_CLOCK))
			.isEqualTo(new Delay(Duration.ZERO, Form.DATE));
		assertThat(RetryAfterParser.parse(List.of("Sun, 06 Nov 1994 08:49:37 GMT"), Instant.MIN, null,
				DateReference.LOCAL_CLOCK))
			.isEqualTo(new Delay(RetryAfter.MAX_DELAY, Form.DATE));
		assertThat(RetryAfterParser.parse(List.of("Fri, 31 Dec 9999 23:59:59 GMT"), Instant.MIN,
				"Sunday, 06-Nov-94 08:49:37 GMT", DateReference.SERVER_DATE))
			.isEqualTo(new Delay(RetryAfter.MAX_DELAY, Form.DATE));
		assertThat(RetryAfterParser.parse(List.of("Fri, 31 Dec 9999 23:59:59 GMT"), Instant.MAX,
				"Sat, 01 Jan 0000 00:00:00 GMT", DateReference.SERVER_DATE))
			.isEqualTo(new Delay(RetryAfter.MAX_DELAY, Form.DATE));
		assertThat(RetryAfterParser.parse(List.of("Sat, 01 Jan 0000 00:00:00 GMT"), Instant.MAX,
				"Sunday, 06-Nov-94 08:49:37 GMT", DateReference.SERVER_DATE))
			.isEqualTo(new Delay(Duration.ZERO, Form.DATE));
		assertThat(RetryAfterParser.parse(List.of("9".repeat(100)), Instant.MAX, null, DateReference.LOCAL_CLOCK))
			.isEqualTo(SATURATED_SECONDS);
	}

	@ParameterizedTest(name = "[{index}] \"{0}\"")
	@ValueSource(strings = { "token=s3cr3t", "Bearer abc.def.ghi", "-1", "Tue, 31 Feb 2026 12:00:00 GMT",
			"1, 2", "later", "user@example.com" })
	void whenInvalidThenTheReasonNeverQuotesTheValue(String value) {
		RetryAfter result = parse(value);
		assertThat(result).isInstanceOf(Invalid.class);
		assertThat(((Invalid) result).why()).doesNotContain(value)
			.isIn(NOT_DELAY_OR_DATE.why(), IMPOSSIBLE.why());
	}

	static Stream<Arguments> seedArticleFixtures() {
		Instant reference = Instant.parse("2026-09-08T12:00:00Z");
		Instant leap = Instant.parse("2016-12-31T23:59:59Z");
		Instant november = Instant.parse("2026-11-14T00:00:00Z");
		return Stream.of(
				// 000: the three forms of 2026-09-08 12:00:07 against 12:00:00
				Arguments.of("Tue, 08 Sep 2026 12:00:07 GMT", reference, seconds(7, Form.DATE)),
				Arguments.of("Tuesday, 08-Sep-26 12:00:07 GMT", reference, seconds(7, Form.DATE)),
				Arguments.of("Tue Sep  8 12:00:07 2026", reference, seconds(7, Form.DATE)),
				// 000: 1994 is past; 70 means 2070 (less than 50 years ahead)
				Arguments.of("Sunday, 06-Nov-94 08:49:37 GMT", reference, seconds(0, Form.DATE)),
				Arguments.of("Monday, 08-Sep-70 12:00:00 GMT", reference,
						new Delay(Duration.between(reference, Instant.parse("2070-09-08T12:00:00Z")), Form.DATE)),
				// 000: the leap second
				Arguments.of("Sat, 31 Dec 2016 23:59:60 GMT", leap, seconds(1, Form.DATE)),
				// 000: invalid values
				Arguments.of("-1", reference, NOT_DELAY_OR_DATE), Arguments.of("1.5", reference, NOT_DELAY_OR_DATE),
				Arguments.of("later", reference, NOT_DELAY_OR_DATE), Arguments.of("", reference, EMPTY),
				Arguments.of("٣", reference, NOT_DELAY_OR_DATE),
				Arguments.of("Tue, 31 Feb 2026 12:00:00 GMT", reference, IMPOSSIBLE),
				// 000: OWS and leading zeros; a huge value saturates
				Arguments.of(" 0003\t", reference, seconds(3, Form.SECONDS)),
				Arguments.of("9".repeat(5000), reference, SATURATED_SECONDS),
				Arguments.of("3", reference, seconds(3, Form.SECONDS)),
				// 001 and 002: plain seconds, and an illustrative far-future date
				Arguments.of("20", reference, seconds(20, Form.SECONDS)),
				Arguments.of("1", reference, seconds(1, Form.SECONDS)),
				Arguments.of("120", reference, seconds(120, Form.SECONDS)),
				Arguments.of("Sun, 06 Nov 2095 08:49:37 GMT", reference,
						new Delay(Duration.between(reference, Instant.parse("2095-11-06T08:49:37Z")), Form.DATE)),
				// 003: against 2026-11-14T00:00Z
				Arguments.of("3", november, seconds(3, Form.SECONDS)),
				Arguments.of("Sat, 14 Nov 2026 00:00:04 GMT", november, seconds(4, Form.DATE)),
				Arguments.of("Fri, 13 Nov 2026 00:00:00 GMT", november, seconds(0, Form.DATE)),
				Arguments.of("6", november, seconds(6, Form.SECONDS)),
				Arguments.of("bad", november, NOT_DELAY_OR_DATE),
				Arguments.of("9".repeat(5000), november, SATURATED_SECONDS));
	}

	@ParameterizedTest(name = "[{index}] \"{0}\" at {1} -> {2}")
	@MethodSource("seedArticleFixtures")
	void shouldMatchTheSeedArticleFixtures(String value, Instant receivedAt, RetryAfter expected) {
		assertThat(RetryAfterParser.parse(List.of(value), receivedAt, null, DateReference.LOCAL_CLOCK))
			.isEqualTo(expected);
		// The seed's server sends its Date equal to the reference, so both references agree.
		String serverDate = imfFixdate(receivedAt);
		assertThat(RetryAfterParser.parse(List.of(value), receivedAt, serverDate, DateReference.SERVER_DATE))
			.isEqualTo(expected);
	}

	private static String imfFixdate(Instant instant) {
		return HttpDateTests.imfFixdate(LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
	}

	private static Delay seconds(long seconds, Form form) {
		return new Delay(Duration.ofSeconds(seconds), form);
	}

	private static RetryAfter parse(String value) {
		return RetryAfterParser.parse(List.of(value), RECEIVED, SERVER_DATE, DateReference.SERVER_DATE);
	}

}
