package dev.retryafter.core.protection;

/**
 * How much a learned rate grows per accepted request while requests queue for its slots: a
 * twentieth of a request per second (acceptances come at the rate, so 5 % of the rate a
 * second), and once no rejection has come for the pacer's quiet period, as much as doubles
 * the rate every server delay.
 * <p>
 * Why the faster growth: a rate learned at a rejection that other clients' load caused, on an
 * origin that has room again, holds the queue at that rate, and no rejection comes to measure
 * it anew; at 5 % a second it takes tens of seconds to reach the origin's. An origin that has
 * turned nothing away for the quiet period (the one after which an idle pacer is forgotten)
 * has shown no limit near the rate. Overshooting it costs the requests that reach the origin
 * over its limit before the first rejection, whose cooldown holds the rest and which measures
 * the rate again (0-3 more {@code 429}s a run in the fleet benchmark).
 */
final class RateGrowth {

	/** Per accepted request until the quiet period has passed, in requests per second. */
	static final double ADDITIVE = 0.05;

	private static final double LN_2 = Math.log(2);

	private static final long SHORTEST_DELAY_NANOS = 1_000_000_000L;

	private static final double NANOS_PER_SECOND = 1e9;

	private RateGrowth() {
	}

	/**
	 * The growth one accepted request adds while requests queue.
	 * @param sinceRejectionNanos how long since the last rejection
	 * @param quietNanos the pacer's quiet period
	 * @param delayNanos the server's delay the pacer last heard (1 s counts for shorter ones)
	 * @return requests per second to add to the rate
	 */
	static double perAccepted(long sinceRejectionNanos, long quietNanos, long delayNanos) {
		if (sinceRejectionNanos <= quietNanos) {
			return ADDITIVE;
		}
		double delaySeconds = Math.max(delayNanos, SHORTEST_DELAY_NANOS) / NANOS_PER_SECOND;
		return Math.max(ADDITIVE, LN_2 / delaySeconds);
	}

}
