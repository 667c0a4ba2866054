package dev.retryafter.core;

import java.util.Locale;
import java.util.Objects;

/**
 * What the planner needs to know about a request to decide whether it may be repeated.
 *
 * @param method the HTTP method, upper case
 * @param mark the caller's explicit idempotency mark
 * @param hasIdempotencyKey whether the request carries the configured idempotency-key header
 * @param bodyReplayable whether the request body can be sent again unchanged
 * @since 0.1.0
 */
public record RequestFacts(String method, IdempotencyMark mark, boolean hasIdempotencyKey, boolean bodyReplayable) {

	public RequestFacts {
		Objects.requireNonNull(method, "method");
		Objects.requireNonNull(mark, "mark");
		method = method.toUpperCase(Locale.ROOT);
	}

	/**
	 * Facts for a plain request with a replayable body and no marks.
	 * @param method the HTTP method
	 * @return the facts
	 */
	public static RequestFacts of(String method) {
		return new RequestFacts(method, IdempotencyMark.UNSPECIFIED, false, true);
	}

}
