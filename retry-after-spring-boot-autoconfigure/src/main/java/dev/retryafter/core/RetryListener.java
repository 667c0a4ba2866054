package dev.retryafter.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

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
	 * Whether this listener watches calls as they happen through {@link #callStarted}: only
	 * then do the adapters report when each attempt and wait begins. Asked once, when an
	 * adapter is built; a listener that says {@code false} (the default) costs the calls
	 * nothing more.
	 * @return {@code true} to be asked for a {@link Call} at the start of every call
	 */
	default boolean watchesCalls() {
		return false;
	}

	/**
	 * A call is starting: a listener that needs to see the beginnings as well as the ends of
	 * its attempts and waits (a tracer) returns a {@link Call} that follows this one call.
	 * Only asked when {@link #watchesCalls()} says so.
	 * @param client the named client, or {@code default}
	 * @param method the HTTP method
	 * @param parent what the adapter found of the context the call runs in (the reactive
	 * adapter passes the observation its subscriber context carries), or {@code null} when it
	 * runs on the calling thread, where the listener may look for it
	 * @return the call's listener; {@link Call#NONE} to follow nothing
	 * @since 0.2.0
	 */
	default Call callStarted(String client, String method, @Nullable Object parent) {
		return Call.NONE;
	}

	/**
	 * Follows one call's attempts and waits as they begin and end. Used by one call at a
	 * time, in the order its events happen; implementations must be fast and must not throw.
	 *
	 * @since 0.2.0
	 */
	interface Call {

		/** A call listener that does nothing. */
		Call NONE = new Call() {
		};

		/**
		 * An attempt is being sent.
		 * @param attempt the attempt number, 1 for the first
		 */
		default void attemptStarted(int attempt) {
		}

		/**
		 * The attempt ended and the planner decided what follows (the same event as
		 * {@link RetryListener#attemptCompleted}).
		 * @param attempt the attempt number, 1 for the first
		 * @param outcome how the attempt ended
		 * @param decision what the planner decided
		 */
		default void attemptEnded(int attempt, AttemptOutcome outcome, RetryDecision decision) {
		}

		/**
		 * A wait begins: a retry's planned wait, or a hold for a cooldown or a paced slot.
		 * @param planned how long the wait is planned to last
		 * @param hold {@code true} for a cooldown hold, {@code false} for a retry's wait
		 */
		default void waitStarted(Duration planned, boolean hold) {
		}

		/**
		 * The wait that began last ended as planned.
		 * @param actual the time actually waited, on the monotonic clock
		 */
		default void waitEnded(Duration actual) {
		}

		/**
		 * Retrying stopped outside an attempt's decision (the same event as
		 * {@link RetryListener#stoppedWithoutAttempt}); a wait under way ends with it.
		 * @param reason why
		 */
		default void stopped(StopReason reason) {
		}

		/**
		 * The call ended by an error that is no attempt's outcome, or by its caller going
		 * away: whatever attempt or wait is under way ends with it.
		 * @param error the error, or {@code null} when the caller went away
		 */
		default void failed(@Nullable Throwable error) {
		}

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
		List<RetryListener> watching = new ArrayList<>();
		for (RetryListener listener : all) {
			if (listener.watchesCalls()) {
				watching.add(listener);
			}
		}
		RetryListener[] watchers = watching.toArray(new RetryListener[0]);
		return new RetryListener() {

			@Override
			public boolean watchesCalls() {
				return watchers.length > 0;
			}

			@Override
			public Call callStarted(String client, String method, @Nullable Object parent) {
				if (watchers.length == 0) {
					return Call.NONE;
				}
				if (watchers.length == 1) {
					return watchers[0].callStarted(client, method, parent);
				}
				List<Call> calls = new ArrayList<>(watchers.length);
				for (RetryListener watcher : watchers) {
					Call call = watcher.callStarted(client, method, parent);
					if (call != Call.NONE) {
						calls.add(call);
					}
				}
				if (calls.isEmpty()) {
					return Call.NONE;
				}
				return (calls.size() == 1) ? calls.get(0) : new CompositeCall(calls.toArray(new Call[0]));
			}

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
