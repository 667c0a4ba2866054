package dev.retryafter.core.header;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Year;
import java.time.ZoneOffset;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UtcCalendar}, checked against {@code java.time} where both are defined.
 */
class UtcCalendarTests {

	@ParameterizedTest(name = "[{index}] {0}-{1}-{2} is epoch day {3}")
	@CsvSource(textBlock = """
			1970, 1, 1, 0
			1969, 12, 31, -1
			1970, 3, 1, 59
			2000, 2, 29, 11016
			2000, 3, 1, 11017
			1900, 3, 1, -25508
			0, 1, 1, -719528
			-1, 12, 31, -719529
			9999, 12, 31, 2932896
			""")
	void whenValidDateThenEpochDay(long year, int month, int day, long expected) {
		assertThat(UtcCalendar.epochDay(year, month, day)).isEqualTo(expected);
	}

	@ParameterizedTest(name = "[{index}] {0}: leap {1}")
	@CsvSource(textBlock = """
			2024, true
			2026, false
			2000, true
			1900, false
			2100, false
			2400, true
			1600, true
			0, true
			-4, true
			-100, false
			-400, true
			1, false
			""")
	void whenYearThenLeapPerGregorianRule(long year, boolean leap) {
		assertThat(UtcCalendar.isLeapYear(year)).isEqualTo(leap);
	}

	@ParameterizedTest(name = "[{index}] {0}-{1} has {2} days")
	@CsvSource(textBlock = """
			2026, 1, 31
			2026, 2, 28
			2024, 2, 29
			1900, 2, 28
			2000, 2, 29
			2026, 3, 31
			2026, 4, 30
			2026, 5, 31
			2026, 6, 30
			2026, 7, 31
			2026, 8, 31
			2026, 9, 30
			2026, 10, 31
			2026, 11, 30
			2026, 12, 31
			""")
	void whenMonthThenLength(long year, int month, int length) {
		assertThat(UtcCalendar.lengthOfMonth(year, month)).isEqualTo(length);
	}

	@Test
	void shouldAgreeWithJavaTimeOnRandomDates() {
		SplittableRandom random = new SplittableRandom(5322);
		for (int i = 0; i < 100_000; i++) {
			long epochDay = random.nextLong(LocalDate.of(-200_000, 1, 1).toEpochDay(),
					LocalDate.of(200_000, 12, 31).toEpochDay());
			LocalDate date = LocalDate.ofEpochDay(epochDay);
			assertThat(UtcCalendar.epochDay(date.getYear(), date.getMonthValue(), date.getDayOfMonth())).as("%s", date)
				.isEqualTo(epochDay);
			assertThat(UtcCalendar.isLeapYear(date.getYear())).isEqualTo(Year.isLeap(date.getYear()));
			assertThat(UtcCalendar.lengthOfMonth(date.getYear(), date.getMonthValue())).isEqualTo(date.lengthOfMonth());
		}
	}

	@Test
	void shouldAgreeWithJavaTimeOnRandomEpochSeconds() {
		SplittableRandom random = new SplittableRandom(9110);
		long min = LocalDateTime.MIN.toEpochSecond(ZoneOffset.UTC);
		long max = LocalDateTime.MAX.toEpochSecond(ZoneOffset.UTC);
		for (int i = 0; i < 100_000; i++) {
			long epochSecond = (i % 2 == 0) ? random.nextLong(min, max)
					: random.nextLong(-10_000_000_000L, 10_000_000_000L);
			LocalDateTime time = LocalDateTime.ofEpochSecond(epochSecond, 0, ZoneOffset.UTC);
			assertThat(UtcCalendar.fields(epochSecond)).as("%s", time)
				.isEqualTo(new UtcCalendar.Fields(time.getYear(), time.getMonthValue(), time.getDayOfMonth(),
						time.getHour(), time.getMinute(), time.getSecond()));
		}
	}

	@Test
	void whenInstantRangeEndsThenFieldsBeyondJavaTimeDates() {
		assertThat(UtcCalendar.fields(Instant.MAX.getEpochSecond()))
			.isEqualTo(new UtcCalendar.Fields(1_000_000_000L, 12, 31, 23, 59, 59));
		assertThat(UtcCalendar.fields(Instant.MIN.getEpochSecond()))
			.isEqualTo(new UtcCalendar.Fields(-1_000_000_000L, 1, 1, 0, 0, 0));
	}

	@Test
	void whenComparingFieldsThenYearFirstThenTheRestInTextOrder() {
		UtcCalendar.Fields noon = new UtcCalendar.Fields(2026, 9, 8, 12, 0, 0);
		assertThat(new UtcCalendar.Fields(2026, 9, 8, 12, 0, 1).isAfter(noon)).isTrue();
		assertThat(new UtcCalendar.Fields(2026, 9, 8, 12, 0, 0).isAfter(noon)).isFalse();
		assertThat(new UtcCalendar.Fields(2026, 9, 8, 11, 59, 60).isAfter(noon)).isFalse();
		assertThat(new UtcCalendar.Fields(2026, 9, 8, 99, 99, 99).isAfter(noon)).isTrue();
		assertThat(new UtcCalendar.Fields(2025, 12, 31, 23, 59, 59).isAfter(noon)).isFalse();
		assertThat(new UtcCalendar.Fields(2027, 1, 1, 0, 0, 0).isAfter(noon)).isTrue();
		assertThat(noon.plusYears(50)).isEqualTo(new UtcCalendar.Fields(2076, 9, 8, 12, 0, 0));
	}

}
