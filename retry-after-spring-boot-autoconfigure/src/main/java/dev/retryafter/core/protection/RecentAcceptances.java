package dev.retryafter.core.protection;

import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * What each host accepted lately while nothing of it was paced, so that the first rejection
 * can already tell the rate its origin accepts.
 * <p>
 * Why: a learned rate needs a sample window, and one opens only at a rejection; until the
 * second rejection nothing is paced. Against a fixed window that is a whole window of
 * rejections more: the requests a cooldown held all leave at its instant, together with the
 * callers that come back, and they spend the next window at once. The origin has said enough
 * at its first rejection: it accepted what came before and asked for a delay, so it accepts
 * about {@code accepted / (span + delay)}.
 * <p>
 * Counted per host (the cheapest name a response has before its key is built), so the
 * partitions of one origin (and the ports of one host) share a count: a partition's rate then comes out higher than its
 * own, which paces less, never more. Bounded: past {@code maxHosts} hosts, those quiet for
 * longer than the ring are forgotten, and a new host is not counted until there is room.
 * Thread-safe as an estimate: counts are kept without a lock (see {@code Host}).
 */
final class RecentAcceptances {

	// A rate is only told from two acceptances at least: one says nothing about a rate.
	private static final int FEWEST = 2;

	private static final double NANOS_PER_SECOND = 1e9;

	// The span read before a rejection: the server's delay, at least 1 s (shorter delays are
	// rounded up to a second by most servers), at most 4 s (older acceptances tell the rate of
	// a demand that may have risen since).
	private static final long SHORTEST_SPAN_NANOS = 1_000_000_000L;

	private static final long LONGEST_SPAN_NANOS = 4_000_000_000L;

	private final ConcurrentHashMap<String, Host> hosts = new ConcurrentHashMap<>();

	private final int maxHosts;

	// A full map is scanned for quiet hosts at most once per bucket, not on every new host.
	private volatile long lastPurge;

	private volatile boolean purged;

	// The host counted last.
	private volatile @Nullable Host last;

	RecentAcceptances(int maxHosts) {
		this.maxHosts = maxHosts;
	}

	/** A response from {@code host} (any case) that did not start a cooldown, at {@code nowNanos}. */
	void accepted(String anyCase, long nowNanos) {
		// Origin hosts are lower case; so is almost every URI's, and then nothing is copied.
		String host = anyCase.toLowerCase(Locale.ROOT);
		Host counted = this.last;
		// Most callers call one host: its count is found without the map, whose nodes and keys
		// a real exchange has pushed out of the cache (measured: a microsecond a call over
		// loopback). Matched by hash alone: two hosts of one application that collide blur an
		// estimate, nothing more.
		if (counted == null || counted.hash != host.hashCode()) {
			counted = this.hosts.get(host);
			if (counted == null) {
				counted = added(host, nowNanos);
				if (counted == null) {
					return;
				}
			}
			this.last = counted;
		}
		counted.add(nowNanos);
	}

	// The new host's count, or null when the map is full of hosts that are not quiet.
	private @Nullable Host added(String host, long nowNanos) {
		if (this.hosts.size() >= this.maxHosts) {
			if (this.purged && nowNanos - this.lastPurge < AcceptedBuckets.BUCKET_NANOS) {
				return null;
			}
			this.purged = true;
			this.lastPurge = nowNanos;
			this.last = null;
			this.hosts.values().removeIf((quiet) -> quiet.quiet(nowNanos));
			if (this.hosts.size() >= this.maxHosts) {
				return null;
			}
		}
		return this.hosts.computeIfAbsent(host, (h) -> new Host(h.hashCode(), nowNanos));
	}

	/**
	 * The rate {@code host} accepted before a rejection at {@code nowNanos} that asked for
	 * {@code delayNanos}: 0.9 times the acceptances within the span before it (the delay, 1 s
	 * to 4 s), over the time from the oldest of them to the rejection plus the delay.
	 * @return requests per second, or {@code NaN} with fewer than two acceptances
	 */
	double seedRate(String host, long nowNanos, long delayNanos) {
		Host counted = this.hosts.get(host);
		if (counted == null) {
			return Double.NaN;
		}
		long span = Math.max(SHORTEST_SPAN_NANOS, Math.min(LONGEST_SPAN_NANOS, delayNanos));
		return counted.rate(nowNanos, span, delayNanos);
	}

	/**
	 * One host's ring, with its name's hash. Counted without a lock, on every call that
	 * settles at once: over loopback HTTP the lock cost 1.3 us of the calling thread's CPU a
	 * call (measured against the same count without it), and what a race loses (two threads
	 * counting into one cell at the same instant, or a cell cleared as a new bucket begins)
	 * only lowers an estimate a little.
	 */
	private static final class Host extends AcceptedBuckets {

		final int hash;

		Host(int hash, long nowNanos) {
			super(nowNanos);
			this.hash = hash;
		}

		boolean quiet(long nowNanos) {
			return nowNanos - latestNanos() > SPAN_NANOS;
		}

		double rate(long nowNanos, long spanNanos, long delayNanos) {
			long count = sum(nowNanos, spanNanos);
			if (count < FEWEST) {
				return Double.NaN;
			}
			long since = Math.max(0, nowNanos - oldest(nowNanos, spanNanos));
			// Both terms are at most a few seconds (the span, and a delay capped at the longest
			// cooldown), far from overflowing.
			return LearnedPacer.SAMPLE_SHARE * count * NANOS_PER_SECOND / (since + delayNanos);
		}

	}

}
