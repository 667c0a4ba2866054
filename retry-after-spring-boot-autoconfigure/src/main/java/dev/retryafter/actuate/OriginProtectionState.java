package dev.retryafter.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.retryafter.actuate.RetryAfterEndpoint.BudgetDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.CooldownDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.ProtectionDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.QuotaDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.StoreDescriptor;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.protection.KeyProtection;
import dev.retryafter.core.protection.RateLimitState;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.StoreState;
import org.jspecify.annotations.Nullable;

/**
 * The live cooldowns and retry budgets shown by the {@code retryafter} endpoint, read from
 * the interceptor's {@link CooldownStore} and {@link RetryBudgets}. Each origin is shown with
 * the named client its host belongs to.
 */
final class OriginProtectionState {

	private final ClientSettingsCatalog clients;

	private final CooldownStore cooldowns;

	private final RetryBudgets budgets;

	private final MonotonicClock clock;

	private final Clock wallClock;

	OriginProtectionState(ClientSettingsCatalog clients, CooldownStore cooldowns, RetryBudgets budgets,
			MonotonicClock clock) {
		this(clients, cooldowns, budgets, clock, Clock.systemUTC());
	}

	/**
	 * Creates the state.
	 * @param wallClock the clock that turns monotonic instants into the wall-clock instants
	 * shown, read together with {@code clock}
	 */
	OriginProtectionState(ClientSettingsCatalog clients, CooldownStore cooldowns, RetryBudgets budgets, MonotonicClock clock,
			Clock wallClock) {
		this.clients = Objects.requireNonNull(clients, "clients");
		this.cooldowns = Objects.requireNonNull(cooldowns, "cooldowns");
		this.budgets = Objects.requireNonNull(budgets, "budgets");
		this.clock = Objects.requireNonNull(clock, "clock");
		this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
	}

	/**
	 * The origins currently cooling down, soonest to end first.
	 */
	List<CooldownDescriptor> cooldowns() {
		List<Map.Entry<CooldownKey, Duration>> active = new ArrayList<>(
				this.cooldowns.snapshot(this.clock.nanoTime()).entrySet());
		active.sort(Map.Entry.comparingByValue());
		List<CooldownDescriptor> descriptors = new ArrayList<>(active.size());
		for (Map.Entry<CooldownKey, Duration> entry : active) {
			Origin origin = entry.getKey().origin();
			// Origin always carries its effective port, so api.example.com:443 in a client's
			// hosts matches https://api.example.com.
			descriptors.add(new CooldownDescriptor(clientOf(origin),
					origin.toString(), DurationFormat.formatMeasured(entry.getValue()), entry.getKey().partitionPrefix(),
					scope(entry.getKey())));
		}
		return descriptors;
	}

	/**
	 * What can hold a request under each key, ordered by key text: every key whose cooldown
	 * is running or still releasing the requests it held, and every key with a learned
	 * pacing rate. Each hold's reason in the log is explained by one of these fields.
	 */
	List<ProtectionDescriptor> protection() {
		long nowNanos = this.clock.nanoTime();
		Instant wallNow = this.wallClock.instant();
		List<KeyProtection> views = this.cooldowns.holds(nowNanos);
		List<ProtectionDescriptor> descriptors = new ArrayList<>(views.size());
		for (KeyProtection view : views) {
			Origin origin = view.key().origin();
			double rate = view.pacedRate();
			descriptors.add(new ProtectionDescriptor(clientOf(origin),
					origin.toString(), view.key().partitionPrefix(), instant(wallNow, view.instant()),
					instant(wallNow, view.releaseWindow()), view.leaving(),
					Double.isNaN(rate) ? null : Math.round(rate * 1000) / 1000.0, instant(wallNow, view.nextSlot()),
					scope(view.key())));
		}
		return descriptors;
	}

	private static @Nullable String instant(Instant wallNow, @Nullable Duration fromNow) {
		// Milliseconds are what a log line's timestamp shows, which is what these are read
		// against.
		return (fromNow != null) ? wallNow.plus(fromNow).truncatedTo(ChronoUnit.MILLIS).toString() : null;
	}

	/**
	 * The last quota each paced key's origin announced, ordered by key.
	 */
	List<QuotaDescriptor> quotas() {
		Map<CooldownKey, RateLimitState> quotas = this.cooldowns.quotas(this.clock.nanoTime());
		List<QuotaDescriptor> descriptors = new ArrayList<>(quotas.size());
		quotas.forEach((key, quota) -> {
			Origin origin = key.origin();
			descriptors.add(new QuotaDescriptor(clientOf(origin),
					origin.toString(), key.partitionPrefix(), quota.policy(), quota.fields().wireName(),
					quota.remaining(), DurationFormat.formatMeasured(quota.resetIn()), scope(key)));
		});
		return descriptors;
	}

	/**
	 * Ends the cooldowns of {@code origin} (every partition of it), or every cooldown when
	 * {@code null}, and returns the running ones that ended, each as {@link #shown} writes it.
	 */
	List<String> end(@Nullable Origin origin) {
		// Expired entries not yet purged are removed too, but only running cooldowns are
		// reported as ended.
		Set<CooldownKey> running = this.cooldowns.snapshot(this.clock.nanoTime()).keySet();
		List<String> ended = new ArrayList<>();
		for (CooldownKey key : this.cooldowns.end(origin)) {
			if (running.contains(key)) {
				ended.add(shown(key));
			}
		}
		ended.sort(null);
		return ended;
	}

	/**
	 * How a cooldown key is shown to an operator: the origin, followed by {@code #} and the
	 * partition's digest prefix when partitioned, and by {@code @} and the scope when scoped.
	 * Never the full digest.
	 */
	private static String shown(CooldownKey key) {
		String prefix = key.partitionPrefix();
		String shown = (prefix != null) ? key.origin() + "#" + prefix : key.origin().toString();
		return (key.scope() != null) ? shown + "@" + key.scope() : shown;
	}

	private static @Nullable String scope(CooldownKey key) {
		return (key.scope() != null) ? key.scope().toString() : null;
	}

	StoreDescriptor store() {
		StoreState state = this.cooldowns.state();
		return new StoreDescriptor(state.type(), state.connected(), state.since().toString(), state.errors());
	}

	/**
	 * The retry budget of each client, in configuration order ({@code default} first).
	 */
	Map<String, BudgetDescriptor> budgets() {
		Map<String, BudgetDescriptor> descriptors = new LinkedHashMap<>();
		this.budgets.snapshots().forEach((client, snapshot) -> descriptors.put(client, descriptor(snapshot)));
		return descriptors;
	}

	private static BudgetDescriptor descriptor(RetryBudget.Snapshot snapshot) {
		return new BudgetDescriptor(snapshot.requests(), snapshot.retries(), snapshot.available());
	}

	// The named client a request to the origin resolves to, as the calls resolve it.
	private String clientOf(Origin origin) {
		return this.clients.resolve(origin.host(), origin.port()).name();
	}

}
