package dev.retryafter.client;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.retryafter.core.Sleeper;

/**
 * A {@link Sleeper} that parks the calling thread. Waits too long for a {@code long} of
 * nanoseconds (about 292 years) are clamped rather than overflowing: no plan ever gets there,
 * since every planned wait fits a finite time budget.
 */
final class ThreadSleeper implements Sleeper {

	private static final Duration LONGEST = Duration.ofNanos(Long.MAX_VALUE);

	@Override
	public void sleep(Duration duration) throws InterruptedException {
		// A zero wait must still notice a pending interrupt, as a real wait would.
		if (Thread.interrupted()) {
			throw new InterruptedException("Interrupted before waiting " + duration);
		}
		TimeUnit.NANOSECONDS.sleep(toNanosSaturated(duration));
	}

	static long toNanosSaturated(Duration duration) {
		if (duration.isNegative()) {
			return 0;
		}
		return (duration.compareTo(LONGEST) >= 0) ? Long.MAX_VALUE : duration.toNanos();
	}

}
