package dev.retryafter.core;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Spreads identical waits: the wait is {@code base} plus a random
 * extra, uniform in {@code [0, jitter x base]}, trimmed so the wait does not pass a limit.
 * Jitter is only ever added: callers that all got the same server delay leave at different
 * times, and none earlier than the server asked.
 *
 * @since 0.1.0
 */
public final class Jitter {

	private Jitter() {
	}

	/**
	 * The jittered wait. Draws exactly one {@link RandomGenerator#nextDouble()}, whatever the
	 * arguments, so a seeded generator gives the same sequence of waits for the same calls.
	 * @param base the wait before jitter, zero or more
	 * @param jitter the largest extra as a fraction of {@code base}, between 0 and 1
	 * @param random the random source; a value outside {@code [0, 1]} is clamped into it
	 * @param limit the longest acceptable wait (for a retry: the remaining budget minus the
	 * attempt reserve); the extra is reduced to fit it, and a limit below {@code base} yields
	 * {@code base}
	 * @return a wait between {@code base} and {@code max(base, min(limit, base + jitter x base))}
	 * @throws IllegalArgumentException if {@code base} is negative or {@code jitter} is outside
	 * {@code [0, 1]}
	 */
	public static Duration apply(Duration base, double jitter, RandomGenerator random, Duration limit) {
		return apply(base, base, jitter, random, limit);
	}

	/**
	 * The jittered wait with the extra scaled by another duration than the base: uniform in
	 * {@code [0, jitter x scale]}. A request held by a host cooldown waits only the time left
	 * until the origin's instant, but its extra is scaled by the server's whole delay, so held
	 * requests spread over the same window as retries. Draws exactly one
	 * {@link RandomGenerator#nextDouble()}.
	 * @param base the wait before jitter, zero or more
	 * @param scale what the extra is a fraction of, zero or more
	 * @param jitter the largest extra as a fraction of {@code scale}, between 0 and 1
	 * @param random the random source; a value outside {@code [0, 1]} is clamped into it
	 * @param limit the longest acceptable wait; the extra is reduced to fit it, and a limit
	 * below {@code base} yields {@code base}
	 * @return a wait between {@code base} and {@code max(base, min(limit, base + jitter x scale))}
	 * @throws IllegalArgumentException if {@code base} or {@code scale} is negative or
	 * {@code jitter} is outside {@code [0, 1]}
	 */
	public static Duration apply(Duration base, Duration scale, double jitter, RandomGenerator random,
			Duration limit) {
		Objects.requireNonNull(base, "base");
		Objects.requireNonNull(scale, "scale");

		Objects.requireNonNull(random, "random");
		Objects.requireNonNull(limit, "limit");
		if (base.isNegative()) {
			throw new IllegalArgumentException("base must not be negative: " + base);
		}
		if (scale.isNegative()) {
			throw new IllegalArgumentException("scale must not be negative: " + scale);
		}
		checkFactor(jitter);
		double fraction = clampUnit(random.nextDouble());
		if (limit.compareTo(base) <= 0) {
			return base;
		}
		// limit > base >= 0, so neither the headroom nor base + extra can overflow.
		Duration headroom = limit.minus(base);
		return base.plus(DurationMath.multiplyCapped(scale, fraction * jitter, headroom));
	}

	/**
	 * Checks a jitter factor: the one place its range is written, for the settings, the
	 * admission requests and the jitter itself.
	 * @param jitter the factor
	 * @throws IllegalArgumentException if it is not between 0 and 1 (or is NaN)
	 */
	public static void checkFactor(double jitter) {
		if (!(jitter >= 0 && jitter <= 1)) {
			throw new IllegalArgumentException("jitter must be between 0 and 1: " + jitter);
		}
	}

	private static double clampUnit(double value) {
		if (!(value > 0)) {
			return 0;
		}
		return Math.min(value, 1);
	}

}
