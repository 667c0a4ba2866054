package dev.retryafter.core.header;

import java.math.BigInteger;
import java.time.Duration;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DelaySeconds}: {@code delay-seconds = 1*DIGIT} (RFC 9110 section 10.2.3).
 */
class DelaySecondsTests {

	private static final long MAX_SECONDS = 3_153_600_000L;

	@ParameterizedTest(name = "[{index}] \"{0}\" -> {1} s")
	@CsvSource(delimiter = '|', textBlock = """
			0                      | 0
			00                     | 0
			0000000000000000000000 | 0
			1                      | 1
			3                      | 3
			03                     | 3
			0003                   | 3
			9                      | 9
			10                     | 10
			60                     | 60
			120                    | 120
			3600                   | 3600
			86400                  | 86400
			2147483647             | 2147483647
			2147483648             | 2147483648
			3153599999             | 3153599999
			0003153599999          | 3153599999
			3153600000             | 3153600000
			000000000000003153600000 | 3153600000
			""")
	void whenAsciiDigitsThenSeconds(String text, long expected) {
		assertThat(DelaySeconds.parse(text, 0, text.length())).isEqualTo(Duration.ofSeconds(expected));
	}

	@ParameterizedTest(name = "[{index}] \"{0}\" saturates")
	@ValueSource(strings = { "3153600001", "3153600010", "9999999999", "10000000000", "31536000000",
			"4294967296", "9223372036854775807", "9223372036854775808", "18446744073709551616",
			"99999999999999999999999999999999999999", "000000000000000000000000031536000001" })
	void whenAboveMaxDelayThenSaturated(String text) {
		assertThat(DelaySeconds.parse(text, 0, text.length())).isEqualTo(RetryAfter.MAX_DELAY);
	}

	@Test
	void whenFiveThousandNinesThenSaturated() {
		String nines = "9".repeat(5000);
		assertThat(DelaySeconds.parse(nines, 0, nines.length())).isEqualTo(RetryAfter.MAX_DELAY);
	}

	@Test
	void whenOneMegabyteOfDigitsThenSaturated() {
		String digits = "1234567890".repeat(100_000);
		assertThat(DelaySeconds.parse(digits, 0, digits.length())).isEqualTo(RetryAfter.MAX_DELAY);
	}

	@Test
	void whenOneMegabyteOfZerosThenZero() {
		String zeros = "0".repeat(1_000_000) + "7";
		assertThat(DelaySeconds.parse(zeros, 0, zeros.length())).isEqualTo(Duration.ofSeconds(7));
	}

	@Test
	void whenOneMegabyteOfDigitsEndsInALetterThenNotDelaySeconds() {
		String digits = "9".repeat(1_000_000) + "s";
		assertThat(DelaySeconds.parse(digits, 0, digits.length())).isNull();
	}

	@ParameterizedTest(name = "[{index}] \"{0}\" is not delay-seconds")
	@ValueSource(strings = { "", " ", "\t", "-1", "-0", "+1", "+0", "1.5", "1.0", ".5", "5.", "1e3", "1E3", "0x10",
			"0b1", "٣", "٠", "۳", "३", "１", "3٣", "3 3", " 3", "3 ", "3\t", "\t3", "3,", ",3", "1,000", "1_000",
			"1'000", "3s", "3 s", "s3", "later", "soon", "NaN", "Infinity", "∞", "three", "3\u00A0", "\u00A03",
			"3\n", "3\r", "\u0000", "3\u0000", "Ⅲ", "½", "²", "/3", "3:00", "PT3S", "'3'", "\"3\"" })
	void whenNotOnlyAsciiDigitsThenNull(String text) {
		assertThat(DelaySeconds.parse(text, 0, text.length())).isNull();
	}

	@Test
	void whenGivenARangeThenReadsOnlyThatRange() {
		assertThat(DelaySeconds.parse("xx0042yy", 2, 6)).isEqualTo(Duration.ofSeconds(42));
		assertThat(DelaySeconds.parse("xx0042yy", 2, 7)).isNull();
		assertThat(DelaySeconds.parse("xx0042yy", 3, 3)).isNull();
	}

	@Test
	void shouldAgreeWithBigIntegerOnRandomDigitStrings() {
		SplittableRandom random = new SplittableRandom(9110);
		BigInteger max = BigInteger.valueOf(MAX_SECONDS);
		for (int i = 0; i < 100_000; i++) {
			StringBuilder text = new StringBuilder();
			int length = 1 + random.nextInt(random.nextBoolean() ? 11 : 40);
			for (int j = 0; j < length; j++) {
				text.append((char) ('0' + random.nextInt(10)));
			}
			String digits = text.toString();
			long expected = new BigInteger(digits).min(max).longValueExact();
			assertThat(DelaySeconds.parse(digits, 0, digits.length())).as(digits)
				.isEqualTo(Duration.ofSeconds(expected));
		}
	}

}
