package dev.retryafter.core.protection;

/**
 * The reset of the window a quota's answers name, as a monotonic reading: the earliest that
 * the answers of one window named, and the last window's, to tell its late answers apart.
 * <p>
 * A reset in whole seconds is rounded up and read when the answer arrives, so each answer
 * names it late by up to a second, never early: of one window's answers, the earliest named
 * is the closest. Answers within a second of each other's reset cannot be told apart, so they
 * are one window's; an answer to a request the last window counted may come after the first
 * answer of the next, naming the last window's reset.
 * <p>
 * Not thread-safe: its {@link RateLimitSchedule} guards it.
 */
final class WindowReset {

	private static final long SECOND_NANOS = 1_000_000_000L;

	/** What an answer's reset says about the window. */
	enum Seen {

		/** The last window's: it says nothing of this one. */
		LATE,

		/** This window's, within a second of its reset. */
		SAME,

		/** A new window's; the one before is the last window now. */
		NEW

	}

	private long resetAt;

	private boolean previousWindow;

	private long previousResetAt;

	WindowReset(long resetAt) {
		this.resetAt = resetAt;
	}

	/** The reset of this window. */
	long at() {
		return this.resetAt;
	}

	/**
	 * An answer's reset.
	 * @param announced the reset it named, a monotonic reading
	 * @param windowNanos the policy's window, or 0 when it names none
	 * @return what it says about the window
	 */
	Seen see(long announced, long windowNanos) {
		long shift = announced - this.resetAt;
		if (late(announced, windowNanos)) {
			return Seen.LATE;
		}
		if (shift > -SECOND_NANOS && shift < SECOND_NANOS) {
			if (shift < 0) {
				this.resetAt = announced;
			}
			return Seen.SAME;
		}
		this.previousWindow = true;
		this.previousResetAt = this.resetAt;
		this.resetAt = announced;
		return Seen.NEW;
	}

	// A late answer names a reset up to a second after the last window's (a second rounded up,
	// plus its way back) and well before this one's. A window of under two seconds cannot be
	// told from the last by a field in whole seconds: its answers are never taken for late.
	private boolean late(long announced, long windowNanos) {
		if (!this.previousWindow || (windowNanos > 0 && windowNanos < 2 * SECOND_NANOS)) {
			return false;
		}
		return this.resetAt - announced > SECOND_NANOS / 2 && announced - this.previousResetAt < 3 * SECOND_NANOS / 2;
	}

}
