package dev.retryafter.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Local exponential backoff, used when the server sends no usable {@code Retry-After}.
 *
 * @since 0.1.0
 */
public class BackoffProperties {

	/**
	 * Wait before the first retry.
	 */
	private @Nullable Duration initial;

	/**
	 * Factor applied to the wait for each further retry, at least 1.
	 */
	private @Nullable Double multiplier;

	/**
	 * Longest local backoff wait.
	 */
	private @Nullable Duration max;

	public @Nullable Duration getInitial() {
		return this.initial;
	}

	public void setInitial(@Nullable Duration initial) {
		this.initial = initial;
	}

	public @Nullable Double getMultiplier() {
		return this.multiplier;
	}

	public void setMultiplier(@Nullable Double multiplier) {
		this.multiplier = multiplier;
	}

	public @Nullable Duration getMax() {
		return this.max;
	}

	public void setMax(@Nullable Duration max) {
		this.max = max;
	}

}
