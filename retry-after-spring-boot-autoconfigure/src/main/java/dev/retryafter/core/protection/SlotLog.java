package dev.retryafter.core.protection;

/**
 * When the last requests under one quota went, so that no more than its policy's {@code q}
 * go in any span of its window {@code w}: a request goes at once while fewer than {@code q}
 * went in the last span, else one span after the {@code q}-th latest.
 * <p>
 * Why a log and not one slot every {@code w / q}: a fixed window gives its whole allowance at
 * its reset, and evenly spaced slots use it over the whole window, so the last window of a
 * run of calls ends a window late. At most {@code q} in any span of {@code w} never exceeds a
 * fixed window, wherever its boundaries lie, nor a sliding one. Past {@value #MAX_ENTRIES}
 * entries the log keeps that many per the same share of the window, a little stricter than
 * the policy, since a quota that large is far from spent for most of its window.
 * <p>
 * The span is the window divided by {@link RateLimitSchedule#SHARE}, so that a request one
 * span after another never meets an allowance the origin has not given back yet. Entries never
 * move earlier than the last one, so the log stays in order and its oldest entry is the
 * {@code q}-th latest.
 * <p>
 * Times are monotonic nanosecond readings, compared only as differences. Not thread-safe: its
 * {@link RateLimitSchedule} guards it.
 */
final class SlotLog {

	/** The most entries a log keeps. */
	static final int MAX_ENTRIES = 64;

	private final long quota;

	private final long windowNanos;

	private final long[] instants;

	private final long spanNanos;

	private long count;

	SlotLog(long quota, long windowNanos) {
		this.quota = quota;
		this.windowNanos = windowNanos;
		int entries = (int) Math.max(1, Math.min(quota, MAX_ENTRIES));
		this.instants = new long[entries];
		this.spanNanos = Math.max(1, (long) (windowNanos * (entries / (double) quota) / RateLimitSchedule.SHARE));
	}

	/** Whether this log counts the policy of {@code quota} per {@code windowNanos}. */
	boolean counts(long quota, long windowNanos) {
		return this.quota == quota && this.windowNanos == windowNanos;
	}

	/**
	 * The earliest instant, not before {@code at}, at which one more request keeps the
	 * policy.
	 * @param at the instant the request would go otherwise
	 * @return {@code at}, or the oldest entry's plus one span when that is later
	 */
	long earliest(long at) {
		if (this.count < this.instants.length) {
			return at;
		}
		long free = this.instants[(int) (this.count % this.instants.length)] + this.spanNanos;
		return (free - at > 0) ? free : at;
	}

	/** A request that goes at {@code at}, or at the last entry if that is later. */
	void add(long at) {
		long last = (this.count > 0) ? this.instants[(int) ((this.count - 1) % this.instants.length)] : at;
		this.instants[(int) (this.count % this.instants.length)] = (last - at > 0) ? last : at;
		this.count++;
	}

	/** How many entries the log keeps: the most requests per {@link #spanNanos()}. */
	int entries() {
		return this.instants.length;
	}

	/** The span in which at most {@link #entries()} requests go. */
	long spanNanos() {
		return this.spanNanos;
	}

}
