package dev.retryafter.core;

import java.util.random.RandomGenerator;

/**
 * A {@link RandomGenerator} whose {@code nextDouble()} always returns one known value, so a
 * jittered wait is an exact, predictable Duration. Counts the draws.
 */
final class FixedRandom implements RandomGenerator {

	private final double value;

	private int draws;

	FixedRandom(double value) {
		this.value = value;
	}

	@Override
	public double nextDouble() {
		this.draws++;
		return this.value;
	}

	@Override
	public long nextLong() {
		throw new UnsupportedOperationException("only nextDouble() is used for jitter");
	}

	int draws() {
		return this.draws;
	}

}
