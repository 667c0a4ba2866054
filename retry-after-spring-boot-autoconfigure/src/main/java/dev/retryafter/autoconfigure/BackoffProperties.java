package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

import dev.retryafter.core.RetrySettings;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationUnit;

/**
 * Local exponential backoff, used when the server sends no usable {@code Retry-After}.
 *
 * @since 0.1.0
 */
public class BackoffProperties {

	/**
	 * Wait before the first retry. A number without a unit is in seconds.
	 */
	@DurationUnit(ChronoUnit.SECONDS)
	private @Nullable Duration initial;

	/**
	 * Factor applied to the wait for each further retry, at least 1.
	 */
	private @Nullable Double multiplier;

	/**
	 * Longest local backoff wait. A number without a unit is in seconds.
	 */
	@DurationUnit(ChronoUnit.SECONDS)
	private @Nullable Duration max;

	/**
	 * Maps this group onto the core's {@link RetrySettings.Backoff}, one line per setting: a value
	 * unset at both levels is the core's default.
	 * @param m where each value comes from
	 * @param d the core's defaults
	 * @return the core's settings
	 */
	static RetrySettings.Backoff map(PropertyMerge<BackoffProperties> m, RetrySettings.Backoff d) {
		return new RetrySettings.Backoff(
				m.get("initial", BackoffProperties::getInitial, PropertyChecks::nonNegative, d.initial()),
				m.get("multiplier", BackoffProperties::getMultiplier, PropertyChecks::multiplier, d.multiplier()),
				m.get("max", BackoffProperties::getMax, PropertyChecks::nonNegative, d.max()));
	}

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
