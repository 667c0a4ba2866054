package dev.retryafter.core.header;

import java.time.Instant;
import java.util.List;

/**
 * The value grammars of the quota fields that vendors send: counts, decimal seconds, Go
 * durations, RFC 3339 timestamps and HTTP-dates. Each reads exactly one field line, after
 * OWS, whole; each is linear in the value, never throws, and answers {@value #INVALID} for
 * a field that is absent, repeated, negative, malformed or out of range.
 * <p>
 * Times are nanoseconds. A value is read only up to {@link RateLimitParser#MAX_RESET} as a
 * delay, and up to the year 2261 as a timestamp: a reset further away is no quota's.
 */
final class RateLimitValues {

	/** What every reader answers for a value it does not accept. */
	static final long INVALID = -1;

	static final long SECOND_NANOS = 1_000_000_000L;

	static final long MAX_RESET_NANOS = RateLimitParser.MAX_RESET.toNanos();

	/** 2262-01-01T00:00:00Z: epoch nanoseconds fit a long until April 2262. */
	private static final long MAX_EPOCH_SECOND = 9_214_646_400L;

	private RateLimitValues() {
	}

	/**
	 * A count: ASCII digits, at most 18 of them (more is no count of any server).
	 */
	static long count(List<String> lines) {
		String value = single(lines);
		if (value == null) {
			return INVALID;
		}
		int start = RetryAfterParser.skipLeadingOws(value);
		int end = RetryAfterParser.skipTrailingOws(value, start);
		return digits(value, start, end, 18);
	}

	/**
	 * Seconds with an optional fraction ({@code 1470173023.123}, {@code 0.25}) as nanoseconds,
	 * a fraction rounded up to the nanosecond; at most {@link #MAX_EPOCH_SECOND} seconds, so
	 * that a Unix time fits too.
	 */
	static long decimalSeconds(List<String> lines) {
		String value = single(lines);
		if (value == null) {
			return INVALID;
		}
		int start = RetryAfterParser.skipLeadingOws(value);
		int end = RetryAfterParser.skipTrailingOws(value, start);
		int dot = indexOf(value, '.', start, end);
		long seconds = digits(value, start, (dot < 0) ? end : dot, 10);
		if (seconds < 0 || seconds > MAX_EPOCH_SECOND) {
			return INVALID;
		}
		long fraction = 0;
		if (dot >= 0) {
			fraction = fractionNanos(value, dot + 1, end);
			if (fraction < 0) {
				return INVALID;
			}
		}
		return seconds * SECOND_NANOS + fraction;
	}

	/**
	 * Whether a field's single line has a fraction (a {@code '.'}), so that its instant is
	 * finer than the second.
	 */
	static boolean hasFraction(List<String> lines) {
		String value = single(lines);
		return value != null && value.indexOf('.') >= 0;
	}

	/**
	 * A Go duration as {@code time.Duration.String} writes it ({@code 20ms}, {@code 1s},
	 * {@code 6m0s}, {@code 1m30.5s}): one or more decimal numbers, each with a unit of
	 * {@code h}, {@code m}, {@code s}, {@code ms}, {@code us} ({@code µs}) or {@code ns};
	 * or a lone {@code 0}. No sign: a negative reset is nonsense. At most a day.
	 */
	static long goDuration(List<String> lines) {
		String value = single(lines);
		if (value == null) {
			return INVALID;
		}
		int pos = RetryAfterParser.skipLeadingOws(value);
		int end = RetryAfterParser.skipTrailingOws(value, pos);
		if (end - pos == 1 && value.charAt(pos) == '0') {
			return 0;
		}
		if (pos == end) {
			return INVALID;
		}
		long total = 0;
		while (pos < end) {
			int numberEnd = pos;
			while (numberEnd < end && (isDigit(value.charAt(numberEnd)) || value.charAt(numberEnd) == '.')) {
				numberEnd++;
			}
			int unitEnd = numberEnd;
			while (unitEnd < end && !isDigit(value.charAt(unitEnd)) && value.charAt(unitEnd) != '.') {
				unitEnd++;
			}
			long unit = unitNanos(value, numberEnd, unitEnd);
			long part = (unit > 0) ? scaled(value, pos, numberEnd, unit) : INVALID;
			if (part < 0 || part > MAX_RESET_NANOS - total) {
				return INVALID;
			}
			total += part;
			pos = unitEnd;
		}
		return total;
	}

