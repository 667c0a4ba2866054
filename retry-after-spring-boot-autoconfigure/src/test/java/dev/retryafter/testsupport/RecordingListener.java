package dev.retryafter.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.StopReason;

/**
 * A {@link RetryListener} that records every call, in order, as comparable records.
 */
public final class RecordingListener implements RetryListener {

	private final List<Object> events = new ArrayList<>();

	private final List<HoldReason> holdReasons = new ArrayList<>();

	@Override
	public synchronized void attemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
			RetryDecision decision) {
		this.events.add(new AttemptCompleted(client, method, attempt, outcome, decision));
	}

	@Override
	public synchronized void waited(String client, Duration planned, Duration actual) {
		this.events.add(new Waited(client, planned, actual));
	}

	@Override
	public synchronized void stoppedWithoutAttempt(String client, String method, StopReason reason) {
		this.events.add(new StoppedWithoutAttempt(client, method, reason));
	}

	@Override
	public synchronized void held(String client, String method, CooldownKey key, Duration heldFor) {
		this.events.add(new Held(client, method, key, heldFor));
	}

	@Override
	public synchronized void held(String client, String method, CooldownKey key, Duration heldFor,
			HoldReason reason) {
		held(client, method, key, heldFor);
		this.holdReasons.add(reason);
	}

	/**
	 * What held each request reported held with a reason, in order.
	 * @return the reasons
	 */
	public synchronized List<HoldReason> holdReasons() {
		return List.copyOf(this.holdReasons);
	}

	/**
	 * Every call so far, in order.
	 * @return the events
	 */
	public synchronized List<Object> events() {
		return List.copyOf(this.events);
	}

	/**
	 * The attempts reported so far.
	 * @return the attempt events
	 */
	public synchronized List<AttemptCompleted> attempts() {
		return this.events.stream()
			.filter(AttemptCompleted.class::isInstance)
			.map(AttemptCompleted.class::cast)
			.toList();
	}

	/**
	 * A recorded {@link RetryListener#attemptCompleted} call.
	 *
	 * @param client the client name
	 * @param method the method
	 * @param attempt the attempt number
	 * @param outcome the outcome
	 * @param decision the decision
	 */
	public record AttemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
			RetryDecision decision) {
	}

	/**
	 * A recorded {@link RetryListener#waited} call.
	 *
	 * @param client the client name
	 * @param planned the planned wait
	 * @param actual the actual wait
	 */
	public record Waited(String client, Duration planned, Duration actual) {
	}

	/**
	 * A recorded {@link RetryListener#stoppedWithoutAttempt} call.
	 *
	 * @param client the client name
	 * @param method the method
	 * @param reason the reason
	 */
	public record StoppedWithoutAttempt(String client, String method, StopReason reason) {
	}

	/**
	 * A recorded {@link RetryListener#held} call.
	 *
	 * @param client the client name
	 * @param method the method
	 * @param key the cooldown that held the request
	 * @param heldFor how long it was held
	 */
	public record Held(String client, String method, CooldownKey key, Duration heldFor) {
	}

}
