package dev.retryafter.core.header;

import java.time.Instant;

/**
 * Reads an HTTP-date as RFC 9110 section 5.6.7 defines it, token by token:
 * <pre>
 * HTTP-date    = IMF-fixdate / obs-date
 * IMF-fixdate  = day-name "," SP date1 SP time-of-day SP GMT   ; Sun, 06 Nov 1994 08:49:37 GMT
 * rfc850-date  = day-name-l "," SP date2 SP time-of-day SP GMT ; Sunday, 06-Nov-94 08:49:37 GMT
 * asctime-date = day-name SP date3 SP time-of-day SP year      ; Sun Nov  6 08:49:37 1994
 * date1 = day SP month SP year, date2 = day "-" month "-" 2DIGIT, date3 = month SP ( 2DIGIT / ( SP DIGIT ))
 * time-of-day  = hour ":" minute ":" second                    ; 00:00:00 - 23:59:60 (leap second)
 * </pre>
 * Day names, month names and {@code GMT} are case-sensitive ({@code %s"Sun"}) and must be
 * spelled exactly; every number has exactly the digits the grammar gives it. Beyond the
 * grammar:
 * <ul>
 * <li>The date must exist (no 31 Apr, no 29 Feb 1900), hour 0 to 23, minute 0 to 59, second
 * 0 to 60.</li>
 * <li>Second 60 (a leap second) is one second after second 59 of the same minute, in any
 * minute: UTC inserts them only at 23:59, but nothing is gained by rejecting others.</li>
 * <li>The day name is not checked against the date. The grammar constrains only its spelling,
 * the date fields carry the meaning, and section 5.6.7 asks recipients to be robust.</li>
 * <li>A two-digit rfc850 year is taken in the century of the receive instant, unless that
 * appears more than 50 years in the future, when it is the most recent past year with the
 * same last two digits (section 5.6.7).</li>
 * </ul>
 * Pure and linear: every token is a fixed-length match, and reading stops at the first
 * mismatch. No regular expressions or {@code DateTimeFormatter}, which is lenient where this
 * must be strict (it turns 31 Feb into 28 Feb and reads two-digit years as 20yy).
 */
final class HttpDate {

