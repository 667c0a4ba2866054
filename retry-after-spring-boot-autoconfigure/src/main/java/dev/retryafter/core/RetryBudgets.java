package dev.retryafter.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One {@link RetryBudget} per named client (and {@code default}) whose budget is enabled,
 * built once from the clients' settings. A client whose budget is disabled gets
 * {@link RetryPermits#UNLIMITED}.
 *
 * @since 0.1.0
 */
public final class RetryBudgets {

	private final Map<String, RetryBudget> budgets;

	/**
	 * Creates the budgets of {@code clients}.
	 * @param clients the clients and their settings
	 * @param clock the monotonic clock the windows slide on
	 */
	public RetryBudgets(ClientSettingsCatalog clients, MonotonicClock clock) {
		Objects.requireNonNull(clock, "clock");
		Map<String, RetryBudget> budgets = new LinkedHashMap<>();
		for (ClientSettings client : clients.all()) {
			RetrySettings.Budget budget = client.settings().budget();
			if (budget.enabled()) {
				budgets.put(client.name(), RetryBudget.of(budget, clock));
			}
		}
		this.budgets = Collections.unmodifiableMap(budgets);
	}

	/**
	 * Counts one logical request of {@code client} (not a retry) towards its budget.
	 * @param client the client name
	 */
	public void recordRequest(String client) {
		RetryBudget budget = this.budgets.get(client);
		if (budget != null) {
			budget.recordRequest();
		}
	}

	/**
	 * The retry budget of {@code client}, for a caller that both records a request and
	 * hands out permits with one lookup.
	 * @param client the client name
	 * @return the client's budget, or {@code null} if it has none
	 */
	public @Nullable RetryBudget budget(String client) {
		return this.budgets.get(client);
	}

	/**
	 * The permits the planner asks before each retry of {@code client}'s requests.
	 * @param client the client name
	 * @return the client's budget, or {@link RetryPermits#UNLIMITED} if it has none
	 */
	public RetryPermits permits(String client) {
		RetryBudget budget = this.budgets.get(client);
		return (budget != null) ? budget.permits() : RetryPermits.UNLIMITED;
	}

	/**
	 * The state of each enabled budget, for the actuator endpoint.
	 * @return snapshots by client name, in configuration order ({@code default} first)
	 */
	public Map<String, RetryBudget.Snapshot> snapshots() {
		Map<String, RetryBudget.Snapshot> snapshots = new LinkedHashMap<>();
		this.budgets.forEach((name, budget) -> snapshots.put(name, budget.snapshot()));
		return Collections.unmodifiableMap(snapshots);
	}

}