	/**
	 * An RFC 3339 {@code date-time} ({@code 2026-12-02T13:24:12Z},
	 * {@code 2026-12-02T14:24:12.5+01:00}) as epoch nanoseconds, a fraction rounded up. The
	 * {@code T} and {@code Z} may be lower case; second 60 (a leap second) is read as the
	 * next second, as HTTP-dates are.
	 */
	static long rfc3339(List<String> lines) {
		String value = single(lines);
		if (value == null) {
			return INVALID;
		}
		int pos = RetryAfterParser.skipLeadingOws(value);
		int end = RetryAfterParser.skipTrailingOws(value, pos);
		// The fixed part: yyyy-mm-ddThh:mm:ss is 19 characters, then a fraction and an offset.
		if (end - pos < 20 || !at(value, pos + 4, '-') || !at(value, pos + 7, '-') || !at(value, pos + 13, ':')
				|| !at(value, pos + 16, ':') || Character.toUpperCase(value.charAt(pos + 10)) != 'T') {
			return INVALID;
		}
		long year = digits(value, pos, pos + 4, 4);
		long month = digits(value, pos + 5, pos + 7, 2);
		long day = digits(value, pos + 8, pos + 10, 2);
		long hour = digits(value, pos + 11, pos + 13, 2);
		long minute = digits(value, pos + 14, pos + 16, 2);
		long second = digits(value, pos + 17, pos + 19, 2);
		if (year < 1970 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60
				|| day > UtcCalendar.lengthOfMonth(year, (int) month)) {
			return INVALID;
		}
		int offsetStart = pos + 19;
		long fraction = 0;
		if (at(value, offsetStart, '.')) {
			int fractionEnd = offsetStart + 1;
			while (fractionEnd < end && isDigit(value.charAt(fractionEnd))) {
				fractionEnd++;
			}
			fraction = fractionNanos(value, offsetStart + 1, fractionEnd);
			if (fraction < 0) {
				return INVALID;
			}
			offsetStart = fractionEnd;
		}
		long offsetSeconds = offsetSeconds(value, offsetStart, end);
		if (offsetSeconds == Long.MIN_VALUE) {
			return INVALID;
		}
		long epochSecond = UtcCalendar.epochDay(year, (int) month, (int) day) * UtcCalendar.SECONDS_PER_DAY
				+ hour * 3600 + minute * 60 + second - offsetSeconds;
		if (epochSecond < 0 || epochSecond > MAX_EPOCH_SECOND) {
			return INVALID;
		}
		return epochSecond * SECOND_NANOS + fraction;
	}

	/**
	 * An HTTP-date (RFC 9110, all three forms) as epoch nanoseconds.
	 */
	static long httpDate(List<String> lines, Instant receivedAt) {
		String value = single(lines);
		if (value == null) {
			return INVALID;
		}
		int start = RetryAfterParser.skipLeadingOws(value);
		int end = RetryAfterParser.skipTrailingOws(value, start);
		if (HttpDate.parse(value, start, end, receivedAt) instanceof HttpDate.Parsed parsed
				&& parsed.epochSecond() >= 0 && parsed.epochSecond() <= MAX_EPOCH_SECOND) {
			return parsed.epochSecond() * SECOND_NANOS;
		}
		return INVALID;
	}

	/**
	 * The time from {@code receivedAt} to an instant in epoch nanoseconds: zero for one in
	 * the past, {@value #INVALID} for one more than a day away. A whole-second instant is
	 * measured from the start of the second the response came in, so that rounding never
	 * moves the reset earlier than the server meant.
	 */
	static long until(long epochNanos, boolean wholeSeconds, Instant receivedAt) {
		if (epochNanos < 0) {
			return INVALID;
		}
		// Seconds first: the received instant may be any Instant, far outside epoch nanoseconds.
		long seconds = epochNanos / SECOND_NANOS - receivedAt.getEpochSecond();
		if (seconds > RateLimitParser.MAX_RESET.getSeconds() + 1) {
			return INVALID;
		}
		if (seconds < -1) {
			return 0;
		}
		long nanos = seconds * SECOND_NANOS + epochNanos % SECOND_NANOS - (wholeSeconds ? 0 : receivedAt.getNano());
		if (nanos > MAX_RESET_NANOS) {
			return INVALID;
		}
		return Math.max(0, nanos);
	}

