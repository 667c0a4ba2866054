package dev.retryafter.autoconfigure;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

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
	 * Window over which the ratio is measured.
	 */
	private @Nullable Duration window;

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
