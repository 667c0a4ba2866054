package dev.retryafter.core;

import java.util.Objects;

/**
 * How one attempt ended: a {@link Response} or an {@link IoFailure}.
 *
 * @since 0.1.0
 */
public sealed interface AttemptOutcome permits AttemptOutcome.Response, AttemptOutcome.IoFailure {

	/**
	 * A response arrived.
	 *
	 * @param status the HTTP status code
	 * @param retryAfter its parsed {@code Retry-After} field
	 */
	record Response(int status, RetryAfter retryAfter) implements AttemptOutcome {

		public Response {
			Objects.requireNonNull(retryAfter, "retryAfter");
		}

	}

	/**
	 * The attempt failed with an I/O error.
	 *
	 * @param kind the kind of failure
	 */
	record IoFailure(IoFailureKind kind) implements AttemptOutcome {

		public IoFailure {
			Objects.requireNonNull(kind, "kind");
		}

	}

}
