package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.Objects;

import dev.retryafter.core.HoldReason;

/**
 * Whether a request may be sent to an origin now, given its host cooldown:
 * {@link Proceed}, {@link Wait} first, or {@link Refuse} without sending.
 *
 * @since 0.1.0
 * @see OriginProtection#admit
 */
public sealed interface Admission permits Admission.Proceed, Admission.Wait, Admission.Refuse {

	/** The origin is not cooling down: send now. */
	Proceed PROCEED = new Proceed();

	/**
	 * The origin is not cooling down.
	 */
	record Proceed() implements Admission {
	}

	/**
	 * The origin is cooling down, requests it held are still leaving, or its requests are
	 * paced, and the wait fits the request's budget: wait, then send.
	 *
	 * @param delay the wait: the time left until the origin's not-before instant plus jitter,
	 * until the last held request has left plus jitter, or until the request's paced slot,
	 * positive
	 * @param reason which of those held the request
	 */
	record Wait(Duration delay, HoldReason reason) implements Admission {

		public Wait {
			Objects.requireNonNull(delay, "delay");
			Objects.requireNonNull(reason, "reason");
			if (delay.isNegative() || delay.isZero()) {
				throw new IllegalArgumentException("delay must be positive: " + delay);
			}
		}

		/**
		 * A wait for a cooling origin's instant.
		 * @param delay the wait, positive
		 */
		public Wait(Duration delay) {
			this(delay, HoldReason.COOLDOWN);
		}

	}

	/**
	 * The origin is cooling down and the request must not be sent: the mode is fail-fast, or
	 * the wait does not fit the request's budget.
	 *
	 * @param timeLeft the time left until the origin's not-before instant, positive
	 */
	record Refuse(Duration timeLeft) implements Admission {

		public Refuse {
			Objects.requireNonNull(timeLeft, "timeLeft");
			if (timeLeft.isNegative() || timeLeft.isZero()) {
				throw new IllegalArgumentException("timeLeft must be positive: " + timeLeft);
			}
		}

	}

}
