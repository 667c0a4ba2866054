package dev.retryafter.client;

import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;

import dev.retryafter.call.CallContext;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.Sleeper;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.LocalCooldownStore;

/**
 * Builds {@link RetryAfterInterceptor}s for benchmarks: standalone ones, with cooldowns and
 * retry budgets of their own, and ones whose waits go through a given {@link Sleeper}, for
 * benchmarks that measure the work of a retry without its wait. It lives in the
 * interceptor's package (in the benchmarks module only) because that seam is package-private:
 * applications always sleep for real.
 */
public final class BenchmarkInterceptors {

	private BenchmarkInterceptors() {
	}

	/**
	 * An interceptor on the system clocks, sleeping for real, with local cooldowns (at their
	 * default size) and retry budgets of its own, and no outer retry layer.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @return the interceptor
	 */
	public static RetryAfterInterceptor standalone(ClientSettingsCatalog clients, RetryListener listener) {
		return new RetryAfterInterceptor(clients, listener, localCooldowns(),
				new RetryBudgets(clients, MonotonicClock.SYSTEM), OuterRetryDetector.NEVER);
	}

	/**
	 * An interceptor on the system clocks, with local cooldowns and retry budgets as
	 * {@link #standalone} builds them, waiting through {@code sleeper}.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param sleeper waits between attempts and for cooldowns
	 * @return the interceptor
	 */
	public static RetryAfterInterceptor sleepingThrough(ClientSettingsCatalog clients, RetryListener listener,
			Sleeper sleeper) {
		return new RetryAfterInterceptor(new CallContext(clients, listener, localCooldowns(),
				new RetryBudgets(clients, MonotonicClock.SYSTEM), OuterRetryDetector.NEVER, MonotonicClock.SYSTEM,
				Clock.systemUTC(), () -> ThreadLocalRandom.current().nextLong()), sleeper);
	}

	private static LocalCooldownStore localCooldowns() {
		return new LocalCooldownStore(new OriginProtection(OriginProtection.DEFAULT_MAX_HOSTS));
	}

}
