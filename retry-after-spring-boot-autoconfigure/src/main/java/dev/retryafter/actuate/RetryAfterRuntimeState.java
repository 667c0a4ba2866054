package dev.retryafter.actuate;

import java.util.List;
import java.util.Map;

/**
 * Live origin-protection state shown by the {@code retryafter} endpoint. The cooldown and
 * retry-budget components provide a bean of this type; without one the endpoint shows empty
 * lists. New state is added as new default methods, so implementations keep compiling.
 *
 * @since 0.1.0
 */
public interface RetryAfterRuntimeState {

	/** State with no cooldowns and no budgets. */
	RetryAfterRuntimeState NONE = new RetryAfterRuntimeState() {
	};

	/**
	 * The origins currently cooling down.
	 * @return the active cooldowns, soonest to end first
	 */
	default List<CooldownDescriptor> cooldowns() {
		return List.of();
	}

	/**
	 * The retry budget of each named client (and {@code default}).
	 * @return budget state by client name
	 */
	default Map<String, BudgetDescriptor> budgets() {
		return Map.of();
	}

	/**
	 * An origin that is cooling down.
	 *
	 * @param client the named client the origin belongs to, or {@code default}
	 * @param origin scheme, host and port, e.g. {@code https://api.example.com:443}
	 * @param remaining time left before requests may be sent again, formatted by
	 * {@link DurationFormat}
	 */
	record CooldownDescriptor(String client, String origin, String remaining) {
	}

	/**
	 * A client's retry budget over its current window.
	 *
	 * @param requests first attempts counted in the window
	 * @param retries retries spent in the window
	 * @param available retries still allowed in the window
	 */
	record BudgetDescriptor(long requests, long retries, long available) {
	}

}
