package dev.retryafter.call;

import java.time.Clock;
import java.util.Set;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.header.RateLimitFields;
import dev.retryafter.core.header.RateLimitParser;
import dev.retryafter.core.header.RateLimitReading;
import dev.retryafter.store.CooldownStore;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * Reads responses' quota fields into their cooldown keys' quota pacing, for one adapter's
 * calls (public for the client adapters, not for applications).
 * <p>
 * Every response is looked at, successes included: a first success that says nothing is left
 * ({@code X-RateLimit-Remaining: 0}, {@code r=0}) must hold the next request until the reset.
 * The look is one pass over the response's field names with a check of the first character
 * of each ({@link RateLimitParser#mayAnnounce}), so its cost does not grow with the number of
 * dialects read; only a response that names a quota field is parsed. A reading is recorded
 * under the request's own cooldown key, and only requests to a host with a paced key ever
 * consult the pacing ({@code CooldownStore.mayHold}), so one origin's quota costs the calls
 * to other origins nothing.
 */
public final class QuotaFields {

	private final CooldownStore cooldowns;

	private final MonotonicClock monotonicClock;

	private final Clock wallClock;

	QuotaFields(CooldownStore cooldowns, MonotonicClock monotonicClock, Clock wallClock) {
		this.cooldowns = cooldowns;
		this.monotonicClock = monotonicClock;
		this.wallClock = wallClock;
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
	 * Whether a response carries a field that may give a reading in one of the client's
	 * dialects.
	 * @param settings the client's settings
	 * @param status the response status (every status is looked at)
	 * @param headers the response headers
	 * @return whether to parse
	 */
	public boolean present(RetrySettings settings, int status, HttpHeaders headers) {
		if (!reads(settings)) {
			return false;
		}
		Set<RateLimitFields> fields = settings.rateLimit().fields();
		for (String name : headers.headerNames()) {
			if (RateLimitParser.mayAnnounce(name, fields)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Parses the fields of a response for which {@link #present} said yes, and records the
	 * reading under its key.
	 * @param settings the client's settings
	 * @param key the request's cooldown key, or {@code null} when it has none
	 * @param headers the response headers
	 */
	public void record(RetrySettings settings, @Nullable CooldownKey key, HttpHeaders headers) {
		if (key == null) {
			return;
		}
		RateLimitReading reading = RateLimitParser.parse(headers::get, settings.rateLimit().fields(),
				this.wallClock.instant());
		if (reading != null) {
			this.cooldowns.cooldowns().quotas().record(key, reading, this.monotonicClock.nanoTime());
		}
	}

}
