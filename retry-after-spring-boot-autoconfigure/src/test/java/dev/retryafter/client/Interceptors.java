package dev.retryafter.client;

import java.time.Clock;
import java.util.random.RandomGenerator;

import dev.retryafter.call.CallContext;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.Sleeper;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;

/**
 * Builds {@link RetryAfterInterceptor}s on fake time, waiting and randomness seams, with
 * only the collaborators a test cares about spelled out.
 */
final class Interceptors {

	private Interceptors() {
	}

	/**
	 * An interceptor with local cooldowns (at their default size) and retry budgets on the
	 * monotonic clock, with no outer retry layer.
	 */
	static RetryAfterInterceptor create(ClientSettingsCatalog clients, RetryListener listener, Sleeper sleeper,
			MonotonicClock monotonicClock, Clock wallClock, RandomGenerator random) {
		return create(clients, listener, new LocalCooldownStore(new OriginProtection(OriginProtection.DEFAULT_MAX_HOSTS)),
				new RetryBudgets(clients, monotonicClock), sleeper, monotonicClock, wallClock, random);
	}

	/** An interceptor on the given origin protection, with no outer retry layer. */
	static RetryAfterInterceptor create(ClientSettingsCatalog clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, Sleeper sleeper, MonotonicClock monotonicClock, Clock wallClock,
			RandomGenerator random) {
		return create(clients, listener, cooldowns, budgets, OuterRetryDetector.NEVER, sleeper, monotonicClock,
				wallClock, random);
	}

	/** An interceptor on the given origin protection, inside the outer retry layer {@code outerRetry} sees. */
	static RetryAfterInterceptor create(ClientSettingsCatalog clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, OuterRetryDetector outerRetry, Sleeper sleeper, MonotonicClock monotonicClock,
			Clock wallClock, RandomGenerator random) {
		return new RetryAfterInterceptor(
				new CallContext(clients, listener, cooldowns, budgets, outerRetry, monotonicClock, wallClock, random),
				sleeper);
	}

	/** An interceptor on the system clocks, sleeping for real, with local cooldowns: for tests that never wait. */
	static RetryAfterInterceptor system(ClientSettingsCatalog clients, RetryListener listener) {
		return new RetryAfterInterceptor(clients, listener,
				new LocalCooldownStore(new OriginProtection(OriginProtection.DEFAULT_MAX_HOSTS)),
				new RetryBudgets(clients, MonotonicClock.SYSTEM), OuterRetryDetector.NEVER);
	}

}
