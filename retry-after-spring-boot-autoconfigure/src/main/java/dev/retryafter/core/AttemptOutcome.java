package dev.retryafter.core;

import java.util.Objects;

import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.header.ServerHints;

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
	 * @param retryAfter its parsed {@code Retry-After} field, combined with a millisecond hint
	 * @param hints what else it says about retrying
	 */
	record Response(int status, RetryAfter retryAfter, ServerHints hints) implements AttemptOutcome {

		public Response {
			Objects.requireNonNull(retryAfter, "retryAfter");
			Objects.requireNonNull(hints, "hints");
		}

		/**
		 * A response without hints beyond {@code Retry-After}.
		 * @param status the HTTP status code
		 * @param retryAfter its parsed {@code Retry-After} field
		 */
		public Response(int status, RetryAfter retryAfter) {
			this(status, retryAfter, ServerHints.NONE);
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
