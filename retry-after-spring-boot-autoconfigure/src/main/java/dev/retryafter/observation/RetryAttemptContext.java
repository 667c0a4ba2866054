package dev.retryafter.observation;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.RetryDecision;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What an {@code http.client.retry.attempt} observation knows about one attempt: who sent it,
 * its number, and once it ended, how it ended and what the retry policy decided next.
 *
 * @since 0.2.0
 */
public class RetryAttemptContext extends Observation.Context {

	private final String client;

	private final String method;

	private final int attempt;

	private @Nullable AttemptOutcome outcome;

	private @Nullable RetryDecision decision;

	/**
	 * Creates the context of an attempt about to be sent.
	 * @param client the named client, or {@code default}
	 * @param method the HTTP method
	 * @param attempt the attempt number, 1 for the first
	 */
	public RetryAttemptContext(String client, String method, int attempt) {
		this.client = client;
		this.method = method;
		this.attempt = attempt;
	}

	/**
	 * The named client the request belongs to.
	 * @return the client name, or {@code default}
	 */
	public String getClient() {
		return this.client;
	}

	/**
	 * The request method.
	 * @return the method as the retry policy saw it
	 */
	public String getMethod() {
		return this.method;
	}

	/**
	 * The attempt number.
	 * @return 1 for the first attempt
	 */
	public int getAttempt() {
		return this.attempt;
	}

	/**
	 * How the attempt ended.
	 * @return the outcome, or {@code null} while the attempt is under way (or when it ended
	 * by an error that is no outcome)
	 */
	public @Nullable AttemptOutcome getOutcome() {
		return this.outcome;
	}

	/**
	 * What the retry policy decided after the attempt.
	 * @return the decision, or {@code null} while the attempt is under way
	 */
	public @Nullable RetryDecision getDecision() {
		return this.decision;
	}

	void ended(AttemptOutcome outcome, RetryDecision decision) {
		this.outcome = outcome;
		this.decision = decision;
	}

}
