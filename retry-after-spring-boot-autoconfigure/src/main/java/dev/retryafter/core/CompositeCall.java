package dev.retryafter.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The calls of several watching listeners, each told every event in order.
 */
final class CompositeCall implements RetryListener.Call {

	private final RetryListener.Call[] calls;

	CompositeCall(RetryListener.Call[] calls) {
		this.calls = calls;
	}

	@Override
	public void attemptStarted(int attempt) {
		for (RetryListener.Call call : this.calls) {
			call.attemptStarted(attempt);
		}
	}

	@Override
	public void attemptEnded(int attempt, AttemptOutcome outcome, RetryDecision decision) {
		for (RetryListener.Call call : this.calls) {
			call.attemptEnded(attempt, outcome, decision);
		}
	}

	@Override
	public void waitStarted(Duration planned, boolean hold) {
		for (RetryListener.Call call : this.calls) {
			call.waitStarted(planned, hold);
		}
	}

	@Override
	public void waitEnded(Duration actual) {
		for (RetryListener.Call call : this.calls) {
			call.waitEnded(actual);
		}
	}

	@Override
	public void stopped(StopReason reason) {
		for (RetryListener.Call call : this.calls) {
			call.stopped(reason);
		}
	}

	@Override
	public void failed(@Nullable Throwable error) {
		for (RetryListener.Call call : this.calls) {
			call.failed(error);
		}
	}

}
