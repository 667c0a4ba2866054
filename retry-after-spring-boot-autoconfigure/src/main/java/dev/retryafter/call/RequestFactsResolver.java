package dev.retryafter.call;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.retryafter.api.RetryAfterAttributes;
import dev.retryafter.core.IdempotencyMark;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetrySettings;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRequest;

/**
 * Reads the {@link RequestFacts} the planner needs from a Spring {@link HttpRequest}: its
 * method, the caller's {@link RetryAfterAttributes#IDEMPOTENT} mark and whether it carries the
 * configured idempotency-key header.
 */
final class RequestFactsResolver {

	// The last header name looked up, with its lower-case form: a header map lower-cases the
	// name of every lookup, which allocates unless the name is lower case already. A plain
	// field: the pair is immutable, and a thread that misses another's update only does
	// the lower-casing itself.
	private @Nullable HeaderName lastHeader;

	/**
	 * Resolves the facts of one request.
	 * @param request the request as an interceptor sees it
	 * @param settings the settings in force for it (for the idempotency-key header name)
	 * @return the facts
	 */
	RequestFacts resolve(HttpRequest request, RetrySettings settings) {
		// A ClientHttpRequestInterceptor always receives the whole body as a byte[] (the
		// intercepting request buffers it), so every attempt can send it again.
		return resolve(request.getMethod(), request.getAttributes(), request.getHeaders(), settings, true);
	}

	/**
	 * Resolves the facts of one request from its parts, for a client whose requests are not
	 * {@link HttpRequest}s.
	 * @param method the request method
	 * @param attributes the request attributes (for the caller's marks)
	 * @param headers the request headers (for the idempotency key)
	 * @param settings the settings in force for it (for the idempotency-key header name)
	 * @param bodyReplayable whether every attempt can send the request body again
	 * @return the facts
	 */
	RequestFacts resolve(HttpMethod method, Map<String, Object> attributes, HttpHeaders headers,
			RetrySettings settings, boolean bodyReplayable) {
		return new RequestFacts(method.name(), mark(attributes), hasIdempotencyKey(headers, settings),
				bodyReplayable);
	}

	/**
	 * The method name as the planner and the listener see it.
	 * @param method the request method
	 * @return its name, upper case
	 */
	static String method(HttpMethod method) {
		// Upper-casing a name that is upper case already returns it, allocating nothing.
		return method.name().toUpperCase(Locale.ROOT);
	}

	IdempotencyMark mark(Map<String, Object> attributes) {
		Object value = attributes.get(RetryAfterAttributes.IDEMPOTENT);
		if (Boolean.TRUE.equals(value)) {
			return IdempotencyMark.REPEATABLE;
		}
		if (Boolean.FALSE.equals(value)) {
			return IdempotencyMark.NOT_REPEATABLE;
		}
		return IdempotencyMark.UNSPECIFIED;
	}

	boolean hasIdempotencyKey(HttpHeaders headers, RetrySettings settings) {
		String header = settings.idempotencyKeyHeader();
		if (header.isBlank()) {
			return false;
		}
		List<String> values = headers.get(lowerCase(header));
		if (values == null) {
			return false;
		}
		for (String value : values) {
			if (value != null && !value.isBlank()) {
				return true;
			}
		}
		return false;
	}

	private String lowerCase(String header) {
		HeaderName last = this.lastHeader;
		if (last == null || !last.configured().equals(header)) {
			last = new HeaderName(header, header.toLowerCase(Locale.ROOT));
			this.lastHeader = last;
		}
		return last.lowerCase();
	}

	private record HeaderName(String configured, String lowerCase) {
	}

}
