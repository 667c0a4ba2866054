package dev.retryafter.core.header;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The readers of the quota dialects that APIs speak besides the IETF draft, each as the API
 * documents it (field names are looked up in lower case). Pure, linear and total, as
 * {@link RateLimitParser} is; a quota whose fields are malformed, inconsistent (more remaining
 * than the limit) or reset more than a day away is ignored.
 * <p>
 * Rules shared by every dialect:
 * <ol>
 * <li>Counts are ASCII digits; times may carry a fraction, rounded up so that a reset never
 * comes earlier than the server meant.</li>
 * <li>A limit, when sent, renews over the time to the reset, or over one second if that is
 * sooner, as the {@code X-RateLimit-*} fields are read.</li>
 * <li>A token quota is acted on only when nothing of it remains: a request's token cost is not
 * known, so only "none left until the reset" says something about the next request.</li>
 * <li>Of several quotas in one response the most restrictive paces (the fewest requests
 * left, the later reset on a tie).</li>
 * </ol>
 */
final class RateLimitDialects {

	private static final String[] ANTHROPIC_QUOTAS = { "requests", "tokens", "input-tokens", "output-tokens" };

	private static final String ANTHROPIC = "anthropic-ratelimit-";

	private RateLimitDialects() {
	}

	/**
	 * GitHub: {@code x-ratelimit-reset} is a Unix time in seconds, {@code -resource} names the
	 * quota ({@code core}, {@code search}).
	 */
	static @Nullable RateLimitReading github(Function<String, @Nullable List<String>> lines, Instant receivedAt) {
		List<String> reset = lines(lines, "x-ratelimit-reset");
		long resetAt = RateLimitValues.decimalSeconds(reset);
		if (resetAt < RateLimitParser.EPOCH_THRESHOLD * RateLimitValues.SECOND_NANOS) {
			return null;
		}
		long resetIn = RateLimitValues.until(resetAt, !RateLimitValues.hasFraction(reset), receivedAt);
		return requests(name(lines(lines, "x-ratelimit-resource")), lines(lines, "x-ratelimit-remaining"),
				lines(lines, "x-ratelimit-limit"), resetIn, RateLimitFields.GITHUB);
	}

	/**
	 * GitLab: {@code RateLimit-Reset} is a Unix time in seconds (a smaller value is seconds from
	 * now) and {@code RateLimit-ResetTime} the same instant as an HTTP-date; when both are
	 * sent, the later is read.
	 */
	static @Nullable RateLimitReading gitlab(Function<String, @Nullable List<String>> lines, Instant receivedAt) {
		List<String> reset = lines(lines, "ratelimit-reset");
		long resetAt = RateLimitValues.decimalSeconds(reset);
		// Below the threshold, seconds from now: the draft's early revisions sent these names so.
		long resetIn = (resetAt >= RateLimitParser.EPOCH_THRESHOLD * RateLimitValues.SECOND_NANOS)
				? RateLimitValues.until(resetAt, !RateLimitValues.hasFraction(reset), receivedAt) : resetAt;
		long resetTime = RateLimitValues.httpDate(lines(lines, "ratelimit-resettime"), receivedAt);
		if (resetTime >= 0) {
			resetIn = Math.max(resetIn, RateLimitValues.until(resetTime, true, receivedAt));
		}
		return requests(name(lines(lines, "ratelimit-name")), lines(lines, "ratelimit-remaining"),
				lines(lines, "ratelimit-limit"), resetIn, RateLimitFields.GITLAB);
	}

	/**
	 * Discord: {@code X-RateLimit-Reset-After} (seconds with a fraction) is read before
	 * {@code X-RateLimit-Reset} (a Unix time with a fraction), since it does not depend on the
	 * two clocks agreeing. The bucket is an opaque id and is not shown.
	 */
	static @Nullable RateLimitReading discord(Function<String, @Nullable List<String>> lines, Instant receivedAt) {
		long resetIn = RateLimitValues.decimalSeconds(lines(lines, "x-ratelimit-reset-after"));
		if (resetIn > RateLimitValues.MAX_RESET_NANOS) {
			return null;
		}
		if (resetIn < 0) {
			List<String> reset = lines(lines, "x-ratelimit-reset");
			long resetAt = RateLimitValues.decimalSeconds(reset);
			resetIn = (resetAt >= RateLimitParser.EPOCH_THRESHOLD * RateLimitValues.SECOND_NANOS)
					? RateLimitValues.until(resetAt, !RateLimitValues.hasFraction(reset), receivedAt)
					: RateLimitValues.INVALID;
		}
		return requests("", lines(lines, "x-ratelimit-remaining"), lines(lines, "x-ratelimit-limit"), resetIn,
				RateLimitFields.DISCORD);
	}

