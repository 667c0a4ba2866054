package dev.retryafter.call;

import java.util.List;
import java.util.Set;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.RateLimitFields;
import dev.retryafter.core.RateLimitParser;
import dev.retryafter.core.RateLimitReading;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.store.CooldownStore;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * Reads a response's quota fields into its cooldown key's quota pacing, for the client
 * adapters (public for them, not for applications). A
 * response without the fields costs one header look-up per spelling read, and nothing more;
 * the blocking adapter hands a first attempt whose response has them to a whole call, which
 * records them under the request's cooldown key.
 */
public final class QuotaFields {

	// Lower case: Spring's header maps look names up lower-cased, at no cost for these.
	private static final String RATE_LIMIT = "ratelimit";

	private static final String X_RATELIMIT_REMAINING = "x-ratelimit-remaining";

	private static final String X_RATE_LIMIT_REMAINING = "x-rate-limit-remaining";

	private QuotaFields() {
	}

	/**
	 * Whether a client with these settings reads quota fields at all.
	 * @param settings the client's settings
	 * @return whether pacing inside quotas is on (it needs the cooldown key)
	 */
	public static boolean reads(RetrySettings settings) {
		return settings.rateLimit().active() && settings.cooldown().enabled();
	}

	/**
	 * Whether a response carries a field that can give a reading.
	 * @param settings the client's settings
	 * @param headers the response headers
	 * @return whether to parse
	 */
	public static boolean present(RetrySettings settings, HttpHeaders headers) {
		if (!reads(settings)) {
			return false;
		}
		Set<RateLimitFields> fields = settings.rateLimit().fields();
		if (fields.contains(RateLimitFields.IETF) && has(headers, RATE_LIMIT)) {
			return true;
		}
		return fields.contains(RateLimitFields.X_RATELIMIT)
				&& (has(headers, X_RATELIMIT_REMAINING) || has(headers, X_RATE_LIMIT_REMAINING));
	}

	/**
	 * Parses the fields of a response for which {@link #present} said yes, and records the
	 * reading under its key.
	 * @param calls the adapter's shared collaborators
	 * @param settings the client's settings
	 * @param key the request's cooldown key, or {@code null} when it has none
	 * @param headers the response headers
	 */
	public static void record(CallContext calls, RetrySettings settings, @Nullable CooldownKey key, HttpHeaders headers) {
		if (key == null) {
			return;
		}
		RateLimitReading reading = RateLimitParser.parse(headers::get, settings.rateLimit().fields(),
				calls.wallClock().instant());
		if (reading != null) {
			CooldownStore store = calls.cooldowns();
			store.cooldowns().quotas().record(key, reading, calls.monotonicClock().nanoTime());
		}
	}

	private static boolean has(HttpHeaders headers, String name) {
		List<String> lines = headers.get(name);
		return lines != null && !lines.isEmpty();
	}

}
