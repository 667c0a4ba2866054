package dev.retryafter.store;

import java.time.Duration;
import java.util.random.RandomGenerator;

import dev.retryafter.core.Jitter;

/**
 * The waits between the reconnection attempts of a Redis outage: steps of 1 s, then twice as
 * long each time, up to 30 s, each wait drawn between half its step and the whole step, so a
 * fleet that lost Redis at once does not reconnect and scan in step. Back to the first step
 * once a heartbeat is heard while connected.
 */
final class ReconnectBackoff {

	/** The wait before the first reconnection attempt of an outage. */
	static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);

	/** The longest wait between two reconnection attempts. */
	static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);

	private final Duration firstRetryDelay;

	private final Duration maxRetryDelay;

	// Spreads the reconnection attempts of instances that lost Redis together.
	private final RandomGenerator random;

	// The step of the next reconnection attempt.
	private volatile Duration retryDelay;

	ReconnectBackoff(Duration firstRetryDelay, Duration maxRetryDelay, RandomGenerator random) {
		this.firstRetryDelay = firstRetryDelay;
		this.maxRetryDelay = maxRetryDelay;
		this.random = random;
		this.retryDelay = firstRetryDelay;
	}

	/**
	 * The wait before the next attempt, drawn from its step; the step after it is longer.
	 */
	Duration nextWait() {
		Duration delay = this.retryDelay;
		this.retryDelay = backOff(delay, this.maxRetryDelay);
		return retryWait(delay, this.random);
	}

	/**
	 * Back to the first step: a heartbeat was heard while connected, so an outage that follows
	 * starts backing off afresh.
	 */
	void reset() {
		this.retryDelay = this.firstRetryDelay;
	}

	/**
	 * The wait after {@code delay}: twice as long, up to {@code max}.
	 */
	static Duration backOff(Duration delay, Duration max) {
		return (delay.compareTo(max.dividedBy(2)) > 0) ? max : delay.multipliedBy(2);
	}

	/**
	 * The wait before an attempt whose backoff step is {@code step}: uniform between half the
	 * step and the step. Draws exactly one {@link RandomGenerator#nextDouble()}.
	 */
	static Duration retryWait(Duration step, RandomGenerator random) {
		Duration half = step.dividedBy(2);
		return Jitter.apply(half, step.minus(half), 1.0, random, step);
	}

}
