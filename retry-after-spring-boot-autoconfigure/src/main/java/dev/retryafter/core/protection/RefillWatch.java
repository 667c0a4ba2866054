package dev.retryafter.core.protection;

/**
 * Whether an origin that announces its quota refills it as it goes (a token bucket) rather
 * than all at once at its reset (a fixed window), told from its accepted answers.
 * <p>
 * An accepted answer that reports the lowest {@code r} an earlier accepted answer of the
 * window reported, before the reset that one announced, shows a refill: a fixed window gives
 * each count once per window (it is lowered by every request it accepts, and answers that come
 * back out of order only report more), so only an origin that gave a request back in between
 * reports it twice. A refusal that says nothing is left ends it, and so does a reading
 * without a rate: the origin is paced by its resets again.
 * <p>
 * Not thread-safe: its {@link RateLimitSchedule} guards it.
 */
final class RefillWatch {

	private boolean refilling;

	/** The lowest {@code r} an accepted answer of this window reported, or -1, and its reset. */
	private long lowestAccepted = -1;

	private long lowestAcceptedReset;

	/** Whether the origin was seen to refill before its reset: it is then paced at its rate. */
	boolean refilling() {
		return this.refilling;
	}

	/** A new window, or another policy: what the last one's answers reported no longer counts. */
	void newWindow() {
		this.lowestAccepted = -1;
	}

	/**
	 * An answer's reading.
	 * @param remaining the {@code r} it reported
	 * @param accepted whether it was a success, which the origin counted
	 * @param hasRate whether its policy names a rate
	 * @param resetAt the reset it announced, a monotonic reading
	 * @param nowNanos the current monotonic reading
	 */
	void note(long remaining, boolean accepted, boolean hasRate, long resetAt, long nowNanos) {
		if (!hasRate) {
			// Paced by its rate, or not at all: a reading without one ends it.
			this.refilling = false;
			return;
		}
		if (!accepted) {
			if (remaining == 0) {
				this.refilling = false;
			}
			return;
		}
		if (this.lowestAccepted >= 0 && remaining == this.lowestAccepted && this.lowestAcceptedReset - nowNanos > 0) {
			this.refilling = true;
		}
		if (this.lowestAccepted < 0 || remaining < this.lowestAccepted) {
			this.lowestAccepted = remaining;
			this.lowestAcceptedReset = resetAt;
		}
	}

}
