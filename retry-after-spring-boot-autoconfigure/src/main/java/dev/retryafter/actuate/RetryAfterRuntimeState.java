package dev.retryafter.actuate;

import java.util.List;
import java.util.Map;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import org.jspecify.annotations.Nullable;

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
	 * Ends cooldowns at once, as an operator asks with {@code DELETE /actuator/retryafter}.
	 * @param origin the origin whose cooldowns (every partition of it) end, or {@code null}
	 * to end every cooldown
	 * @return what was ended, each as {@link #shown(CooldownKey)} writes it; empty when this
	 * state has no cooldowns
	 * @since 0.2.0
	 */
	default List<String> end(@Nullable Origin origin) {
		return List.of();
	}

	/**
	 * How a cooldown key is shown to an operator: the origin, followed by {@code #} and the
	 * partition's digest prefix when partitioned. Never the full digest.
	 * @param key the key
	 * @return e.g. {@code https://api.example.com:443} or
	 * {@code https://api.example.com:443#1a2b3c4d}
	 * @since 0.2.0
	 */
	static String shown(CooldownKey key) {
		String prefix = key.partitionPrefix();
		return (prefix != null) ? key.origin() + "#" + prefix : key.origin().toString();
	}

	/**
	 * An origin, or one partition of an origin, that is cooling down.
	 *
	 * @param client the named client the origin belongs to, or {@code default}
	 * @param origin scheme, host and port, e.g. {@code https://api.example.com:443}
	 * @param remaining time left before requests may be sent again, formatted by
	 * {@link DurationFormat}
	 * @param partition the first {@value CooldownKey#SHOWN_PREFIX_LENGTH} digits of the
	 * partition digest ({@link CooldownKey#partitionPrefix()}), or {@code null} when the
	 * cooldown holds the whole origin
	 */
	record CooldownDescriptor(String client, String origin, String remaining, @Nullable String partition) {

		/**
		 * A cooldown on a whole origin.
		 * @param client the named client the origin belongs to, or {@code default}
		 * @param origin scheme, host and port
		 * @param remaining time left, formatted by {@link DurationFormat}
		 */
		public CooldownDescriptor(String client, String origin, String remaining) {
			this(client, origin, remaining, null);
		}

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
