package dev.retryafter.actuate;

import java.time.Duration;

/**
 * Writes a {@link Duration} the way it is written in {@code application.yml}: a whole number
 * and the largest unit that holds it exactly ({@code 10s}, {@code 500ms}, {@code 2m},
 * {@code 1500ms}). The result reads back with Spring Boot's simple duration style, so a value
 * seen in the endpoint can be pasted into a property. Round a measured value (such as a
 * remaining cooldown) before formatting it, or it comes out in nanoseconds.
 *
 * @since 0.1.0
 */
public final class DurationFormat {

	private static final long NANOS_PER_MICRO = 1_000L;

	private static final long NANOS_PER_MILLI = 1_000_000L;

	private static final long SECONDS_PER_MINUTE = 60L;

	private static final long SECONDS_PER_HOUR = 3_600L;

	private static final long SECONDS_PER_DAY = 86_400L;

	private DurationFormat() {
	}

	/**
	 * Formats {@code duration} in its largest exact unit.
	 * @param duration the duration, of any size or sign
	 * @return for example {@code 10s}, {@code 500ms}, {@code 0s} or {@code -1m}
	 */
	public static String format(Duration duration) {
		if (duration.isZero()) {
			return "0s";
		}
		if (duration.isNegative()) {
			// Duration.negated() of the most negative duration overflows; such a value is
			// never a setting, so it is shown in seconds rather than failing.
			long seconds = duration.getSeconds();
			if (seconds == Long.MIN_VALUE) {
				return seconds + "s";
			}
			return "-" + format(duration.negated());
		}
		int nanos = duration.getNano();
		long seconds = duration.getSeconds();
		if (nanos == 0) {
			if (seconds % SECONDS_PER_DAY == 0) {
				return (seconds / SECONDS_PER_DAY) + "d";
			}
			if (seconds % SECONDS_PER_HOUR == 0) {
				return (seconds / SECONDS_PER_HOUR) + "h";
			}
			if (seconds % SECONDS_PER_MINUTE == 0) {
				return (seconds / SECONDS_PER_MINUTE) + "m";
			}
			return seconds + "s";
		}
		// Sub-second parts: pick the unit from the nanosecond remainder, and print the whole
		// value in it only when that fits a long (always, for any realistic setting).
		if (nanos % NANOS_PER_MILLI == 0) {
			return scaled(seconds, nanos, NANOS_PER_MILLI, "ms");
		}
		if (nanos % NANOS_PER_MICRO == 0) {
			return scaled(seconds, nanos, NANOS_PER_MICRO, "us");
		}
		return scaled(seconds, nanos, 1, "ns");
	}

	private static String scaled(long seconds, int nanos, long nanosPerUnit, String unit) {
		long unitsPerSecond = 1_000_000_000L / nanosPerUnit;
		try {
			long whole = Math.addExact(Math.multiplyExact(seconds, unitsPerSecond), nanos / nanosPerUnit);
			return whole + unit;
		}
		catch (ArithmeticException ex) {
			// Beyond about 292 years in nanoseconds: print seconds with a fraction instead.
			return seconds + "." + String.format("%09d", nanos) + "s";
		}
	}

}
