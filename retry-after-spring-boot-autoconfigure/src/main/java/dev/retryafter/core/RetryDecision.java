package dev.retryafter.core;

import java.time.Duration;
import java.util.Objects;

/**
 * What the planner decided for one attempt's outcome: {@link Retry} after a wait, or
 * {@link Stop} with a reason.
 *
 * @since 0.1.0
 */
public sealed interface RetryDecision permits RetryDecision.Retry, RetryDecision.Stop {

	/**
	 * Retry after {@code delay}.
	 *
	 * @param delay the planned wait, base plus jitter; never below {@code base}
	 * @param base the larger of the server's delay and the local backoff
	 * @param source the term that set {@code base}
	 */
	record Retry(Duration delay, Duration base, DelaySource source) implements RetryDecision {

		/**
		 * Checks the components, as described on the record.
		 * @param delay the planned wait, base plus jitter; never below {@code base}
		 * @param base the larger of the server's delay and the local backoff
		 * @param source the term that set {@code base}
		 */
		public Retry {
			Objects.requireNonNull(delay, "delay");
			Objects.requireNonNull(base, "base");
			Objects.requireNonNull(source, "source");
			if (base.isNegative() || delay.compareTo(base) < 0) {
				throw new IllegalArgumentException("delay " + delay + " must be >= base " + base + " >= 0");
			}
		}

	}

	/**
	 * Do not retry.
	 *
	 * @param reason why
	 */
	record Stop(StopReason reason) implements RetryDecision {

		/**
		 * Checks the components, as described on the record.
		 * @param reason why
		 */
		public Stop {
			Objects.requireNonNull(reason, "reason");
		}

	}

}
