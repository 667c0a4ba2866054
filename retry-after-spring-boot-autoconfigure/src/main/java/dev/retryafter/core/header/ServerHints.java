package dev.retryafter.core.header;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * What a response says about retrying beyond {@code Retry-After}: a millisecond hint
 * ({@code retry-after-ms}, {@code x-ms-retry-after-ms}), a server verdict
 * ({@code X-Should-Retry}, {@code Stripe-Should-Retry}) and whether it announces a spent
 * quota ({@code x-ratelimit-remaining: 0}, or {@code RateLimit} with {@code r=0}), which
 * makes a 403 a rate-limit answer. Read by {@link #read}, a pure function that never throws
 * on any header value.
 *
 * @param millis the millisecond hint, or {@code null} when absent, unusable or switched off
 * @param verdict the server's verdict
 * @param quotaSpent whether the response announces a remaining quota of zero
 * @param quotaReset when the quota fields were read and name a spent quota, the time until it
 * resets (never retried before it), or {@code null}
 * @since 0.3.0
 */
public record ServerHints(@Nullable Duration millis, Verdict verdict, boolean quotaSpent,
		@Nullable Duration quotaReset) {

	/** No hints at all: what a response without these fields carries. */
	public static final ServerHints NONE = new ServerHints(null, Verdict.NONE, false);

	/** Azure's and OpenAI's millisecond hint. */
	public static final String RETRY_AFTER_MS = "retry-after-ms";

	/** Azure's older millisecond hint. */
	public static final String X_MS_RETRY_AFTER_MS = "x-ms-retry-after-ms";

	/** The verdict OpenAI's and Anthropic's SDKs obey. */
	public static final String X_SHOULD_RETRY = "x-should-retry";

	/** Stripe's verdict. */
	public static final String STRIPE_SHOULD_RETRY = "stripe-should-retry";

	static final String X_RATELIMIT_REMAINING = "x-ratelimit-remaining";

	static final String RATELIMIT = "ratelimit";

	// 19 digits may already overflow a long; the hint is capped at MAX_DELAY anyway.
	private static final int MAX_DIGITS = 18;

	/**
	 * Checks the components.
	 */
	public ServerHints {
		Objects.requireNonNull(verdict, "verdict");
		if (millis != null && (millis.isNegative() || millis.compareTo(RetryAfter.MAX_DELAY) > 0)) {
			throw new IllegalArgumentException("millis must be between 0 and MAX_DELAY: " + millis);
		}
		if (quotaReset != null && (quotaReset.isNegative() || quotaReset.compareTo(RetryAfter.MAX_DELAY) > 0)) {
			throw new IllegalArgumentException("quotaReset must be between 0 and MAX_DELAY: " + quotaReset);
		}
	}

	/**
	 * Hints without a quota reset.
	 * @param millis the millisecond hint, or {@code null}
	 * @param verdict the server's verdict
	 * @param quotaSpent whether the response announces a remaining quota of zero
	 */
	public ServerHints(@Nullable Duration millis, Verdict verdict, boolean quotaSpent) {
		this(millis, verdict, quotaSpent, null);
	}

	/**
	 * These hints, with a spent quota that resets after the given time, as the quota readers
	 * found it in the same response (GitHub's {@code x-ratelimit-remaining: 0} with its
	 * {@code x-ratelimit-reset}, OpenAI's, Anthropic's and the draft's forms alike).
	 * @param resetIn the time until the spent quota resets, not negative
	 * @return the hints, saying the quota is spent
	 */
	public ServerHints withSpentQuota(Duration resetIn) {
		Duration capped = (resetIn.compareTo(RetryAfter.MAX_DELAY) > 0) ? RetryAfter.MAX_DELAY : resetIn;
		return new ServerHints(this.millis, this.verdict, true, capped.isNegative() ? Duration.ZERO : capped);
	}

	/**
	 * A server's verdict on retrying.
	 */
	public enum Verdict {

		/** No verdict, or an unusable one: the client's own rules decide. */
		NONE,

		/** {@code true}: retry even a status that is not retryable, if the request may be repeated. */
		RETRY,

		/** {@code false}: do not retry. */
		NO_RETRY

	}

	/**
	 * Reads the hints of one response.
	 * @param firstValue the first value of a response header by its lower-case name, or
	 * {@code null} when the header is absent
	 * @param millisecondHints whether millisecond hints are read
	 * @param serverVerdicts whether server verdicts are read
	 * @return the hints, {@link #NONE} when there are none
	 */
	public static ServerHints read(Function<String, @Nullable String> firstValue, boolean millisecondHints,
			boolean serverVerdicts) {
		Objects.requireNonNull(firstValue, "firstValue");
		Duration millis = null;
		if (millisecondHints) {
			millis = parseMillis(firstValue.apply(RETRY_AFTER_MS));
			if (millis == null) {
				millis = parseMillis(firstValue.apply(X_MS_RETRY_AFTER_MS));
			}
		}
		Verdict verdict = Verdict.NONE;
		if (serverVerdicts) {
			verdict = parseVerdict(firstValue.apply(X_SHOULD_RETRY));
			if (verdict == Verdict.NONE) {
				verdict = parseVerdict(firstValue.apply(STRIPE_SHOULD_RETRY));
			}
		}
		boolean spent = isZero(firstValue.apply(X_RATELIMIT_REMAINING))
				|| hasZeroRemaining(firstValue.apply(RATELIMIT));
		if (millis == null && verdict == Verdict.NONE && !spent) {
			return NONE;
		}
		return new ServerHints(millis, verdict, spent);
	}

	/**
	 * A strict non-negative decimal integer of milliseconds, after optional OWS; anything else
	 * ({@code 1.5e3}, {@code -1}, an empty value) is {@code null}, as an unusable
	 * {@code Retry-After} counts as absent. A value too long to count saturates to
	 * {@link RetryAfter#MAX_DELAY}, so it never overflows and the header cap abandons it.
	 * @param value the header value, or {@code null}
	 * @return the hint, or {@code null}
	 */
	public static @Nullable Duration parseMillis(@Nullable String value) {
		if (value == null) {
			return null;
		}
		int start = RetryAfterParser.skipLeadingOws(value);
		int end = RetryAfterParser.skipTrailingOws(value, start);
		if (start == end) {
			return null;
		}
		long ms = 0;
		boolean saturated = false;
		for (int i = start; i < end; i++) {
			char c = value.charAt(i);
			if (c < '0' || c > '9') {
				return null;
			}
			if (i - start >= MAX_DIGITS) {
				saturated = true;
			}
			else {
				ms = ms * 10 + (c - '0');
			}
		}
		if (saturated || ms >= RetryAfter.MAX_DELAY.toMillis()) {
			return RetryAfter.MAX_DELAY;
		}
		return Duration.ofMillis(ms);
	}

	/**
	 * {@code true} or {@code false}, case-insensitive, after OWS; anything else is no verdict.
	 */
	static Verdict parseVerdict(@Nullable String value) {
		if (value == null || value.length() > 16) {
			return Verdict.NONE;
		}
		String v = value.strip().toLowerCase(Locale.ROOT);
		return switch (v) {
			case "true" -> Verdict.RETRY;
			case "false" -> Verdict.NO_RETRY;
			default -> Verdict.NONE;
		};
	}

	private static boolean isZero(@Nullable String value) {
		return value != null && value.strip().equals("0");
	}

	/**
	 * A cheap look for a {@code r=0} parameter in a draft {@code RateLimit} field: a quota
	 * announced spent. Anything finer is the quota readers' job.
	 */
	private static boolean hasZeroRemaining(@Nullable String value) {
		if (value == null) {
			return false;
		}
		int from = 0;
		while (true) {
			int at = value.indexOf("r=0", from);
			if (at < 0) {
				return false;
			}
			boolean startsParameter = at > 0 && (value.charAt(at - 1) == ';' || value.charAt(at - 1) == ' ');
			int after = at + 3;
			boolean endsNumber = after == value.length()
					|| (!Character.isDigit(value.charAt(after)) && value.charAt(after) != '.');
			if (startsParameter && endsNumber) {
				return true;
			}
			from = at + 1;
		}
	}

	/**
	 * Combines a {@code Retry-After} with a millisecond hint and a spent quota's reset. When both are usable and agree
	 * within {@code Retry-After}'s one-second rounding (they differ by less than a second),
	 * the finer hint wins; when they differ by more, the later one wins, so the retry is never
	 * earlier than either asked. An unusable or absent {@code Retry-After} gives way to a
	 * usable hint. A spent quota's reset later than that (or alone) wins over both.
	 * @param retryAfter the parsed {@code Retry-After}
	 * @param hints the response's hints
	 * @return what the planner and the cooldown honour
	 */
	public static RetryAfter combine(RetryAfter retryAfter, ServerHints hints) {
		RetryAfter combined = combineMillis(retryAfter, hints);
		Duration reset = hints.quotaReset();
		if (reset == null) {
			return combined;
		}
		// A spent quota is not renewed before its reset (GitHub: "do not retry before"), so a
		// shorter or absent Retry-After gives way to it: never earlier than either said.
		if (combined instanceof RetryAfter.Delay delay && delay.delay().compareTo(reset) >= 0) {
			return combined;
		}
		return new RetryAfter.Delay(reset, RetryAfter.Form.QUOTA_RESET);
	}

	private static RetryAfter combineMillis(RetryAfter retryAfter, ServerHints hints) {
		Duration millis = hints.millis();
		if (millis == null) {
			return retryAfter;
		}
		RetryAfter.Delay hint = new RetryAfter.Delay(millis, RetryAfter.Form.MILLIS);
		if (!(retryAfter instanceof RetryAfter.Delay delay)) {
			return hint;
		}
		Duration gap = delay.delay().minus(millis).abs();
		if (gap.compareTo(Duration.ofSeconds(1)) < 0) {
			return hint;
		}
		return (delay.delay().compareTo(millis) >= 0) ? delay : hint;
	}

}
