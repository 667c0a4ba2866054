package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

import dev.retryafter.core.RetrySettings;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationUnit;

/**
 * Retry budget, bounding retries to a share of the requests made.
 *
 * @since 0.1.0
 */
public class BudgetProperties {

	/**
	 * Whether the retry budget applies.
	 */
	private @Nullable Boolean enabled;

	/**
	 * Retries allowed per request made within the window.
	 */
	private @Nullable Double ratio;

	/**
	 * Retries always allowed per second, whatever the number of requests.
	 */
	private @Nullable Integer minPerSecond;

	/**
	 * Window over which the ratio is measured. A number without a unit is in seconds.
	 */
	@DurationUnit(ChronoUnit.SECONDS)
	private @Nullable Duration window;

	/**
	 * Maps this group onto the core's {@link RetrySettings.Budget}, one line per setting: a value
	 * unset at both levels is the core's default.
	 * @param m where each value comes from
	 * @param d the core's defaults
	 * @return the core's settings
	 */
	static RetrySettings.Budget map(PropertyMerge<BudgetProperties> m, RetrySettings.Budget d) {
		return new RetrySettings.Budget(
				m.get("enabled", BudgetProperties::getEnabled, PropertyChecks::required, d.enabled()),
				m.get("ratio", BudgetProperties::getRatio, PropertyChecks::ratio, d.ratio()),
				m.get("min-per-second", BudgetProperties::getMinPerSecond, PropertyChecks::nonNegative,
						d.minPerSecond()),
				m.get("window", BudgetProperties::getWindow, PropertyChecks::positive, d.window()));
	}

	public @Nullable Boolean getEnabled() {
		return this.enabled;
	}

	public void setEnabled(@Nullable Boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable Double getRatio() {
		return this.ratio;
	}

	public void setRatio(@Nullable Double ratio) {
		this.ratio = ratio;
	}

	public @Nullable Integer getMinPerSecond() {
		return this.minPerSecond;
	}

	public void setMinPerSecond(@Nullable Integer minPerSecond) {
		this.minPerSecond = minPerSecond;
	}

	public @Nullable Duration getWindow() {
		return this.window;
	}

	public void setWindow(@Nullable Duration window) {
		this.window = window;
	}

}
