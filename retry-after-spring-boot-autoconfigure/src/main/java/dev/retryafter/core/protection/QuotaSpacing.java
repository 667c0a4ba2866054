package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.Objects;

/**
 * How a fleet that shares a quota spaces the slots it takes from it: one interval before the
 * quota's reset and another after it, since a fleet's slot may land past the reset the
 * instance that takes it sees now.
 *
 * @param beforeReset the interval before the reset ({@code t / r}), zero when nothing is left
 * before it
 * @param afterReset the interval after it ({@code w / q}, divided by the pacing's share),
 * zero when no rate is known
 * @param resetIn the time left until the reset, zero once it has passed or when the origin
 * refills as it goes (its reset is not waited for)
 * @since 0.3.0
 * @see RateLimitPacing#spacing
 */
public record QuotaSpacing(Duration beforeReset, Duration afterReset, Duration resetIn) {

	/** No spacing: the key has no quota, or no interval is known. */
	public static final QuotaSpacing NONE = new QuotaSpacing(Duration.ZERO, Duration.ZERO, Duration.ZERO);

	/**
	 * Checks the arguments.
	 * @throws IllegalArgumentException if a duration is negative
	 */
	public QuotaSpacing {
		for (Duration duration : new Duration[] { beforeReset, afterReset, resetIn }) {
			if (Objects.requireNonNull(duration, "duration").isNegative()) {
				throw new IllegalArgumentException("must not be negative: " + duration);
			}
		}
	}

	/**
	 * Whether the fleet has nothing to space slots by: it then takes none.
	 * @return {@code true} when both intervals are zero
	 */
	public boolean isNone() {
		return this.beforeReset.isZero() && this.afterReset.isZero();
	}

}
