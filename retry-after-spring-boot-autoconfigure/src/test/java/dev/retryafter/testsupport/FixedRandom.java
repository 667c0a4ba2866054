package dev.retryafter.testsupport;

import java.util.random.RandomGenerator;

/**
 * A {@link RandomGenerator} whose {@code nextDouble()} always returns the same value, so a
 * jittered wait is an exact, predictable Duration. Counts the draws. Any value is accepted,
 * so that a test can also stand for a misbehaving generator (one that returns 1.0 or more).
 */
public final class FixedRandom implements RandomGenerator {

	private final double value;

	private int draws;

	/**
	 * Creates a generator.
	 * @param value what {@link #nextDouble()} returns, normally in [0, 1)
	 */
	public FixedRandom(double value) {
		this.value = value;
	}

	@Override
	public synchronized double nextDouble() {
		this.draws++;
		return this.value;
	}

	@Override
	public long nextLong() {
		return (long) (this.value * Long.MAX_VALUE);
	}

	/**
	 * How many times {@link #nextDouble()} was called.
	 * @return the number of draws
	 */
	public synchronized int draws() {
		return this.draws;
	}

}
