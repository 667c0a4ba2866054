package dev.retryafter.reactive;

import java.time.Clock;
import java.util.random.RandomGenerator;

import dev.retryafter.call.CallContext;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.CooldownStore;
import reactor.core.scheduler.Scheduler;

/**
 * Builds {@link RetryAfterExchangeFilter}s on fake time, scheduling and randomness seams.
 */
final class ExchangeFilters {

	private ExchangeFilters() {
	}

	/** A filter on the given origin protection, with no blocking outer retry layer to ask. */
	static RetryAfterExchangeFilter create(ClientSettingsCatalog clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, Scheduler scheduler, MonotonicClock monotonicClock, Clock wallClock,
			RandomGenerator random) {
		return new RetryAfterExchangeFilter(new CallContext(clients, listener, cooldowns, budgets,
				OuterRetryDetector.NEVER, monotonicClock, wallClock, random), scheduler, OuterRetryDetector.NEVER);
	}

}
