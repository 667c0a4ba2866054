package dev.retryafter.store;

import java.util.concurrent.ConcurrentHashMap;

import dev.retryafter.core.CooldownKey;

/**
 * How many requests of each quota went outside the fleet's slots since this instance last
 * took one (retries, and first attempts a cooldown held), for the next slot it takes to tell
 * the fleet's schedule. A count older than {@link #STALE_NANOS} is dropped: the window it was
 * spent in has long reset.
 */
final class UnslottedRequests {

	/** How long a count is worth telling. */
	static final long STALE_NANOS = 10_000_000_000L;

	private static final int MAX_KEYS = 1_024;

	// {count, when the first of them went}, monotonic.
	private final ConcurrentHashMap<CooldownKey, long[]> counts = new ConcurrentHashMap<>();

	/** One more request of {@code key} went outside the slots. */
	void add(CooldownKey key, long nowNanos) {
		restore(key, 1, nowNanos);
	}

	/** Puts back a count that was taken but could not be told. */
	void restore(CooldownKey key, long count, long nowNanos) {
		if (count <= 0) {
			return;
		}
		if (this.counts.size() > MAX_KEYS) {
			this.counts.clear();
		}
		this.counts.compute(key, (k, held) -> {
			if (held == null || nowNanos - held[1] > STALE_NANOS) {
				return new long[] { count, nowNanos };
			}
			held[0] += count;
			return held;
		});
	}

	/** The count of {@code key} to tell now, which is then cleared: zero when stale or none. */
	long take(CooldownKey key, long nowNanos) {
		long[] held = this.counts.remove(key);
		return (held == null || nowNanos - held[1] > STALE_NANOS) ? 0 : held[0];
	}

}
