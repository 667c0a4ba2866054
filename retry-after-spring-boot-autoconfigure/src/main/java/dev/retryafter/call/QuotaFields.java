package dev.retryafter.call;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RateLimitFields;
import dev.retryafter.core.RateLimitParser;
import dev.retryafter.core.RateLimitReading;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.store.CooldownStore;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * Reads responses' quota fields into their cooldown keys' quota pacing, for one adapter's
 * calls (public for the client adapters, not for applications).
 * <p>
 * Looking for the fields costs up to three header look-ups, which a call that succeeds at
 * once would otherwise not pay. So until some response of this adapter has carried one, a
 * success is looked at only one time in {@value #QUIET_SAMPLE}, drawn from the adapter's
 * random source; every other response (a 429, a 503, any status that may be retried or
 * start a cooldown) is always looked at. From the first response seen with a field on,
 * every response is. An origin that announces its quota is therefore read from its first
 * refusal, or within a few of its first successes, and read on every response after that.
 * The blocking adapter hands a first attempt whose response has the fields to a whole call,
 * which records them under the request's cooldown key.
 */
public final class QuotaFields {

	/** One success in this many is looked at while no field has been seen (a power of two). */
	static final int QUIET_SAMPLE = 16;

	// Lower case: Spring's header maps look names up lower-cased, at no cost for these.
	private static final String RATE_LIMIT = "ratelimit";

	private static final String X_RATELIMIT_REMAINING = "x-ratelimit-remaining";

	private static final String X_RATE_LIMIT_REMAINING = "x-rate-limit-remaining";

	private final CooldownStore cooldowns;

	private final MonotonicClock monotonicClock;

	private final Clock wallClock;

	private final RandomGenerator random;

	/**
	 * Whether a response of this adapter has carried a quota field. Written once: volatile
	 * only so that other calling threads start reading every response soon after.
	 */
	private volatile boolean seen;

	QuotaFields(CooldownStore cooldowns, MonotonicClock monotonicClock, Clock wallClock, RandomGenerator random) {
		this.cooldowns = cooldowns;
		this.monotonicClock = monotonicClock;
		this.wallClock = wallClock;
		this.random = random;
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
	 * Whether a response carries a field that can give a reading, looked at as the class
	 * comment says.
	 * @param settings the client's settings
	 * @param status the response status
	 * @param headers the response headers
	 * @return whether to parse
	 */
	public boolean present(RetrySettings settings, int status, HttpHeaders headers) {
		if (!reads(settings) || (status < 300 && !this.seen && !drawn())) {
			return false;
		}
		Set<RateLimitFields> fields = settings.rateLimit().fields();
		boolean present = (fields.contains(RateLimitFields.IETF) && has(headers, RATE_LIMIT))
				|| (fields.contains(RateLimitFields.X_RATELIMIT)
						&& (has(headers, X_RATELIMIT_REMAINING) || has(headers, X_RATE_LIMIT_REMAINING)));
		if (present && !this.seen) {
			this.seen = true;
		}
		return present;
	}

	private boolean drawn() {
		return (this.random.nextInt() & (QUIET_SAMPLE - 1)) == 0;
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

	private static boolean has(HttpHeaders headers, String name) {
		List<String> lines = headers.get(name);
		return lines != null && !lines.isEmpty();
	}

}
