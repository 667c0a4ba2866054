package dev.retryafter.core.protection;

/**
 * The reset of the window a quota's answers name, as a monotonic reading: the earliest that
 * the answers of one window named, and the last window's, to tell its late answers apart.
 * <p>
 * A reset in whole seconds is rounded up and read when the answer arrives, so each answer
 * names it late by up to a second, never early: of one window's answers, the earliest named
 * is the closest. Answers within a second of each other's reset cannot be told apart by it,
 * so they are one window's, save one that names a reset at least half a second later and
 * counts more left than any answer of the window did: the next window's, whose answers name a
 * reset less than a second after the last window's when those came back slowly. An answer to
 * a request the last window counted may come after the first answer of the next, naming the
 * last window's reset.
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

	// The least any answer of this window counted left: it only falls within a window.
	private long lowest;

	WindowReset(long resetAt, long remaining) {
		this.resetAt = resetAt;
		this.lowest = remaining;
	}

	/** The reset of this window. */
	long at() {
		return this.resetAt;
	}

	/**
	 * An answer's reset.
	 * @param announced the reset it named, a monotonic reading
	 * @param windowNanos the policy's window, or 0 when it names none
	 * @param remaining what it counted left
	 * @return what it says about the window
	 */
	Seen see(long announced, long windowNanos, long remaining) {
		long shift = announced - this.resetAt;
		if (late(announced, windowNanos)) {
			return Seen.LATE;
		}
		// A window's count only falls: more left, with a reset well after this one's, is the
		// next window's. Answers of one window that came back out of order also count more,
		// but name a reset within a few milliseconds of the others, or half a second later
		// only where the whole seconds turned over between them as well.
		boolean refilled = remaining > this.lowest && shift >= SECOND_NANOS / 2;
		if (shift > -SECOND_NANOS && shift < SECOND_NANOS && !refilled) {
			if (shift < 0) {
				this.resetAt = announced;
			}
			this.lowest = Math.min(this.lowest, remaining);
			return Seen.SAME;
		}
		this.previousWindow = true;
		this.previousResetAt = this.resetAt;
		this.resetAt = announced;
		this.lowest = remaining;
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
