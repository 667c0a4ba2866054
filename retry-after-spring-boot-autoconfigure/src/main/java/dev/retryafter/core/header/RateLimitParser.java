package dev.retryafter.core.header;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * Reads a response's quota fields into a {@link RateLimitReading}. A pure function: no clock
 * reads, no I/O, linear time in the input, never throws on any field value; a field that is
 * malformed, or says something impossible, is ignored whole.
 * <p>
 * {@code RateLimit-Policy} and {@code RateLimit} (draft-ietf-httpapi-ratelimit-headers-11)
 * are Structured Field Lists. A policy item names the policy and carries {@code q} (the
 * quota, a positive Integer, required), {@code qu} (its unit, a String, {@code "requests"} by
 * default), {@code w} (the window in seconds, a positive Integer) and {@code pk} (a partition
 * key, a Byte Sequence). A {@code RateLimit} item names its policy and carries {@code r} (the
 * remaining quota, a non-negative Integer, required), {@code t} (seconds until it resets, a
 * non-negative Integer) and {@code pk}. Other parameters are ignored. An item without
 * {@code t} resets after its policy's window, or is ignored when that is not known. An item
 * whose policy counts anything but requests (bytes, concurrent requests) is ignored. Of the
 * items left, the one with the fewest requests remaining is read (the tightest quota), the
 * later reset on a tie. The partition key is checked for syntax and kept only as a one-way
 * digest ({@link RateLimitReading#partitionKey()}): it may be derived from a credential.
 * <p>
 * The legacy fields are {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and
 * {@code X-RateLimit-Reset}, or the same three spelled {@code X-Rate-Limit-}: each one line
 * (after OWS) of ASCII digits, {@code Reset} with an optional fraction, {@code Remaining} and
 * {@code Reset} required, {@code Remaining} not above {@code Limit}. {@code Reset} is sent by some servers as seconds from now and by
 * others (GitHub, for one) as a Unix time; the rule here: a value of at least
 * {@value #EPOCH_THRESHOLD} (September 2001 as a Unix time, over 31 years as a delay) is a Unix
 * time, measured from {@code receivedAt} (one in the past is a reset now); anything smaller is
 * seconds from now. A reset more than {@link #MAX_RESET} away either way is nonsense (a Unix
 * time in milliseconds, say) and the fields are ignored. These fields carry no window: the
 * limit is taken to renew over the time to the reset, or over one second if that is sooner.
 * <p>
 * The APIs that speak a dialect of their own (GitHub, GitLab, OpenAI, Anthropic, Discord) are
 * read by {@code RateLimitDialects}; {@link RateLimitFields} says how each is recognised.
 * A response is read in one dialect, the first of: the IETF fields, GitLab's, OpenAI's,
 * Anthropic's, then the {@code X-RateLimit-*} family, which is Discord's when
 * {@code X-RateLimit-Reset-After} or {@code X-RateLimit-Bucket} is there, GitHub's when
 * {@code X-RateLimit-Used} or {@code X-RateLimit-Resource} is, and the plain fields
 * otherwise. A dialect that is not in {@code fields} gives no reading, and a response whose
 * fields give none in the first dialect found is read in the next. Reset values may carry a
 * fraction (Discord's do); counts are integers. Of several quotas in one response, the
 * most restrictive paces: the one with the fewest requests left, the later reset on a tie.
 * <p>
 * As the draft asks of clients, a response with a {@code Retry-After} field gives no reading
 * (that field decides), and neither does one with an {@code Age} field (a cached response
 * tells an old quota).
 *
 * @since 0.2.0
 */
public final class RateLimitParser {

	/** The smallest {@code X-RateLimit-Reset} read as a Unix time rather than a delay. */
	public static final long EPOCH_THRESHOLD = 1_000_000_000L;

	/**
	 * The furthest reset read: quotas reset within a day (GitHub's hourly, most APIs' per
	 * second or minute), and a longer one is more likely a unit mistake than a quota.
	 */
	public static final Duration MAX_RESET = Duration.ofDays(1);

	private static final long MAX_RESET_SECONDS = MAX_RESET.getSeconds();

	private static final String POLICY = "ratelimit-policy";

	private static final String RATE_LIMIT = "ratelimit";

	private static final List<String> GITLAB_COUNTS = List.of("ratelimit-remaining");

	private static final List<String> OPENAI_COUNTS = List.of("x-ratelimit-remaining-requests",
			"x-ratelimit-remaining-tokens");

	private static final List<String> ANTHROPIC_COUNTS = RateLimitDialects.anthropicRemainingNames();

	/** The legacy fields' names, remaining, reset and limit, in their two spellings. */
	private static final String[][] LEGACY_NAMES = {
			{ "x-ratelimit-remaining", "x-ratelimit-reset", "x-ratelimit-limit" },
			{ "x-rate-limit-remaining", "x-rate-limit-reset", "x-rate-limit-limit" } };

	private static final String REQUESTS = "requests";

	private static final int MAX_NAME_LENGTH = 64;

	private static final String RETRY_AFTER = "retry-after";

	private static final String AGE = "age";

	private RateLimitParser() {
	}

	/**
	 * Reads the quota fields of one response.
	 * @param fieldLines every line of a field by its lower-case name, an empty list or
	 * {@code null} when the response has none
	 * @param fields which fields to read
	 * @param receivedAt the wall-clock instant the response was received, for a reset sent as
	 * a Unix time
	 * @return the reading, or {@code null} when the fields read say nothing usable
	 */
	public static @Nullable RateLimitReading parse(Function<String, @Nullable List<String>> fieldLines,
			Set<RateLimitFields> fields, Instant receivedAt) {
		Objects.requireNonNull(fieldLines, "fieldLines");
		Objects.requireNonNull(fields, "fields");
		Objects.requireNonNull(receivedAt, "receivedAt");
		// The draft's client rules: Retry-After takes precedence over the quota fields, and
		// fields from a cache (a response with Age) describe the quota of some earlier time.
		if (!lines(fieldLines, RETRY_AFTER).isEmpty() || !lines(fieldLines, AGE).isEmpty()) {
			return null;
		}
		RateLimitReading reading = null;
		if (fields.contains(RateLimitFields.IETF)) {
			reading = ietf(lines(fieldLines, RATE_LIMIT), lines(fieldLines, POLICY));
		}
		// A dialect reads nothing without a remaining count: one whose count fields are all
		// absent is not looked at further (most responses speak one dialect at most).
		if (reading == null && fields.contains(RateLimitFields.GITLAB) && any(fieldLines, GITLAB_COUNTS)) {
			reading = RateLimitDialects.gitlab(fieldLines, receivedAt);
		}
		if (reading == null && fields.contains(RateLimitFields.OPENAI) && any(fieldLines, OPENAI_COUNTS)) {
			reading = RateLimitDialects.openai(fieldLines);
		}
		if (reading == null && fields.contains(RateLimitFields.ANTHROPIC) && any(fieldLines, ANTHROPIC_COUNTS)) {
			reading = RateLimitDialects.anthropic(fieldLines, receivedAt);
		}
		return (reading != null) ? reading : xRateLimit(fieldLines, fields, receivedAt);
	}

	private static boolean any(Function<String, @Nullable List<String>> fieldLines, List<String> names) {
		for (String name : names) {
			if (!lines(fieldLines, name).isEmpty()) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Reads the {@code X-RateLimit-*} family in the one dialect its fields name.
	 */
	private static @Nullable RateLimitReading xRateLimit(Function<String, @Nullable List<String>> fieldLines,
			Set<RateLimitFields> fields, Instant receivedAt) {
		if (!lines(fieldLines, "x-ratelimit-remaining").isEmpty()) {
			if (!lines(fieldLines, "x-ratelimit-reset-after").isEmpty()
					|| !lines(fieldLines, "x-ratelimit-bucket").isEmpty()) {
				return fields.contains(RateLimitFields.DISCORD) ? RateLimitDialects.discord(fieldLines, receivedAt)
						: null;
			}
			if (!lines(fieldLines, "x-ratelimit-used").isEmpty()
					|| !lines(fieldLines, "x-ratelimit-resource").isEmpty()) {
				return fields.contains(RateLimitFields.GITHUB) ? RateLimitDialects.github(fieldLines, receivedAt)
						: null;
			}
		}
		if (fields.contains(RateLimitFields.X_RATELIMIT)) {
			for (String[] names : LEGACY_NAMES) {
				List<String> remaining = lines(fieldLines, names[0]);
				if (!remaining.isEmpty()) {
					return legacy(remaining, lines(fieldLines, names[1]), lines(fieldLines, names[2]),
							receivedAt);
				}
			}
		}
		return null;
	}

	/**
	 * Reads {@code RateLimit} with the policies of {@code RateLimit-Policy}.
	 * @param rateLimit the {@code RateLimit} field lines
	 * @param policy the {@code RateLimit-Policy} field lines
	 * @return the tightest quota, or {@code null}
	 */
	static @Nullable RateLimitReading ietf(List<String> rateLimit, List<String> policy) {
		List<StructuredFieldList.Item> items = StructuredFieldList.parse(rateLimit);
		if (items == null) {
			return null;
		}
		List<StructuredFieldList.Item> policies = StructuredFieldList.parse(policy);
		RateLimitReading tightest = null;
		for (StructuredFieldList.Item item : items) {
			RateLimitReading reading = reading(item, policies);
			if (reading != null && (tightest == null || tighter(reading, tightest))) {
				tightest = reading;
			}
		}
		return tightest;
	}

	private static @Nullable RateLimitReading reading(StructuredFieldList.Item item,
			@Nullable List<StructuredFieldList.Item> policies) {
		String name = item.value().name();
		long remaining = item.nonNegative("r");
		if (name == null || remaining < 0 || !validPartitionKey(item)) {
			return null;
		}
		long quota = 0;
		long window = 0;
		StructuredFieldList.Item policy = policy(name, policies);
		if (policy != null) {
			StructuredFieldList.Value unit = policy.parameters().get("qu");
			if (unit != null && !REQUESTS.equals(unit.name())) {
				// A quota of bytes or of concurrent requests says nothing about request rates.
				return null;
			}
			quota = Math.max(0, policy.nonNegative("q"));
			window = Math.max(0, Math.min(policy.nonNegative("w"), MAX_RESET_SECONDS));
			if (quota > 0 && remaining > quota) {
				return null;
			}
		}
		long reset = item.nonNegative("t");
		if (reset < 0) {
			// Without its own reset, a quota resets at the latest after its window.
			if (window == 0) {
				return null;
			}
			reset = window;
		}
		if (reset > MAX_RESET_SECONDS) {
			return null;
		}
		// The name is shown by the endpoint: a server cannot make it longer than a name needs.
		String shown = (name.length() > MAX_NAME_LENGTH) ? name.substring(0, MAX_NAME_LENGTH) : name;
		return new RateLimitReading(shown, remaining, Duration.ofSeconds(reset), (window > 0) ? quota : 0,
				Duration.ofSeconds((quota > 0) ? window : 0), RateLimitFields.IETF, partitionKey(item, policy));
	}

	// The digest of the partition key the item names, or else its policy: the quota is then
	// that partition's (RateLimitPacing scopes it so).
	private static String partitionKey(StructuredFieldList.Item item, StructuredFieldList.@Nullable Item policy) {
		StructuredFieldList.Value key = item.parameters().get("pk");
		if (key == null && policy != null) {
			key = policy.parameters().get("pk");
		}
		return (key != null) ? key.text() : "";
	}

	// The policy named like the item, if it is well formed: a positive q and a valid pk.
	private static StructuredFieldList.@Nullable Item policy(String name,
			@Nullable List<StructuredFieldList.Item> policies) {
		if (policies == null) {
			return null;
		}
		for (StructuredFieldList.Item policy : policies) {
			if (name.equals(policy.value().name()) && policy.nonNegative("q") > 0 && validPartitionKey(policy)) {
				return policy;
			}
		}
		return null;
	}

	private static boolean validPartitionKey(StructuredFieldList.Item item) {
		StructuredFieldList.Value key = item.parameters().get("pk");
		return key == null || key.kind() == StructuredFieldList.Kind.BYTES;
	}

	/**
	 * Whether {@code candidate} is the more restrictive of two quotas: the one with fewer
	 * requests left until its reset, the later reset on a tie. So a quota with nothing left
	 * (a spent token quota, say) paces before any with some left, and of two spent ones the
	 * one that holds requests longer does.
	 * @param candidate a quota
	 * @param current another quota
	 * @return whether {@code candidate} paces rather than {@code current}
	 */
	static boolean tighter(RateLimitReading candidate, RateLimitReading current) {
		if (candidate.remaining() != current.remaining()) {
			return candidate.remaining() < current.remaining();
		}
		return candidate.resetIn().compareTo(current.resetIn()) > 0;
	}

	/**
	 * The more restrictive of two quotas, either of which may be missing.
	 */
	static @Nullable RateLimitReading tightest(@Nullable RateLimitReading a, @Nullable RateLimitReading b) {
		if (a == null) {
			return b;
		}
		return (b != null && tighter(b, a)) ? b : a;
	}

	/**
	 * Reads the plain fields of one spelling: {@code Reset} seconds from now, or a Unix time
	 * at or above {@link #EPOCH_THRESHOLD}, either with an optional fraction.
	 */
	static @Nullable RateLimitReading legacy(List<String> remainingLines, List<String> resetLines,
			List<String> limitLines, Instant receivedAt) {
		long reset = RateLimitValues.decimalSeconds(resetLines);
		if (reset < 0) {
			return null;
		}
		// A whole-second Unix time is measured from the start of the second received: rounding
		// the received instant down keeps the reset from moving earlier than the server meant.
		long resetIn = (reset >= EPOCH_THRESHOLD * RateLimitValues.SECOND_NANOS)
				? RateLimitValues.until(reset, !RateLimitValues.hasFraction(resetLines), receivedAt) : reset;
		return RateLimitDialects.requests("", remainingLines, limitLines, resetIn, RateLimitFields.X_RATELIMIT);
	}

	/**
	 * The field names, lower case, whose presence makes a response worth parsing in one of
	 * {@code fields}: a client that looks each up (a lookup in a case-insensitive map) pays
	 * less than one that walks every name of the response, which Spring's header maps copy
	 * to do. Every name here {@link #mayAnnounce}, and every name the parser reads a quota
	 * from is here.
	 * @param fields the dialects read
	 * @return the names, in no particular order; empty when {@code fields} is
	 */
	public static List<String> announcingNames(Set<RateLimitFields> fields) {
		List<String> names = new ArrayList<>();
		if (fields.contains(RateLimitFields.IETF)) {
			names.add(RATE_LIMIT);
		}
		if (fields.contains(RateLimitFields.GITLAB)) {
			names.addAll(GITLAB_COUNTS);
		}
		if (fields.contains(RateLimitFields.X_RATELIMIT) || fields.contains(RateLimitFields.GITHUB)
				|| fields.contains(RateLimitFields.DISCORD)) {
			names.add("x-ratelimit-remaining");
		}
		if (fields.contains(RateLimitFields.X_RATELIMIT)) {
			names.add("x-rate-limit-remaining");
		}
		if (fields.contains(RateLimitFields.OPENAI)) {
			names.addAll(OPENAI_COUNTS);
		}
		if (fields.contains(RateLimitFields.ANTHROPIC)) {
			names.addAll(ANTHROPIC_COUNTS);
		}
		return List.copyOf(names);
	}

	/**
	 * Whether a response field of this name may announce a quota in one of {@code fields}:
	 * the cheap look a client takes at every response before it parses any.
	 * @param name a response field name, in any case
	 * @param fields the dialects read
	 * @return whether the response is worth parsing for this field
	 */
	public static boolean mayAnnounce(String name, Set<RateLimitFields> fields) {
		int length = name.length();
		if (length < 9) {
			return false;
		}
		char first = name.charAt(0);
		if (first == 'r' || first == 'R') {
			// RateLimit (the draft's) or RateLimit-Remaining (GitLab's plain fields).
			return (length == 9 && fields.contains(RateLimitFields.IETF) && name.equalsIgnoreCase(RATE_LIMIT))
					|| (fields.contains(RateLimitFields.GITLAB) && name.equalsIgnoreCase("ratelimit-remaining"));
		}
		if (first == 'x' || first == 'X') {
			if (name.equalsIgnoreCase("x-ratelimit-remaining")) {
				// GitHub, Discord and the plain fields share the name; the parser tells them apart.
				return fields.contains(RateLimitFields.X_RATELIMIT) || fields.contains(RateLimitFields.GITHUB)
						|| fields.contains(RateLimitFields.DISCORD);
			}
			return (fields.contains(RateLimitFields.OPENAI)
					&& (name.equalsIgnoreCase("x-ratelimit-remaining-requests")
							|| name.equalsIgnoreCase("x-ratelimit-remaining-tokens")))
					|| (fields.contains(RateLimitFields.X_RATELIMIT) && name.equalsIgnoreCase("x-rate-limit-remaining"));
		}
		return (first == 'a' || first == 'A') && fields.contains(RateLimitFields.ANTHROPIC)
				&& RateLimitDialects.isAnthropic(name) && name.regionMatches(true, length - 10, "-remaining", 0, 10);
	}

	private static List<String> lines(Function<String, @Nullable List<String>> fieldLines, String name) {
		List<String> lines = fieldLines.apply(name);
		return (lines != null) ? lines : List.of();
	}

}
