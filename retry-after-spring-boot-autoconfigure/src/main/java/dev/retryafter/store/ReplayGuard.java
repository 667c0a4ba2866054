package dev.retryafter.store;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Tells a signed message heard for the first time from one heard before or long ago. Each
 * signed message carries the Redis time it was sent at and its publisher's sequence number
 * (1, 2, 3, ... per store): one stamped more than {@link #MAX_AGE} away from Redis's time now
 * is stale; one whose sequence number this instance has seen from the same publisher is a
 * replay. Sequence numbers are tracked per publisher over the last {@value #WINDOW} of them,
 * not as one highest number, because on a Redis Cluster messages published through
 * different nodes may arrive out of order; one more than that behind the highest is dropped
 * as a replay too. At most {@value #PUBLISHERS} publishers are remembered, those heard from
 * last: a publisher's messages stop being replayable within {@link #MAX_AGE} anyway. Pure:
 * the time is handed in.
 */
final class ReplayGuard {

	/** How far from Redis's time now a message may be stamped. */
	static final Duration MAX_AGE = Duration.ofSeconds(30);

	static final int WINDOW = 256;

	static final int PUBLISHERS = 1024;

	private static final long MAX_AGE_MILLIS = MAX_AGE.toMillis();

	private final Map<String, Seen> publishers = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, Seen> eldest) {
			return size() > PUBLISHERS;
		}

	};

	/**
	 * Whether a verified message is fresh, and records it if so.
	 * @param publisher the id of the store that published it
	 * @param sentAt when it was sent, in Redis's epoch milliseconds
	 * @param sequence its sequence number, 1 or more
	 * @param redisNow Redis's time now as this instance estimates it, or
	 * {@link RedisClock#UNKNOWN} (then nothing can be trusted to be fresh)
	 * @return the verdict
	 */
	synchronized Verdict check(String publisher, long sentAt, long sequence, long redisNow) {
		if (redisNow == RedisClock.UNKNOWN || sentAt < redisNow - MAX_AGE_MILLIS
				|| sentAt > redisNow + MAX_AGE_MILLIS) {
			return Verdict.STALE;
		}
		Seen seen = this.publishers.get(publisher);
		if (seen == null) {
			this.publishers.put(publisher, new Seen(sequence));
			return Verdict.FRESH;
		}
		return seen.first(sequence) ? Verdict.FRESH : Verdict.REPLAYED;
	}

	/**
	 * What a message is.
	 */
	enum Verdict {

		/** Heard for the first time, and recent. */
		FRESH,

		/** Stamped too long ago (or too far ahead), or Redis's time is not known yet. */
		STALE,

		/** Heard before from the same publisher, or too far behind its later messages. */
		REPLAYED

	}

	// The sequence numbers of one publisher seen within the window below its highest, one bit
	// each, at (sequence mod WINDOW).
	private static final class Seen {

		private final long[] bits = new long[WINDOW / Long.SIZE];

		private long highest;

		Seen(long sequence) {
			this.highest = sequence;
			set(sequence);
		}

		// Whether the sequence number is seen for the first time; marks it seen.
		boolean first(long sequence) {
			if (sequence > this.highest) {
				long gap = sequence - this.highest;
				if (gap >= WINDOW) {
					Arrays.fill(this.bits, 0);
				}
				else {
					for (long cleared = this.highest + 1; cleared < sequence; cleared++) {
						clear(cleared);
					}
				}
				this.highest = sequence;
				set(sequence);
				return true;
			}
			if (this.highest - sequence >= WINDOW || isSet(sequence)) {
				return false;
			}
			set(sequence);
			return true;
		}

		private boolean isSet(long sequence) {
			int bit = Math.floorMod(sequence, WINDOW);
			return (this.bits[bit / Long.SIZE] & (1L << (bit % Long.SIZE))) != 0;
		}

		private void set(long sequence) {
			int bit = Math.floorMod(sequence, WINDOW);
			this.bits[bit / Long.SIZE] |= 1L << (bit % Long.SIZE);
		}

		private void clear(long sequence) {
			int bit = Math.floorMod(sequence, WINDOW);
			this.bits[bit / Long.SIZE] &= ~(1L << (bit % Long.SIZE));
		}

	}

}
