package dev.retryafter.core.protection;

/**
 * How many requests an origin accepted lately, per 100 ms over the last 10 s, on the
 * monotonic clock.
 * <p>
 * Why buckets: a rate is read over a span that ends at a rejection, and the span is only
 * known then (it follows the server's delay); a count per bucket answers any span up to the
 * ring's length in constant memory. Not thread-safe: the owner locks. Open to a subclass that
 * keeps what it needs beside the ring in one object, so a count touches fewer cache lines.
 */
class AcceptedBuckets {

	static final long BUCKET_NANOS = 100_000_000L;

	static final int BUCKETS = 100;

	/** The longest span the ring answers for. */
	static final long SPAN_NANOS = BUCKETS * BUCKET_NANOS;

	private final int[] accepted = new int[BUCKETS];

	private final long originNanos;

	private long lastBucket;

	AcceptedBuckets(long originNanos) {
		this.originNanos = originNanos;
	}

	/** When the ring started counting. */
	long originNanos() {
		return this.originNanos;
	}

	/** When the latest bucket counted or read began. */
	long latestNanos() {
		return this.originNanos + this.lastBucket * BUCKET_NANOS;
	}

	/** Counts one acceptance at {@code nowNanos}; a reading older than the ring is dropped. */
	void add(long nowNanos) {
		long bucket = bucket(nowNanos);
		if (bucket >= 0) {
			this.accepted[(int) (bucket % BUCKETS)]++;
		}
	}

	/**
	 * The acceptances in the buckets covering the {@code spanNanos} that end at
	 * {@code nowNanos} (at least the current bucket), or {@code -1} for a reading older than
	 * the last one counted by more than the ring.
	 */
	long sum(long nowNanos, long spanNanos) {
		long current = bucket(nowNanos);
		if (current < 0) {
			return -1;
		}
		long sum = 0;
		for (long b = first(current, spanNanos); b <= current; b++) {
			sum += this.accepted[(int) (b % BUCKETS)];
		}
		return sum;
	}

	/**
	 * When the oldest bucket with an acceptance within the {@code spanNanos} that end at
	 * {@code nowNanos} began, or {@code nowNanos} when there is none.
	 */
	long oldest(long nowNanos, long spanNanos) {
		long current = bucket(nowNanos);
		if (current < 0) {
			return nowNanos;
		}
		for (long b = first(current, spanNanos); b <= current; b++) {
			if (this.accepted[(int) (b % BUCKETS)] > 0) {
				return this.originNanos + b * BUCKET_NANOS;
			}
		}
		return nowNanos;
	}

	private static long first(long current, long spanNanos) {
		long buckets = Math.max(1, Math.min(spanNanos, SPAN_NANOS) / BUCKET_NANOS);
		return Math.max(0, current - buckets + 1);
	}

	// The bucket of a reading, counted from the ring's origin, with the buckets skipped since
	// the last one cleared; -1 for a reading before the ring or older than it.
	private long bucket(long nowNanos) {
		long bucket = (nowNanos - this.originNanos) / BUCKET_NANOS;
		if (bucket < this.lastBucket) {
			return (bucket >= 0 && this.lastBucket - bucket < BUCKETS) ? bucket : -1;
		}
		for (long cleared = Math.max(this.lastBucket + 1, bucket - BUCKETS + 1); cleared <= bucket; cleared++) {
			this.accepted[(int) (cleared % BUCKETS)] = 0;
		}
		this.lastBucket = bucket;
		return bucket;
	}

}
