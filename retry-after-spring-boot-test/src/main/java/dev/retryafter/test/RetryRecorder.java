package dev.retryafter.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.StopReason;
import org.jspecify.annotations.Nullable;

/**
 * Records what the retries did, for a test to assert on: every attempt with its outcome and
 * decision, every planned wait, every hold and every stop, in the order they happened, across
 * the {@code RestClient}, {@code RestTemplate} and {@code WebClient} adapters. A
 * {@link RetryListener} bean, so the auto-configuration hands it every event as it does the
 * meters; {@link AutoConfigureRetryAfterVirtualTime} defines one and clears it before each test
 * method.
 * <p>
 * The lists returned are copies: a call still under way is not seen changing them.
 *
 * @since 0.2.0
 */
public final class RetryRecorder implements RetryListener {

	private final List<Attempt> attempts = new ArrayList<>();

	private final List<Duration> waits = new ArrayList<>();

	private final List<Hold> holds = new ArrayList<>();

	private final List<StopReason> stopReasons = new ArrayList<>();

	/**
	 * Every attempt that got a decision, in order.
	 * @return the attempts
	 */
	public synchronized List<Attempt> attempts() {
		return List.copyOf(this.attempts);
	}

	/**
	 * The wait planned before each retry (the server's delay or the backoff, plus jitter), in
	 * order. A retry called off after its wait (its deadline passed, a cooldown refused it)
	 * still planned its wait.
	 * @return the planned waits
	 */
	public synchronized List<Duration> waits() {
		return List.copyOf(this.waits);
	}

	/**
	 * Every time a request was held before it was sent: by a cooldown, behind the requests a
	 * cooldown held, or for its paced slot.
	 * @return the holds
	 */
	public synchronized List<Hold> holds() {
		return List.copyOf(this.holds);
	}

	/**
	 * Why each call stopped, in order: the stop an attempt's decision gave (a success
	 * included), or one without an attempt (a refused or called-off retry, an interrupt).
	 * @return the stop reasons
	 */
	public synchronized List<StopReason> stopReasons() {
		return List.copyOf(this.stopReasons);
	}

	/**
	 * Forgets everything recorded so far.
	 */
	public synchronized void clear() {
		this.attempts.clear();
		this.waits.clear();
		this.holds.clear();
		this.stopReasons.clear();
	}

	@Override
	public synchronized void attemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
			RetryDecision decision) {
		this.attempts.add(new Attempt(client, method, attempt, outcome, decision));
		if (decision instanceof RetryDecision.Retry retry) {
			this.waits.add(retry.delay());
		}
		else if (decision instanceof RetryDecision.Stop stop) {
			this.stopReasons.add(stop.reason());
		}
	}

	@Override
	public synchronized void stoppedWithoutAttempt(String client, String method, StopReason reason) {
		this.stopReasons.add(reason);
	}

	@Override
	public synchronized void held(String client, String method, CooldownKey key, Duration heldFor,
			HoldReason reason) {
		this.holds.add(new Hold(client, method, key, heldFor, reason));
	}

	/**
	 * One attempt and what the retries decided after it.
	 *
	 * @param client the named client, or {@code default}
	 * @param method the HTTP method
	 * @param number the attempt's number, 1 for the first
	 * @param outcome how it ended: a response or an I/O failure
	 * @param decision a retry after a planned wait, or a stop with its reason
	 */
	public record Attempt(String client, String method, int number, AttemptOutcome outcome,
			RetryDecision decision) {

		/**
		 * The response's status.
		 * @return the status, or {@code null} when the attempt failed without a response
		 */
		public @Nullable Integer status() {
			return (this.outcome instanceof AttemptOutcome.Response response) ? response.status() : null;
		}

	}

	/**
	 * One hold of a request before it was sent.
	 *
	 * @param client the named client, or {@code default}
	 * @param method the HTTP method
	 * @param key the cooldown key (origin, and partition) that held it
	 * @param heldFor how long it was held, on the calls' clock
	 * @param reason what held it
	 */
	public record Hold(String client, String method, CooldownKey key, Duration heldFor, HoldReason reason) {
	}

}
