package dev.retryafter.core.header;

/**
 * Proleptic Gregorian calendar arithmetic in UTC on plain {@code long}s. It never throws:
 * {@code java.time.LocalDate} stops at year 999,999,999 and would throw for the first and last
 * year of {@code Instant}'s range, and for a two-digit year resolved against such an instant.
 * The day-count algorithms are Howard Hinnant's "chrono-Compatible Low-Level Date Algorithms".
 */
final class UtcCalendar {

	static final int SECONDS_PER_DAY = 86_400;

	private static final int DAYS_PER_ERA = 146_097;

	/** Days from 0000-03-01, where the algorithms' eras start, to 1970-01-01. */
	private static final int EPOCH_SHIFT = 719_468;

	private UtcCalendar() {
	}

	static boolean isLeapYear(long year) {
		return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
	}

	static int lengthOfMonth(long year, int month) {
		return switch (month) {
			case 2 -> isLeapYear(year) ? 29 : 28;
			case 4, 6, 9, 11 -> 30;
			default -> 31;
		};
	}

	/**
	 * Days since 1970-01-01 of a valid date.
	 * @param year any year
	 * @param month 1 to 12
	 * @param day 1 to the month's length
	 * @return the epoch day
	 */
	static long epochDay(long year, int month, int day) {
		// Years start on 1 March here, so that the leap day is the last day of a year.
		long y = (month <= 2) ? year - 1 : year;
		long era = Math.floorDiv(y, 400);
		long yearOfEra = y - era * 400;
		long dayOfYear = (153L * ((month > 2) ? month - 3 : month + 9) + 2) / 5 + day - 1;
		long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
		return era * DAYS_PER_ERA + dayOfEra - EPOCH_SHIFT;
	}

	/**
	 * The civil date and time of an epoch second.
	 * @param epochSecond seconds since 1970-01-01T00:00:00Z
	 * @return its fields
	 */
	static Fields fields(long epochSecond) {
		long days = Math.floorDiv(epochSecond, SECONDS_PER_DAY) + EPOCH_SHIFT;
		int secondOfDay = (int) Math.floorMod(epochSecond, SECONDS_PER_DAY);
		long era = Math.floorDiv(days, DAYS_PER_ERA);
		long dayOfEra = days - era * DAYS_PER_ERA;
		long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
		long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
		long shiftedMonth = (5 * dayOfYear + 2) / 153;
		int day = (int) (dayOfYear - (153 * shiftedMonth + 2) / 5 + 1);
		int month = (int) ((shiftedMonth < 10) ? shiftedMonth + 3 : shiftedMonth - 9);
		long year = yearOfEra + era * 400 + ((month <= 2) ? 1 : 0);
		return new Fields(year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60);
	}

	/**
	 * A civil date and time of day, compared field by field from the year down, so that even
	 * out-of-range fields (hour 99) order as the text would.
	 *
	 * @param year the year
	 * @param month the month
	 * @param day the day of the month
	 * @param hour the hour
	 * @param minute the minute
	 * @param second the second
	 */
	record Fields(long year, int month, int day, int hour, int minute, int second) {

		boolean isAfter(Fields other) {
			if (this.year != other.year) {
				return this.year > other.year;
			}
			return packed() > other.packed();
		}

		private long packed() {
			// Base 100 holds any two-digit field, valid or not.
			return (((this.month * 100L + this.day) * 100 + this.hour) * 100 + this.minute) * 100 + this.second;
		}

		Fields plusYears(long years) {
			return new Fields(this.year + years, this.month, this.day, this.hour, this.minute, this.second);
		}

	}

}
