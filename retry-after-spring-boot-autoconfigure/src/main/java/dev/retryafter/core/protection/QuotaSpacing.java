package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.Objects;

/**
 * How a fleet that shares a quota spaces the slots it takes from it: one interval before the
 * quota's reset and another after it, since a fleet's slot may land past the reset the
 * instance that takes it sees now, and (while the origin is not seen to refill) a log of the
 * last slots, at most {@code logEntries} per {@code logSpan}, so that a fixed window's
 * allowance can go out at its reset instead of over the whole window.
 *
 * @param beforeReset the interval before the reset ({@code t / r}), zero when nothing is left
 * before it or when the log spaces those slots too
 * @param afterReset the interval after it ({@code w / q}, divided by the pacing's share),
 * zero when no rate is known
 * @param resetIn the time left until the reset, zero once it has passed or when the origin
 * refills as it goes (its reset is not waited for)
 * @param logEntries how many slots may go in any {@code logSpan}, zero when slots are only
 * spaced by the intervals
 * @param logSpan the span those slots are counted in, zero without a log
 * @param resetLateBy how much later than the origin's true reset the reset in
 * {@code resetIn} may lie, as the answers bound it (docs/PACING.md, rule 11), or
 * {@link #UNBOUNDED} when nothing bounds it
 * @param window the quota's fixed window ({@code w}), zero when not known
 * @param logAlone whether the log alone says when these slots go: it has seen a window of
 * its own and nothing is spread before the reset, so the instance's own reset (named by its
 * own answers, up to a second late) holds nothing the fleet's log does not
 * @param leftBeforeReset the fewest requests this instance's answers counted left before the
 * reset while its slots are spread there, or -1 when that is not known: no more slots than
 * that may go before the reset after the request that count answered (docs/PACING.md, rule 15)
 * @param leftCountedAgo how long ago the request whose answer counted {@code leftBeforeReset}
 * went: slots that went before it are in the count, and those after it are not
 * @since 0.3.0
 * @see RateLimitPacing#spacing
 */
public record QuotaSpacing(Duration beforeReset, Duration afterReset, Duration resetIn, int logEntries,
		Duration logSpan, Duration resetLateBy, Duration window, boolean logAlone, long leftBeforeReset,
		Duration leftCountedAgo) {

	/** What {@link #resetLateBy} is when nothing bounds how late the reset may be. */
	public static final Duration UNBOUNDED = Duration.ofDays(1);

	/** No spacing: the key has no quota, or no interval is known. */
	public static final QuotaSpacing NONE = new QuotaSpacing(Duration.ZERO, Duration.ZERO, Duration.ZERO);

	/**
	 * Checks the arguments.
	 * @throws IllegalArgumentException if a duration or the entries are negative
	 */
	public QuotaSpacing {
		for (Duration duration : new Duration[] { beforeReset, afterReset, resetIn, logSpan, resetLateBy, window,
				leftCountedAgo }) {
			if (Objects.requireNonNull(duration, "duration").isNegative()) {
				throw new IllegalArgumentException("must not be negative: " + duration);
			}
		}
		if (logEntries < 0) {
			throw new IllegalArgumentException("must not be negative: " + logEntries);
		}
		leftBeforeReset = Math.max(-1, leftBeforeReset);
	}

	/**
	 * Spacing that says nothing of the count left before the reset.
	 * @param beforeReset the interval before the reset
	 * @param afterReset the interval after it
	 * @param resetIn the time left until the reset
	 * @param logEntries how many slots may go in any {@code logSpan}
	 * @param logSpan the span those slots are counted in
	 * @param resetLateBy how much later than the origin's true reset {@code resetIn} may lie
	 * @param window the quota's fixed window, zero when not known
	 * @param logAlone whether the log alone says when these slots go
	 */
	public QuotaSpacing(Duration beforeReset, Duration afterReset, Duration resetIn, int logEntries,
			Duration logSpan, Duration resetLateBy, Duration window, boolean logAlone) {
		this(beforeReset, afterReset, resetIn, logEntries, logSpan, resetLateBy, window, logAlone, -1, Duration.ZERO);
	}

	/**
	 * Spacing whose log does not pace alone.
	 * @param beforeReset the interval before the reset
	 * @param afterReset the interval after it
	 * @param resetIn the time left until the reset
	 * @param logEntries how many slots may go in any {@code logSpan}
	 * @param logSpan the span those slots are counted in
	 * @param resetLateBy how much later than the origin's true reset {@code resetIn} may lie
	 * @param window the quota's fixed window, zero when not known
	 */
	public QuotaSpacing(Duration beforeReset, Duration afterReset, Duration resetIn, int logEntries,
			Duration logSpan, Duration resetLateBy, Duration window) {
		this(beforeReset, afterReset, resetIn, logEntries, logSpan, resetLateBy, window, false);
	}

	/**
	 * Spacing by the intervals alone, without a log.
	 * @param beforeReset the interval before the reset
	 * @param afterReset the interval after it
	 * @param resetIn the time left until the reset
	 */
	public QuotaSpacing(Duration beforeReset, Duration afterReset, Duration resetIn) {
		this(beforeReset, afterReset, resetIn, 0, Duration.ZERO);
	}

	/**
	 * Spacing with a log, the reset's lateness not bounded and the window not known.
	 * @param beforeReset the interval before the reset
	 * @param afterReset the interval after it
	 * @param resetIn the time left until the reset
	 * @param logEntries how many slots may go in any {@code logSpan}
	 * @param logSpan the span those slots are counted in
	 */
	public QuotaSpacing(Duration beforeReset, Duration afterReset, Duration resetIn, int logEntries,
			Duration logSpan) {
		this(beforeReset, afterReset, resetIn, logEntries, logSpan, UNBOUNDED, Duration.ZERO);
	}

	/**
	 * Whether the fleet has nothing to space slots by: it then takes none.
	 * @return {@code true} when both intervals are zero
	 */
	public boolean isNone() {
		return this.beforeReset.isZero() && this.afterReset.isZero();
	}

	/**
	 * Whether slots are also counted in a log.
	 * @return {@code true} when the log has entries and a span
	 */
	public boolean logs() {
		return this.logEntries > 0 && !this.logSpan.isZero();
	}

}