	private static final String[] DAY_NAMES = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };

	private static final String[] LONG_DAY_NAMES = { "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
			"Saturday", "Sunday" };

	private static final String[] MONTHS = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
			"Nov", "Dec" };

	private static final int YEARS_AHEAD = 50;

	private final String text;

	private final int end;

	private int pos;

	private boolean failed;

	private boolean twoDigitYear;

	private long year;

	private int month;

	private int day;

	private int hour;

	private int minute;

	private int second;

	private HttpDate(String text, int from, int to) {
		this.text = text;
		this.pos = from;
		this.end = to;
	}

	/**
	 * Reads {@code text} whole as an HTTP-date.
	 * @param text the value
	 * @param receivedAt when the response was received; anchors two-digit years
	 * @return the instant, or why not
	 */
	static Result parse(String text, Instant receivedAt) {
		return parse(text, 0, text.length(), receivedAt);
	}

	/**
	 * Reads {@code text[from, to)} as an HTTP-date; all of it must be one.
	 * @param text the value
	 * @param from the first character, inclusive
	 * @param to the last character, exclusive
	 * @param receivedAt when the response was received; anchors two-digit years
	 * @return the instant, or why not
	 */
	static Result parse(String text, int from, int to, Instant receivedAt) {
		HttpDate date = new HttpDate(text, from, to);
		date.readHttpDate();
		if (date.failed || date.pos != date.end) {
			return Rejected.MALFORMED;
		}
		if (date.twoDigitYear) {
			date.year = centuryOf(date.fields(), receivedAt);
		}
		if (!date.isPossible()) {
			return Rejected.IMPOSSIBLE;
		}
		return new Parsed(date.epochSecond());
	}

	private void readHttpDate() {
		if (accept(LONG_DAY_NAMES) >= 0) {
			expect(", ");
			readRfc850Date();
			return;
		}
		expect(DAY_NAMES);
		if (accept(", ")) {
			readImfFixdate();
		}
		else {
			expect(" ");
			readAsctimeDate();
		}
	}

	// date1 SP time-of-day SP GMT, where date1 = day SP month SP year
	private void readImfFixdate() {
		this.day = digits(2);
		expect(" ");
		this.month = expect(MONTHS) + 1;
		expect(" ");
		this.year = digits(4);
		expect(" ");
		readTimeOfDay();
		expect(" GMT");
	}

	// date2 SP time-of-day SP GMT, where date2 = day "-" month "-" 2DIGIT
	private void readRfc850Date() {
		this.day = digits(2);
		expect("-");
		this.month = expect(MONTHS) + 1;
		expect("-");
		this.year = digits(2);
		this.twoDigitYear = true;
		expect(" ");
		readTimeOfDay();
		expect(" GMT");
	}

	// date3 SP time-of-day SP year, where date3 = month SP ( 2DIGIT / ( SP DIGIT ))
	private void readAsctimeDate() {
		this.month = expect(MONTHS) + 1;
		expect(" ");
		this.day = accept(" ") ? digits(1) : digits(2);
		expect(" ");
		readTimeOfDay();
		expect(" ");
		this.year = digits(4);
	}

	private void readTimeOfDay() {
		this.hour = digits(2);
		expect(":");
		this.minute = digits(2);
		expect(":");
		this.second = digits(2);
	}

	private boolean accept(String token) {
		if (this.failed || this.end - this.pos < token.length() || !this.text.startsWith(token, this.pos)) {
			return false;
		}
		this.pos += token.length();
		return true;
	}

	private void expect(String token) {
		if (!accept(token)) {
			this.failed = true;
		}
	}

	private int accept(String[] tokens) {
		for (int i = 0; i < tokens.length; i++) {
			if (accept(tokens[i])) {
				return i;
			}
		}
		return -1;
	}

	private int expect(String[] tokens) {
		int index = accept(tokens);
		if (index < 0) {
			this.failed = true;
		}
		return index;
	}

	private int digits(int count) {
		if (this.failed || this.end - this.pos < count) {
			this.failed = true;
			return 0;
		}
		int value = 0;
		for (int i = 0; i < count; i++) {
			char c = this.text.charAt(this.pos + i);
			if (c < '0' || c > '9') {
				this.failed = true;
				return 0;
			}
			value = value * 10 + (c - '0');
		}
		this.pos += count;
		return value;
	}

	private static long centuryOf(UtcCalendar.Fields date, Instant receivedAt) {
		UtcCalendar.Fields received = UtcCalendar.fields(receivedAt.getEpochSecond());
		UtcCalendar.Fields candidate = date.plusYears(Math.floorDiv(received.year(), 100) * 100);
		// Compared as written, before validation: whether 29 Feb exists depends on the century.
		boolean tooFarAhead = candidate.isAfter(received.plusYears(YEARS_AHEAD));
		return tooFarAhead ? candidate.year() - 100 : candidate.year();
	}

	private UtcCalendar.Fields fields() {
		return new UtcCalendar.Fields(this.year, this.month, this.day, this.hour, this.minute, this.second);
	}

	private boolean isPossible() {
		return this.day >= 1 && this.day <= UtcCalendar.lengthOfMonth(this.year, this.month) && this.hour <= 23
				&& this.minute <= 59 && this.second <= 60;
	}

	private long epochSecond() {
		// Second 60 simply counts on into the next minute.
		return UtcCalendar.epochDay(this.year, this.month, this.day) * UtcCalendar.SECONDS_PER_DAY
				+ this.hour * 3600L + this.minute * 60L + this.second;
	}

	/**
	 * What reading an HTTP-date gave.
	 */
	sealed interface Result permits Parsed, Rejected {

	}

	/**
	 * A valid HTTP-date.
	 *
	 * @param epochSecond the instant it names, in seconds since 1970-01-01T00:00:00Z
	 */
	record Parsed(long epochSecond) implements Result {

	}

	/**
	 * Why a value is not a valid HTTP-date.
	 */
	enum Rejected implements Result {

		/** It does not match the grammar. */
		MALFORMED,

		/** It matches the grammar but names no real time (31 Feb, hour 24). */
		IMPOSSIBLE

	}

}
