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
		 * The shortest {@code Retry-After} that paces a retry free of the retry budget: a
		 * {@code Retry-After: 0} paces nothing, and the budget keeps limiting it.
		 */
		public static final Duration SERVER_PACED_MINIMUM = Duration.ofSeconds(1);

		public Retry {
			Objects.requireNonNull(delay, "delay");
			Objects.requireNonNull(base, "base");
			Objects.requireNonNull(source, "source");
			if (base.isNegative() || delay.compareTo(base) < 0) {
				throw new IllegalArgumentException("delay " + delay + " must be >= base " + base + " >= 0");
			}
		}

		/**
		 * Whether the server set this retry's wait: its {@code Retry-After} was at least
		 * {@link #SERVER_PACED_MINIMUM} and not shorter than the local backoff. Such a retry
		 * comes back when the server said it could take it, so it counts as a request but
		 * spends no retry budget.
		 * @return whether the retry is paced by the server
		 */
		public boolean isServerPaced() {
			return this.source != DelaySource.BACKOFF && this.base.compareTo(SERVER_PACED_MINIMUM) >= 0;
		}

	}

	/**
	 * Do not retry.
	 *
	 * @param reason why
	 */
	record Stop(StopReason reason) implements RetryDecision {

		public Stop {
			Objects.requireNonNull(reason, "reason");
		}

	}

}
