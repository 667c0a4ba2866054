package dev.retryafter.core.protection;

import dev.retryafter.core.header.RateLimitFields;
import dev.retryafter.core.header.RateLimitReading;

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
 * last window's reset. And one naming a reset half a second or more before this window's that
 * counts as many left as the fewest of its answers is the window before's, read late: were it
 * this window's, it was counted after all of them (docs/PACING.md, rule 14).
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

	// The latest instant this window's answers show its reset to lie after, when one did.
	private long notBefore;

	private boolean bounded;

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
		return see(announced, windowNanos, remaining, false, 0);
	}

	/**
	 * An answer's reset, read at {@code readAt}: an answer read no later than this window's
	 * answers bound its reset is this window's or the last one's, whatever it counts; one that
	 * names a reset well before this window's while counting as many left as the fewest of its
	 * answers is the window before's, unless the origin is seen to refill ({@code refilling}),
	 * whose count rises as it does.
	 * @param announced the reset it named, a monotonic reading
	 * @param windowNanos the policy's window, or 0 when it names none
	 * @param remaining what it counted left
	 * @param readAt when it was read, a monotonic reading
	 * @param refilling whether the origin is seen to refill
	 * @return what it says about the window
	 */
	Seen see(long announced, long windowNanos, long remaining, long readAt, boolean refilling) {
		if (!refilling && windowBefores(announced, remaining)) {
			return Seen.LATE;
		}
		return see(announced, windowNanos, remaining, true, readAt);
	}

	private Seen see(long announced, long windowNanos, long remaining, boolean readKnown, long readAt) {
		long shift = announced - this.resetAt;
		if (late(announced, windowNanos)) {
			return Seen.LATE;
		}
		// A window's count only falls: more left, with a reset well after this one's, is the
		// next window's. Answers of one window that came back out of order also count more,
		// but name a reset within a few milliseconds of the others, or half a second later
		// only where the whole seconds turned over between them as well, or where the kept
		// reset was named by an answer read just after the window's whole seconds turned
		// (a window's first answer, its reset close, then a burst's out of order, theirs
		// read + t). The next window's answer was counted after this window's reset, so it
		// is read after the bound on it: one read before is this window's.
		boolean refilled = remaining > this.lowest && shift >= SECOND_NANOS / 2
				&& !(readKnown && this.bounded && readAt - this.notBefore <= 0);
		if (shift > -SECOND_NANOS && shift < SECOND_NANOS && !refilled) {
			if (shift < 0) {
				this.resetAt = announced;
			}
			this.lowest = Math.min(this.lowest, remaining);
			return Seen.SAME;
		}
		// A fixed window starts no earlier than the last one ended, so it ends no earlier than
		// a window after the last one's bound: the bound carries over to a reset named about a
		// window later by an answer counting more left, as a new window's first answers do.
		// Otherwise it may be a slow answer of the same window taken for the next's, which the
		// bound must not outlive.
		this.bounded = this.bounded && windowNanos > 0 && shift >= windowNanos - SECOND_NANOS
				&& remaining > this.lowest;
		if (this.bounded) {
			this.notBefore += windowNanos;
		}
		this.previousWindow = true;
		this.previousResetAt = this.resetAt;
		this.resetAt = announced;
		this.lowest = remaining;
		return Seen.NEW;
	}

	/**
	 * What an answer of this window, {@link #see seen} as this window's or a new one's, says
	 * of how early its reset may be. The server rounds its {@code t} up to whole seconds from
	 * its own now, which is no earlier than the request was sent: the reset lies after the
	 * send plus {@code t} less a second. Only the draft's {@code RateLimit} counts: other
	 * dialects name an instant on the server's wall clock, whose offset from ours is unknown.
	 * @param reading the answer's reading
	 * @param roundTripNanos from sending the request to reading the answer, or negative when
	 * not known
	 * @param nowNanos when the answer was read
	 */
	void bound(RateLimitReading reading, long roundTripNanos, long nowNanos) {
		if (roundTripNanos < 0 || reading.fields() != RateLimitFields.IETF) {
			return;
		}
		long after = nowNanos - roundTripNanos + reading.resetIn().toNanos() - SECOND_NANOS;
		if (!this.bounded || after - this.notBefore > 0) {
			this.notBefore = after;
			this.bounded = true;
		}
	}

	/**
	 * How much later than the origin's reset this window's reset may lie, as its answers
	 * bound it.
	 * @return the bound in nanoseconds, or -1 when no answer bounded it (or they disagree)
	 */
	long lateBy() {
		long lateBy = this.resetAt - this.notBefore;
		return (this.bounded && lateBy >= 0) ? lateBy : -1;
	}

	// An answer read after this window's that names a reset half a second or more before all of
	// theirs has a t a whole second less than each: were it this window's, it was counted after
	// all of them and counts fewer left than the least. Counting as many, it is the window
	// before's, read late (a first burst that spans a window's end, whose answers from both
	// sides come back out of order), and the window before's reset is no later than it names.
	// Taken for this window's, it named this window's reset a second early.
	private boolean windowBefores(long announced, long remaining) {
		if (this.lowest <= 0 || remaining < this.lowest || this.resetAt - announced < SECOND_NANOS / 2) {
			return false;
		}
		if (!this.previousWindow || announced - this.previousResetAt < 0) {
			this.previousResetAt = announced;
		}
		this.previousWindow = true;
		return true;
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
