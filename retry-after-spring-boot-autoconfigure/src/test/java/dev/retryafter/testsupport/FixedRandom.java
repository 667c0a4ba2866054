package dev.retryafter.testsupport;

import java.util.random.RandomGenerator;

/**
 * A {@link RandomGenerator} whose {@code nextDouble()} always returns the same value, so a
 * jittered wait is an exact number in a test.
 */
public final class FixedRandom implements RandomGenerator {

	private final double value;

	/**
	 * Creates a generator.
	 * @param value what {@link #nextDouble()} returns, in [0, 1)
	 */
	public FixedRandom(double value) {
		if (!(value >= 0 && value < 1)) {
			throw new IllegalArgumentException("value must be in [0, 1): " + value);
		}
		this.value = value;
	}

	@Override
	public double nextDouble() {
		return this.value;
	}

	@Override
	public long nextLong() {
		return (long) (this.value * Long.MAX_VALUE);
	}

}
