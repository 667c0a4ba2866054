package dev.retryafter.core;

import java.time.Duration;

/**
 * Waits. Implemented outside the core (the core never sleeps); tests inject a recording one.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface Sleeper {

	/**
	 * Waits for {@code duration}.
	 * @param duration how long to wait, zero or more
	 * @throws InterruptedException if the waiting thread is interrupted
	 */
	void sleep(Duration duration) throws InterruptedException;

}