	/**
	 * OpenAI: a requests quota and a tokens quota, each reset a Go duration from now.
	 */
	static @Nullable RateLimitReading openai(Function<String, @Nullable List<String>> lines) {
		RateLimitReading requests = requests("requests", lines(lines, "x-ratelimit-remaining-requests"),
				lines(lines, "x-ratelimit-limit-requests"),
				RateLimitValues.goDuration(lines(lines, "x-ratelimit-reset-requests")), RateLimitFields.OPENAI);
		RateLimitReading tokens = spent("tokens", lines(lines, "x-ratelimit-remaining-tokens"),
				lines(lines, "x-ratelimit-limit-tokens"),
				RateLimitValues.goDuration(lines(lines, "x-ratelimit-reset-tokens")), RateLimitFields.OPENAI);
		return RateLimitParser.tightest(requests, tokens);
	}

	/**
	 * Anthropic: a requests quota and three token quotas, each reset an RFC 3339 timestamp.
	 */
	static @Nullable RateLimitReading anthropic(Function<String, @Nullable List<String>> lines, Instant receivedAt) {
		RateLimitReading tightest = null;
		for (String quota : ANTHROPIC_QUOTAS) {
			String prefix = ANTHROPIC + quota;
			List<String> reset = lines(lines, prefix + "-reset");
			long resetAt = RateLimitValues.rfc3339(reset);
			long resetIn = (resetAt >= 0)
					? RateLimitValues.until(resetAt, !RateLimitValues.hasFraction(reset), receivedAt)
					: RateLimitValues.INVALID;
			List<String> remaining = lines(lines, prefix + "-remaining");
			List<String> limit = lines(lines, prefix + "-limit");
			RateLimitReading reading = "requests".equals(quota)
					? requests(quota, remaining, limit, resetIn, RateLimitFields.ANTHROPIC)
					: spent(quota, remaining, limit, resetIn, RateLimitFields.ANTHROPIC);
			tightest = RateLimitParser.tightest(tightest, reading);
		}
		return tightest;
	}

	/**
	 * The {@code -remaining} fields of the Anthropic quotas read, lower case.
	 */
	static List<String> anthropicRemainingNames() {
		List<String> names = new ArrayList<>(ANTHROPIC_QUOTAS.length);
		for (String quota : ANTHROPIC_QUOTAS) {
			names.add(ANTHROPIC + quota + "-remaining");
		}
		return List.copyOf(names);
	}

	/**
	 * Whether a response names an Anthropic quota at all.
	 */
	static boolean isAnthropic(String name) {
		return name.regionMatches(true, 0, ANTHROPIC, 0, ANTHROPIC.length());
	}

	/**
	 * A requests quota, with its reset already read (negative when it was not valid).
	 */
	static @Nullable RateLimitReading requests(String policy, List<String> remainingLines, List<String> limitLines,
			long resetInNanos, RateLimitFields fields) {
		long remaining = RateLimitValues.count(remainingLines);
		if (remaining < 0 || resetInNanos < 0 || resetInNanos > RateLimitValues.MAX_RESET_NANOS) {
			return null;
		}
		long limit = 0;
		if (!limitLines.isEmpty()) {
			limit = RateLimitValues.count(limitLines);
			if (limit < 0 || remaining > limit) {
				return null;
			}
		}
		Duration resetIn = Duration.ofNanos(resetInNanos);
		Duration window = (limit > 0) ? max(resetIn, Duration.ofSeconds(1)) : Duration.ZERO;
		return new RateLimitReading(policy, remaining, resetIn, limit, window, fields);
	}

	/**
	 * A token quota: a reading only when nothing of it remains, and then with no rate, so
	 * that it holds requests until its reset and says nothing after it.
	 */
	private static @Nullable RateLimitReading spent(String policy, List<String> remainingLines,
			List<String> limitLines, long resetInNanos, RateLimitFields fields) {
		RateLimitReading reading = requests(policy, remainingLines, limitLines, resetInNanos, fields);
		if (reading == null || reading.remaining() != 0) {
			return null;
		}
		return new RateLimitReading(policy, 0, reading.resetIn(), 0, Duration.ZERO, fields);
	}

	/**
	 * A quota's name as the endpoint may show it: a token of letters, digits and
	 * {@code -._}, at most 64 characters; anything else is not shown.
	 */
	static String name(List<String> lines) {
		if (lines.size() != 1 || lines.get(0) == null) {
			return "";
		}
		String value = lines.get(0);
		int start = RetryAfterParser.skipLeadingOws(value);
		int end = RetryAfterParser.skipTrailingOws(value, start);
		if (end - start > 64) {
			return "";
		}
		for (int i = start; i < end; i++) {
			char c = value.charAt(i);
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
					|| c == '.' || c == '_')) {
				return "";
			}
		}
		return value.substring(start, end);
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

	private static List<String> lines(Function<String, @Nullable List<String>> fieldLines, String name) {
		List<String> lines = fieldLines.apply(name);
		return (lines != null) ? lines : List.of();
	}

}
