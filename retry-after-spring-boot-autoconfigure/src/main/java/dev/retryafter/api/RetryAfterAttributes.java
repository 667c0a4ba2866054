package dev.retryafter.api;

import java.util.Map;
import java.util.function.Consumer;

/**
 * Request attributes a caller sets to tell the retries whether one request may be
 * repeated, overriding what its method and the {@code Idempotency-Key} header say.
 * <p>
 * With a {@code RestClient}:
 * <pre class="code">
 * // a POST the server de-duplicates, so it may be sent again after a 503
 * restClient.post().uri("/orders").body(order)
 * 	.attributes(RetryAfterAttributes.idempotent())
 * 	.retrieve().toBodilessEntity();
 *
 * // a GET with side effects that must never be sent twice
 * restClient.get().uri("/counter/next")
 * 	.attribute(RetryAfterAttributes.IDEMPOTENT, false)
 * 	.retrieve().body(String.class);
 * </pre>
 * A request carrying the configured idempotency-key header ({@code Idempotency-Key} by
 * default) needs no attribute: the header alone makes it repeatable.
 *
 * @since 0.1.0
 */
public final class RetryAfterAttributes {

	/**
	 * Name of the attribute marking a request as repeatable ({@link Boolean#TRUE}) or not
	 * ({@link Boolean#FALSE}). Any other value, or none, leaves the decision to the method
	 * and the idempotency-key header.
	 */
	public static final String IDEMPOTENT = "dev.retryafter.idempotent";

	/**
	 * Name of the attribute naming the {@code retry-after.clients.<name>} whose settings,
	 * retry budget and {@code client} meter tag apply to a request, whatever its host. The
	 * starter sets it on every request of an HTTP service group's client to the group's name,
	 * when a named client has that name; a value naming no client leaves the choice to the
	 * request's host.
	 * @since 0.1.0
	 */
	public static final String CLIENT = "dev.retryafter.client";

	private RetryAfterAttributes() {
	}

	/**
	 * Marks a request as safe to repeat, for {@code RestClient...attributes(...)}.
	 * @return a consumer setting {@link #IDEMPOTENT} to {@code true}
	 */
	public static Consumer<Map<String, Object>> idempotent() {
		return (attributes) -> attributes.put(IDEMPOTENT, Boolean.TRUE);
	}

	/**
	 * Names the client whose settings apply to a request ({@link #CLIENT}), unless the request
	 * names one already, for {@code RestClient.Builder.defaultRequest(...)} or
	 * {@code WebClient.Builder.defaultRequest(...)}: every request of a client built that way
	 * then runs on that client's settings. The starter does this for each HTTP service group;
	 * a named client without hosts must still be named after a group, or start-up fails.
	 * @param name the {@code retry-after.clients.<name>} to apply
	 * @return a consumer setting {@link #CLIENT} when it is not set
	 * @since 0.1.0
	 */
	public static Consumer<Map<String, Object>> client(String name) {
		return (attributes) -> attributes.putIfAbsent(CLIENT, name);
	}

	/**
	 * Marks a request as never to be repeated, even if its method is idempotent, for
	 * {@code RestClient...attributes(...)}.
	 * @return a consumer setting {@link #IDEMPOTENT} to {@code false}
	 */
	public static Consumer<Map<String, Object>> notIdempotent() {
		return (attributes) -> attributes.put(IDEMPOTENT, Boolean.FALSE);
	}

}
