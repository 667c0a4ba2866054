package dev.retryafter.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryClients;
import dev.retryafter.store.CooldownStore;
import org.jspecify.annotations.Nullable;

/**
 * The live cooldowns and retry budgets shown by the {@code retryafter} endpoint, read from
 * the interceptor's {@link CooldownStore} and {@link RetryBudgets}. Each origin is shown with
 * the named client its host belongs to.
 *
 * @since 0.1.0
 */
public class OriginProtectionState implements RetryAfterRuntimeState {

	private final RetryClients clients;

	private final CooldownStore cooldowns;

	private final RetryBudgets budgets;

	private final MonotonicClock clock;

	/**
	 * Creates the state view on the system's monotonic clock (the interceptor's).
	 * @param clients the configured clients
	 * @param cooldowns the host cooldowns
	 * @param budgets the retry budgets
	 */
	public OriginProtectionState(RetryClients clients, CooldownStore cooldowns, RetryBudgets budgets) {
		this(clients, cooldowns, budgets, MonotonicClock.SYSTEM);
	}

	OriginProtectionState(RetryClients clients, CooldownStore cooldowns, RetryBudgets budgets,
			MonotonicClock clock) {
		this.clients = Objects.requireNonNull(clients, "clients");
		this.cooldowns = Objects.requireNonNull(cooldowns, "cooldowns");
		this.budgets = Objects.requireNonNull(budgets, "budgets");
		this.clock = Objects.requireNonNull(clock, "clock");
	}

	@Override
	public List<CooldownDescriptor> cooldowns() {
		List<Map.Entry<CooldownKey, Duration>> active = new ArrayList<>(
				this.cooldowns.snapshot(this.clock.nanoTime()).entrySet());
		active.sort(Map.Entry.comparingByValue());
		List<CooldownDescriptor> descriptors = new ArrayList<>(active.size());
		for (Map.Entry<CooldownKey, Duration> entry : active) {
			Origin origin = entry.getKey().origin();
			// Origin always carries its effective port, so api.example.com:443 in a client's
			// hosts matches https://api.example.com.
			descriptors.add(new CooldownDescriptor(this.clients.resolve(origin.host(), origin.port()).name(),
					origin.toString(), DurationFormat.format(entry.getValue()), entry.getKey().partitionPrefix()));
		}
		return descriptors;
	}

	@Override
	public List<String> end(@Nullable Origin origin) {
		// Expired entries not yet purged are removed too, but only running cooldowns are
		// reported as ended.
		Set<CooldownKey> running = this.cooldowns.snapshot(this.clock.nanoTime()).keySet();
		List<String> ended = new ArrayList<>();
		for (CooldownKey key : this.cooldowns.end(origin)) {
			if (running.contains(key)) {
				ended.add(RetryAfterRuntimeState.shown(key));
			}
		}
		ended.sort(null);
		return ended;
	}

	@Override
	public Map<String, BudgetDescriptor> budgets() {
		Map<String, BudgetDescriptor> descriptors = new LinkedHashMap<>();
		this.budgets.snapshots().forEach((client, snapshot) -> descriptors.put(client, descriptor(snapshot)));
		return descriptors;
	}

	private static BudgetDescriptor descriptor(RetryBudget.Snapshot snapshot) {
		return new BudgetDescriptor(snapshot.requests(), snapshot.retries(), snapshot.available());
	}

}
