package dev.retryafter.observation;

import java.time.Duration;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.StopReason;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * One call's attempt and wait observations. At most one of each is open at a time; an event
 * that finds the other still open (which only a call that went wrong produces) ends it first,
 * so no span is ever left unfinished. Synchronized: a reactive call's events come from
 * different threads, and a cancellation may race with an attempt ending.
 */
final class ObservedCall implements RetryListener.Call {

	private final RetryAfterObservations observations;

	private final String client;

	private final String method;

	private final Observation parent;

	private @Nullable Observation attempt;

	private @Nullable RetryAttemptContext attemptContext;

	private @Nullable Observation wait;

	private @Nullable RetryWaitContext waitContext;

	ObservedCall(RetryAfterObservations observations, String client, String method, Observation parent) {
		this.observations = observations;
		this.client = client;
		this.method = method;
		this.parent = parent;
	}

	@Override
	public synchronized void attemptStarted(int attempt) {
		endOpen(null);
		RetryAttemptContext context = new RetryAttemptContext(this.client, this.method, attempt);
		this.attemptContext = context;
		this.attempt = this.observations.attempt(context, this.parent);
	}

	@Override
	public synchronized void attemptEnded(int attempt, AttemptOutcome outcome, RetryDecision decision) {
		Observation observation = this.attempt;
		RetryAttemptContext context = this.attemptContext;
		if (observation == null || context == null || context.getAttempt() != attempt) {
			return;
		}
		context.ended(outcome, decision);
		this.attempt = null;
		this.attemptContext = null;
		observation.stop();
	}

	@Override
	public synchronized void waitStarted(Duration planned, boolean hold) {
		endOpen(null);
		RetryWaitContext context = new RetryWaitContext(this.client, this.method, planned, hold);
		this.waitContext = context;
		this.wait = this.observations.wait(context, this.parent);
	}

	@Override
	public synchronized void waitEnded(Duration actual) {
		Observation observation = this.wait;
		RetryWaitContext context = this.waitContext;
		if (observation == null || context == null) {
			return;
		}
		context.ended(actual);
		this.wait = null;
		this.waitContext = null;
		observation.stop();
	}

	@Override
	public synchronized void stopped(StopReason reason) {
		Observation observation = this.wait;
		RetryWaitContext context = this.waitContext;
		if (observation == null || context == null) {
			return;
		}
		context.stopped(reason);
		this.wait = null;
		this.waitContext = null;
		observation.stop();
	}

	@Override
	public synchronized void failed(@Nullable Throwable error) {
		endOpen(error);
	}

	private void endOpen(@Nullable Throwable error) {
		Observation attempt = this.attempt;
		if (attempt != null) {
			this.attempt = null;
			this.attemptContext = null;
			end(attempt, error);
		}
		Observation wait = this.wait;
		if (wait != null) {
			this.wait = null;
			this.waitContext = null;
			end(wait, error);
		}
	}

	private static void end(Observation observation, @Nullable Throwable error) {
		if (error != null) {
			observation.error(error);
		}
		observation.stop();
	}

}