	// The one line of a singleton field, or null when it is absent or repeated.
	private static String single(List<String> lines) {
		return (lines.size() == 1) ? lines.get(0) : null;
	}

	// Digits in [start, end), between 1 and maxDigits of them, or INVALID.
	private static long digits(String value, int start, int end, int maxDigits) {
		if (start >= end || end - start > maxDigits) {
			return INVALID;
		}
		long number = 0;
		for (int i = start; i < end; i++) {
			char c = value.charAt(i);
			if (!isDigit(c)) {
				return INVALID;
			}
			number = number * 10 + (c - '0');
		}
		return number;
	}

	// The digits of a fraction in [start, end) as nanoseconds, rounded up; at least one digit.
	private static long fractionNanos(String value, int start, int end) {
		if (start >= end) {
			return INVALID;
		}
		long nanos = 0;
		boolean roundUp = false;
		for (int i = start; i < end; i++) {
			char c = value.charAt(i);
			if (!isDigit(c)) {
				return INVALID;
			}
			if (i - start < 9) {
				nanos = nanos * 10 + (c - '0');
			}
			else if (c != '0') {
				roundUp = true;
			}
		}
		for (int i = end - start; i < 9; i++) {
			nanos *= 10;
		}
		return roundUp ? nanos + 1 : nanos;
	}

	// A number [start, end) with an optional fraction, times a unit, rounded up; or INVALID.
	private static long scaled(String value, int start, int end, long unitNanos) {
		int dot = indexOf(value, '.', start, end);
		long whole = digits(value, start, (dot < 0) ? end : dot, 18);
		if (whole < 0 || whole > MAX_RESET_NANOS / unitNanos) {
			return INVALID;
		}
		long fraction = 0;
		if (dot >= 0) {
			long nanosOfUnit = fractionNanos(value, dot + 1, end);
			if (nanosOfUnit < 0) {
				return INVALID;
			}
			// Exact: a unit of a second or more is a whole number of seconds, a smaller one
			// times a fraction below 10^9 stays under 10^15.
			fraction = (unitNanos >= SECOND_NANOS) ? nanosOfUnit * (unitNanos / SECOND_NANOS)
					: (nanosOfUnit * unitNanos + SECOND_NANOS - 1) / SECOND_NANOS;
		}
		return whole * unitNanos + fraction;
	}

	private static long unitNanos(String value, int start, int end) {
		return switch (value.substring(start, end)) {
			case "h" -> 3600 * SECOND_NANOS;
			case "m" -> 60 * SECOND_NANOS;
			case "s" -> SECOND_NANOS;
			case "ms" -> 1_000_000L;
			case "us", "\u00b5s", "\u03bcs" -> 1_000L;
			case "ns" -> 1L;
			default -> INVALID;
		};
	}

	// "Z", or +hh:mm / -hh:mm, filling [start, end) exactly; Long.MIN_VALUE when it is neither.
	private static long offsetSeconds(String value, int start, int end) {
		if (end - start == 1 && Character.toUpperCase(value.charAt(start)) == 'Z') {
			return 0;
		}
		if (end - start != 6 || !at(value, start + 3, ':')) {
			return Long.MIN_VALUE;
		}
		char sign = value.charAt(start);
		long hours = digits(value, start + 1, start + 3, 2);
		long minutes = digits(value, start + 4, start + 6, 2);
		if ((sign != '+' && sign != '-') || hours < 0 || hours > 23 || minutes < 0 || minutes > 59) {
			return Long.MIN_VALUE;
		}
		long seconds = hours * 3600 + minutes * 60;
		return (sign == '-') ? -seconds : seconds;
	}

	private static int indexOf(String value, char c, int start, int end) {
		for (int i = start; i < end; i++) {
			if (value.charAt(i) == c) {
				return i;
			}
		}
		return -1;
	}

	private static boolean at(String value, int index, char c) {
		return index < value.length() && value.charAt(index) == c;
	}

	private static boolean isDigit(char c) {
		return c >= '0' && c <= '9';
	}

}
