package dev.retryafter.core;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Decides, for one attempt's outcome, whether to retry and after how long (SPEC section 3,
 * rules 1 to 8, first that applies wins). A pure function of its arguments: it never sleeps,
 * logs or reads a clock.
 *
 * @since 0.1.0
 */
public final class RetryPlanner {

	private RetryPlanner() {
	}

	/**
	 * Decides what follows an attempt.
	 * @param settings the settings in force for this request
	 * @param request facts about the request
	 * @param outcome how the attempt ended
	 * @param attempt the number of the attempt that just ended, 1 for the first
	 * @param elapsed monotonic time since the first attempt started
	 * @param permits the retry budget, asked at rule 4 (and refunded if a later rule stops)
	 * @param random the random source for jitter
	 * @return the decision
	 */
	public static RetryDecision decide(RetrySettings settings, RequestFacts request, AttemptOutcome outcome,
			int attempt, Duration elapsed, RetryPermits permits, RandomGenerator random) {
		throw new UnsupportedOperationException("not implemented yet");
	}

}
