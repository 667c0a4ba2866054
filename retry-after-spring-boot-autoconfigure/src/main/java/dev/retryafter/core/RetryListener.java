package dev.retryafter.core;

import java.time.Duration;
import java.util.List;

/**
 * Called by the client adapters at each decision point, so metrics and logging can subscribe
 * without the core knowing about them. Implementations must be fast and must not throw.
 *
 * @since 0.1.0
 */
public interface RetryListener {

	/** A listener that does nothing. */
	RetryListener NONE = new RetryListener() {
	};

	/**
	 * An attempt ended and the planner decided what follows.
	 * @param client the named client, or {@code default}
	 * @param method the HTTP method
	 * @param attempt the attempt number, 1 for the first
	 * @param outcome how the attempt ended
	 * @param decision what the planner decided
	 */
	default void attemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
			RetryDecision decision) {
	}

	/**
	 * A planned wait ended.
	 * @param client the named client, or {@code default}
	 * @param planned the wait that was planned
	 * @param actual the time actually waited, on the monotonic clock
	 */
	default void waited(String client, Duration planned, Duration actual) {
	}

	/**
	 * Retrying stopped outside an attempt's decision: the wait was interrupted, the deadline
	 * re-check before sending failed, or a cooling-down origin refused the request.
	 * @param client the named client, or {@code default}
	 * @param method the HTTP method
	 * @param reason why
	 */
	default void stoppedWithoutAttempt(String client, String method, StopReason reason) {
	}

	/**
	 * A request was held by a cooldown, or for its paced slot, before it was sent (at most once
	 * per attempt).
	 * @param client the client name
	 * @param method the request method
	 * @param key the cooldown that held it
	 * @param heldFor the time it was actually held, on the monotonic clock
	 */
	default void held(String client, String method, CooldownKey key, Duration heldFor) {
	}

	/**
	 * A request was held before it was sent, as {@link #held(String, String, CooldownKey,
	 * Duration)} reports, with what held it. By default it reports to that method, so a
	 * listener that does not care why sees every hold.
	 * @param client the client name
	 * @param method the request method
	 * @param key the cooldown key that held it
	 * @param heldFor the time it was actually held, on the monotonic clock
	 * @param reason what held it: the cooldown, its release window, or the request's paced
	 * slot
	 */
	default void held(String client, String method, CooldownKey key, Duration heldFor, HoldReason reason) {
		held(client, method, key, heldFor);
	}

	/**
	 * Combines listeners; each is called in order.
	 * @param listeners the listeners
	 * @return a listener calling all of them
	 */
	static RetryListener composite(List<? extends RetryListener> listeners) {
		List<RetryListener> copy = List.copyOf(listeners);
		if (copy.isEmpty()) {
			return NONE;
		}
		if (copy.size() == 1) {
			return copy.get(0);
		}
		// An array, not the list: a loop over it allocates no iterator on any call.
		RetryListener[] all = copy.toArray(new RetryListener[0]);
		return new RetryListener() {

			@Override
			public void attemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
					RetryDecision decision) {
				for (RetryListener listener : all) {
					listener.attemptCompleted(client, method, attempt, outcome, decision);
				}
			}

			@Override
			public void waited(String client, Duration planned, Duration actual) {
				for (RetryListener listener : all) {
					listener.waited(client, planned, actual);
				}
			}

			@Override
			public void stoppedWithoutAttempt(String client, String method, StopReason reason) {
				for (RetryListener listener : all) {
					listener.stoppedWithoutAttempt(client, method, reason);
				}
			}

			@Override
			public void held(String client, String method, CooldownKey key, Duration heldFor) {
				for (RetryListener listener : all) {
					listener.held(client, method, key, heldFor);
				}
			}

			@Override
			public void held(String client, String method, CooldownKey key, Duration heldFor, HoldReason reason) {
				for (RetryListener listener : all) {
					listener.held(client, method, key, heldFor, reason);
				}
			}

		};
	}

}
