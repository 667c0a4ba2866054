package dev.retryafter.client;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;

import dev.retryafter.api.IoFailures;
import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.call.RecordedBytes;
import dev.retryafter.call.RetryCall;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.StopReason;
import org.jspecify.annotations.Nullable;

import org.springframework.http.client.ClientHttpResponse;

/**
 * How one attempt ended: a response or an exception, and its outcome for the planner.
 */
final class BlockingAttempt {

	private final @Nullable ClientHttpResponse response;

	private final @Nullable IOException failure;

	private final AttemptOutcome outcome;

	private BlockingAttempt(@Nullable ClientHttpResponse response, @Nullable IOException failure,
			AttemptOutcome outcome) {
		this.response = response;
		this.failure = failure;
		this.outcome = outcome;
	}

	static BlockingAttempt responded(ClientHttpResponse response, AttemptOutcome.Response outcome) {
		return new BlockingAttempt(response, null, outcome);
	}

	static BlockingAttempt failed(IOException failure) {
		return new BlockingAttempt(null, failure, new AttemptOutcome.IoFailure(IoFailures.classify(failure)));
	}

	AttemptOutcome outcome() {
		return this.outcome;
	}

	/** Hands the caller what the attempt produced, exactly as received. */
	ClientHttpResponse deliver() throws IOException {
		if (this.response != null) {
			return this.response;
		}
		throw Objects.requireNonNull(this.failure);
	}

	/**
	 * Releases the attempt's connection before waiting, keeping an in-memory copy of the
	 * response in case the retry is called off.
	 */
	BlockingAttempt keepForRetry(RecordedBytes recordedBytes) throws IOException {
		if (this.response == null) {
			return this;
		}
		return new BlockingAttempt(ResponseCopy.of(this.response, RetryCall.BODY_COPY_LIMIT, recordedBytes), null,
				this.outcome);
	}

	/**
	 * Gives back the bytes a kept copy reserved, once the call no longer keeps it for itself.
	 */
	void release() {
		if (this.response instanceof ResponseCopy copy) {
			copy.release();
		}
	}

	/**
	 * Hands the caller the last outcome when the next attempt is called off; a response
	 * whose body was too long to keep cannot be handed back, so the caller learns why
	 * nothing more was sent instead.
	 */
	ClientHttpResponse deliverInsteadOfRetry(String origin, StopReason reason, Duration timeLeft)
			throws IOException {
		if (this.response instanceof ResponseCopy copy && !copy.isComplete()) {
			throw new RetryRefusedException(origin, reason, timeLeft);
		}
		return deliver();
	}

	void discard() {
		if (this.response != null) {
			this.response.close();
		}
	}

}
