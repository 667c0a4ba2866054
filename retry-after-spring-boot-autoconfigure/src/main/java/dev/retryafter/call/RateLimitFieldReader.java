package dev.retryafter.call;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

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
 * The look is a lookup of each field name that may announce a quota in the dialects read
 * ({@link RateLimitParser#announcingNames}), about ten: cheaper than one pass over the
 * response's names, which Spring's header maps copy into a new map to give; only a response
 * that names a quota field is parsed. A reading is recorded
 * under the request's own cooldown key, and only requests to a host with a paced key ever
 * consult the pacing ({@code CooldownStore.mayHold}), so one origin's quota costs the calls
 * to other origins nothing.
 * <p>
 * Most origins send the same {@code RateLimit} and {@code RateLimit-Policy} text on response
 * after response (a delta-seconds reset, a count far from spent). A reading from those two
 * fields depends on their text alone, not on when it arrived, so the last one is kept with the
 * text it came from: a response whose lines are equal to it, string by string, gets the same
 * reading without being parsed again, and any other text is parsed. Every response is still
 * compared and recorded.
 */
public final class RateLimitFieldReader {

	// Lower case: Spring's header maps look names up lower-cased.
	private static final String RATE_LIMIT = "ratelimit";

	private static final String POLICY = "ratelimit-policy";

	private static final String RETRY_AFTER = "retry-after";

	private static final String AGE = "age";

	/** The names to look up per set of dialects: at most one entry per subset of them. */
	private static final Map<Set<RateLimitFields>, List<String>> NAMES = new ConcurrentHashMap<>();

	private final CooldownStore cooldowns;

	private final MonotonicClock monotonicClock;

	private final Clock wallClock;

	/** The last reading parsed from {@code RateLimit} alone, with the lines it came from. */
	private volatile @Nullable LastIetf lastIetf;

	RateLimitFieldReader(CooldownStore cooldowns, MonotonicClock monotonicClock, Clock wallClock) {
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
		return announces(headers, settings.rateLimit().fields());
	}

	/**
	 * Whether a response carries a field that may give a reading in one of {@code fields}:
	 * a lookup of each name that may announce one, never a walk over the response's names
	 * (Spring's header maps copy every name for that).
	 * @param headers the response headers
	 * @param fields the dialects read
	 * @return whether to parse
	 */
	static boolean announces(HttpHeaders headers, Set<RateLimitFields> fields) {
		for (String name : NAMES.computeIfAbsent(fields, RateLimitParser::announcingNames)) {
			if (headers.containsHeader(name)) {
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
		record(settings, key, 0, headers);
	}

	/**
	 * Parses the fields of a response for which {@link #present} said yes, and records the
	 * reading under its key, with whether the response was a success (the origin counted it).
	 * @param settings the client's settings
	 * @param key the request's cooldown key, or {@code null} when it has none
	 * @param status the response's status code, or 0 when not known
	 * @param headers the response headers
	 */
	public void record(RetrySettings settings, @Nullable CooldownKey key, int status, HttpHeaders headers) {
		record(settings, key, status, headers, false, 0);
	}

	/**
	 * Parses the fields of a response for which {@link #present} said yes, and records the
	 * reading under its key, with whether the response was a success and when its request was
	 * sent: the round trip bounds how late a reset named in whole seconds may be
	 * (docs/PACING.md, rule 11).
	 * @param settings the client's settings
	 * @param key the request's cooldown key, or {@code null} when it has none
	 * @param status the response's status code, or 0 when not known
	 * @param headers the response headers
	 * @param sentNanos when the request was sent, a reading of this reader's monotonic clock
	 * @since 0.3.0
	 */
	public void record(RetrySettings settings, @Nullable CooldownKey key, int status, HttpHeaders headers,
			long sentNanos) {
		record(settings, key, status, headers, true, sentNanos);
	}

	private void record(RetrySettings settings, @Nullable CooldownKey key, int status, HttpHeaders headers,
			boolean sentKnown, long sentNanos) {
		if (key == null) {
			return;
		}
		Set<RateLimitFields> fields = settings.rateLimit().fields();
		List<String> rateLimit = fields.contains(RateLimitFields.IETF) ? ietfLines(headers) : null;
		List<String> policy = (rateLimit != null) ? lines(headers, POLICY) : null;
		LastIetf last = this.lastIetf;
		RateLimitReading reading;
		if (last != null && rateLimit != null && last.rateLimit().equals(rateLimit) && last.policy().equals(policy)) {
			reading = last.reading();
		}
		else {
			reading = RateLimitParser.parse(headers::get, fields, this.wallClock.instant());
			// Only a reading of RateLimit itself is the text's alone: another dialect may
			// count from the instant it was received.
			if (rateLimit != null && reading != null && reading.fields() == RateLimitFields.IETF) {
				this.lastIetf = new LastIetf(List.copyOf(rateLimit), List.copyOf(policy), reading);
			}
		}
		if (reading != null) {
			long now = this.monotonicClock.nanoTime();
			this.cooldowns.recordQuota(key, reading, status >= 200 && status < 300,
					sentKnown ? Math.max(0, now - sentNanos) : -1, now);
		}
	}

	/**
	 * The {@code RateLimit} lines of a response whose reading may come from them alone: not
	 * one that the parser reads nothing from ({@code Retry-After} or {@code Age} present).
	 * @return the lines, or {@code null} when the last reading cannot stand for this one
	 */
	private static @Nullable List<String> ietfLines(HttpHeaders headers) {
		// Looked for, not read: a transport's header map may build a list for each read.
		if (headers.containsHeader(RETRY_AFTER) || headers.containsHeader(AGE)) {
			return null;
		}
		List<String> rateLimit = lines(headers, RATE_LIMIT);
		return rateLimit.isEmpty() ? null : rateLimit;
	}

	private static List<String> lines(HttpHeaders headers, String name) {
		List<String> lines = headers.get(name);
		return (lines != null) ? lines : List.of();
	}

	/**
	 * A reading parsed from {@code RateLimit} and {@code RateLimit-Policy}, with their lines.
	 */
	private record LastIetf(List<String> rateLimit, List<String> policy, RateLimitReading reading) {
	}

}
