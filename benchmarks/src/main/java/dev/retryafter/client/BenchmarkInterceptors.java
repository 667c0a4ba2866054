package dev.retryafter.client;

import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;

import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.Sleeper;

/**
 * Builds {@link RetryAfterInterceptor}s whose waits go through a given {@link Sleeper}, for
 * benchmarks that measure the work of a retry without its wait. It lives in the
 * interceptor's package (in the benchmarks module only) because that seam is package-private:
 * applications always sleep for real.
 */
public final class BenchmarkInterceptors {

	private BenchmarkInterceptors() {
	}

	/**
	 * An interceptor on the system clocks, with local cooldowns and retry budgets as the
	 * public constructors build them, waiting through {@code sleeper}.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param sleeper waits between attempts and for cooldowns
	 * @return the interceptor
	 */
	public static RetryAfterInterceptor sleepingThrough(RetryClients clients, RetryListener listener,
			Sleeper sleeper) {
		return new RetryAfterInterceptor(clients, listener, sleeper, MonotonicClock.SYSTEM, Clock.systemUTC(),
				() -> ThreadLocalRandom.current().nextLong());
	}

}
