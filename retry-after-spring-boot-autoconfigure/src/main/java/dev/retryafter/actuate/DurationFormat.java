package dev.retryafter.actuate;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * Writes a {@link Duration} the way the README's property table and {@code application.yml}
 * write it: a whole number of seconds as seconds ({@code 10s}, {@code 60s}, never
 * {@code 1m}), otherwise a whole number of milliseconds ({@code 500ms}, {@code 1500ms}). A
 * setting finer than a millisecond is written exactly, in {@code us} or {@code ns}. The
 * result reads back with Spring Boot's simple duration style, so a value seen in the endpoint
 * can be pasted into a property. A measured value, such as the time a cooldown has left, goes
 * through {@link #formatMeasured(Duration)}, which rounds it up to the millisecond first.
 *
 * @since 0.1.0
 */
public final class DurationFormat {

	private static final long NANOS_PER_MICRO = 1_000L;

	private static final long NANOS_PER_MILLI = 1_000_000L;

	private DurationFormat() {
	}

	/**
	 * Formats {@code duration} in whole seconds when it has no fraction of a second, else in
	 * the largest sub-second unit that holds it exactly.
	 * @param duration the duration, of any size or sign
	 * @return for example {@code 10s}, {@code 60s}, {@code 500ms}, {@code 0s} or
	 * {@code -2s}
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
			// Seconds, never minutes or hours: the unit the property table uses for every
			// default (60s, not 1m), so a value can be found in the table as it is shown.
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

	/**
	 * Formats a measured time, such as the time a cooldown has left, rounded up to the next
	 * millisecond: a clock reads nanoseconds, which nobody writes in a property, and rounding
	 * up never shows a wait as over before it is.
	 * @param duration the measured duration, of any size or sign
	 * @return for example {@code 4s} or {@code 1706ms}
	 */
	public static String formatMeasured(Duration duration) {
		Duration millis = duration.truncatedTo(ChronoUnit.MILLIS);
		if (millis.compareTo(duration) < 0) {
			if (millis.getSeconds() == Long.MAX_VALUE) {
				// One millisecond more would overflow; no measured time comes near it.
				return format(duration);
			}
			millis = millis.plusMillis(1);
		}
		return format(millis);
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
