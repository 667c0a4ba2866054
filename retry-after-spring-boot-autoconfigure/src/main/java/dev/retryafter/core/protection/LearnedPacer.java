package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.random.RandomGenerator;

import dev.retryafter.core.HoldReason;
import org.jspecify.annotations.Nullable;

/**
 * The rate at which one cooldown key lets requests go once its origin has turned requests
 * away, learned from what the origin accepted between two rejections.
 * <p>
 * Why: with each request held at most once, a cooldown alone releases every request it held
 * within its jitter window. A rate-limited origin accepts a bucket's worth of them and turns
 * the rest away, and the requests that arrive meanwhile meet an empty bucket again, cycle
 * after cycle. The throughput the origin allowed between two rejections is its rate; spacing
 * the held requests at that rate keeps them under it.
 * <p>
 * How:
 * <ul>
 * <li>A sample window opens at a rejection. At a later rejection, if the window is at least
 * as long as the server's delay (a burst of rejections says nothing about the rate), the
 * requests accepted in it divided by its length, times 0.9, become the rate, and a new
 * window opens.</li>
 * <li>A window in which nothing was accepted for longer than two of the server's delays (a
 * cooldown and its release window take at most that) restarts at the next acceptance: a
 * stretch in which the origin turned everything away, or no request came, says nothing
 * about the rate it accepts once it accepts again, and would dilute the sample to almost
 * nothing.</li>
 * <li>With a rate, a first attempt is given the next free slot at or after the cooldown's instant,
 * slots {@code 1 / rate} apart, plus jitter uniform in {@code [0, jitter x 1 / rate]}. The
 * slot is its one hold: it is sent when the slot comes, unless a rejection started a new
 * cooldown of its key meanwhile (then it is admitted again, once: {@code CallCooldown}). After
 * the instant, slots are handed out only while a request held for its slot, or a retry that
 * spent one, is still to leave: once that queue is empty, requests go at once, as for any
 * origin whose cooldown has ended, until the next rejection.</li>
 * <li>The rate grows by a twentieth per second while a queue of slots
 * stands (additive increase), so a limit that was raised is found again; the next rejection
 * measures it anew. With no rejection for the quiet period, it doubles every server delay
 * ({@link RateGrowth}).</li>
 * <li>A slot that does not fit the request's budget is not taken: the request is admitted as
 * the cooldown alone would admit it. Pacing never refuses a request.</li>
 * </ul>
 * With a shared store, the fleet's slots ({@code FleetLearnedSlots}) space the fleet's
 * requests by the sum of the instances' shares ({@link #snapshotShare}): what each one's
 * requests got accepted over the same span, taken at the first rejection of a burst, which
 * every instance hears. That sum then spaces this instance's own slots too
 * ({@link #fleetPaced}), and the fleet's queue, as last seen, keeps its requests in line
 * until it has gone. A retry is not paced but spends a slot ({@link #spent}).
 * <p>
 * The first rejection may already give a rate: what the host accepted in the seconds before
 * it, over that time plus the delay asked ({@link RecentAcceptances}), when that was two
 * requests or more. It paces, and is this instance's first share, until the first sample
 * window closes. Until a rate is known the pacer changes nothing. It is forgotten once no
 * cooldown holds the key and neither a rejection nor a held request's slot has come for 10 s,
 * or for two of the server's delays if longer.
 * <p>
 * Times are monotonic nanosecond readings, compared only as differences. Thread-safe: every
 * method locks the pacer, which only requests to one cooling or paced key contend for.
 */
final class LearnedPacer {

	// How long a pacer outlives its last queued slot (or two of the server's delays, if
	// longer): long enough for the next wave of requests to show the origin's rate.
	private static final long QUIET_NANOS = 10_000_000_000L;

	// The rate is set a little below the throughput measured, so the origin's allowance
	// refills while the slots handed out before the rejection are still leaving (a first
	// rejection's rate too: RecentAcceptances).
	static final double SAMPLE_SHARE = 0.9;

	// Below one request per minute a slot would outlast any sensible budget; above a million
	// per second slots are closer than a request takes to build.
	private static final double MIN_RATE = 1.0 / 60;

	private static final double MAX_RATE = 1e6;

	private static final double NANOS_PER_SECOND = 1e9;

	private long windowStart;

	private long acceptedInWindow;

	private double rate = Double.NaN;

	private long nextSlot;

	// The last rejection or the end of the last slot handed to a waiting request: the pacer is
	// forgotten a quiet period after it.
	private long lastActive;

	// When the last request held for its slot leaves (its slot plus jitter): until then, the
	// queue stands and a request arriving after the cooldown's instant joins it.
	private long lastRelease;

	private long delayNanos;

	// Requests that spent a slot without being paced (retries), not yet told to the fleet.
	private long unshared;

	private long rejections = 1;

	// The last rejection: the rate grows faster once none has come for the quiet period.
	private long lastRejected;

	// The fleet's rate and until when it spaces this instance's slots; NaN when not shared.
	private double fleetRate = Double.NaN;

	private long fleetRateUntil;

	// A share is read over two server delays, but never less than a second.
	private static final long SHORTEST_SPAN_NANOS = 1_000_000_000L;

	// What this instance's requests got accepted lately: a fleet sums every instance's at one
	// rejection, which all of them hear.
	private final AcceptedBuckets accepted;

	// This instance's share of the fleet's rate as of its last snapshot, and when it was taken.
	private double fleetShare = Double.NaN;

	private long fleetShareAt;

	/**
	 * A pacer created at its key's first rejection.
	 * @param seedRate the rate its origin accepted before that rejection
	 * ({@link RecentAcceptances#seedRate}), which paces until a sample window closes and is
	 * this instance's first share of the fleet's rate; {@code NaN} when nothing is known
	 */
	LearnedPacer(long nowNanos, long delayNanos, double seedRate) {
		this.accepted = new AcceptedBuckets(nowNanos);
		this.windowStart = nowNanos;
		this.nextSlot = nowNanos;
		this.lastActive = nowNanos;
		this.lastRelease = nowNanos;
		this.lastRejected = nowNanos;
		this.delayNanos = delayNanos;
		if (!Double.isNaN(seedRate)) {
			this.rate = clamp(seedRate);
			this.fleetShare = this.rate;
			this.fleetShareAt = nowNanos;
		}
	}

	/**
	 * A rejection with a cooldown of {@code delayNanos}: closes the sample window when it is
	 * long enough.
	 */
	synchronized void rejected(long nowNanos, long delayNanos) {
		long elapsed = nowNanos - this.windowStart;
		if (elapsed >= Math.max(delayNanos, this.delayNanos) && this.acceptedInWindow > 0) {
			this.rate = clamp(SAMPLE_SHARE * this.acceptedInWindow * NANOS_PER_SECOND / elapsed);
			this.windowStart = nowNanos;
			this.acceptedInWindow = 0;
		}
		this.delayNanos = delayNanos;
		this.lastActive = nowNanos;
		this.lastRejected = nowNanos;
		this.rejections++;
	}

	/**
	 * Takes this instance's share of the fleet's rate at a rejection every instance hears:
	 * 0.9 x what its requests got accepted over the last two server delays (at least 1 s, at
	 * most 10 s, and never before the pacer was created), per second. Taken at most once per
	 * server delay, at the first rejection of a burst, so that every instance's share covers
	 * the same span; unlike the rate, it needs no sample window of its own, which each
	 * instance opens and closes at rejections of its own choosing.
	 * @return whether a new share was taken
	 */
	synchronized boolean snapshotShare(long nowNanos) {
		if (!Double.isNaN(this.fleetShare) && nowNanos - this.fleetShareAt < this.delayNanos) {
			return false;
		}
		return takeShare(nowNanos, nowNanos);
	}

	/** Takes the share again now, dated {@code sampleNanos} (see LearnedRates#joinShare). */
	synchronized boolean joinShare(long nowNanos, long sampleNanos) {
		return !Double.isNaN(this.fleetShare) && takeShare(nowNanos, sampleNanos);
	}

	private boolean takeShare(long nowNanos, long sampleNanos) {
		long span = Math.min(Math.max(2 * this.delayNanos, SHORTEST_SPAN_NANOS), AcceptedBuckets.SPAN_NANOS);
		span = Math.min(span, nowNanos - this.accepted.originNanos());
		long accepted = this.accepted.sum(nowNanos, span);
		if (accepted < 0) {
			return false;
		}
		this.fleetShare = (span > 0) ? SAMPLE_SHARE * accepted * NANOS_PER_SECOND / span : 0;
		this.fleetShareAt = sampleNanos;
		return true;
	}

	/**
	 * This instance's share of the fleet's rate as of its last snapshot, {@code NaN} before
	 * the first.
	 */
	synchronized double fleetShare() {
		return this.fleetShare;
	}

	/**
	 * How long ago the last share was taken, in nanoseconds.
	 */
	synchronized long fleetShareAgo(long nowNanos) {
		return nowNanos - this.fleetShareAt;
	}

	/**
	 * The server's delay the pacer last heard, in nanoseconds.
	 */
	synchronized long delayNanos() {
		return this.delayNanos;
	}

	/**
	 * How many rejections the pacer has seen, the one that created it included.
	 */
	synchronized long rejections() {
		return this.rejections;
	}

	/**
	 * A response the origin accepted (any status that does not start a cooldown).
	 */
	synchronized void accepted(long nowNanos) {
		this.accepted.add(nowNanos);
		// Delays are capped at the longest cooldown, far below where this could overflow.
		if (this.acceptedInWindow == 0 && nowNanos - this.windowStart > 2 * this.delayNanos) {
			this.windowStart = nowNanos;
		}
		this.acceptedInWindow++;
		if (!Double.isNaN(this.rate) && this.nextSlot - nowNanos > 0) {
			this.rate = clamp(this.rate + RateGrowth.perAccepted(nowNanos - this.lastRejected, quietNanos(), this.delayNanos));
		}
		// The fleet's sum grows as one instance's rate does: each share by as much per request
		// of its own accepted while the fleet's queue, as last answered, stands.
		if (this.fleetShare > 0 && this.lastRelease - nowNanos > 0) {
			this.fleetShare = clamp(this.fleetShare + RateGrowth.ADDITIVE);
		}
	}

	/**
	 * The request's slot, or {@code null} when pacing has no say: no rate learned yet, the
	 * cooldown's instant has passed and no request held for its slot is still to leave, or
	 * the slot does not fit the budget.
	 * @param nowNanos the current monotonic reading
	 * @param notBefore the cooldown's instant if one holds the key, else {@code nowNanos}
	 * @param budgetNanos the request's remaining budget
	 * @param reserveNanos the time kept back for the attempt
	 * @param jitter the jitter factor
	 * @param random the random source
	 * @return a {@link Admission.Wait}, or {@code null}
	 */
	synchronized Admission.@Nullable Wait admit(long nowNanos, long notBefore, long budgetNanos, long reserveNanos,
			double jitter, RandomGenerator random) {
		long wait = slotWait(nowNanos, notBefore);
		if (wait <= 0) {
			return null;
		}
		long interval = interval(nowNanos);
		long jittered = wait + (long) (jitter * interval * random.nextDouble());
		if (budgetNanos - jittered < reserveNanos) {
			return null;
		}
		long slot = nowNanos + wait;
		this.nextSlot = slot + interval;
		this.lastActive = slot;
		if (this.lastRelease - (nowNanos + jittered) < 0) {
			this.lastRelease = nowNanos + jittered;
		}
		return new Admission.Wait(Duration.ofNanos(jittered), HoldReason.PACING);
	}

	/**
	 * A request that was not paced (a retry) goes at {@code atNanos}: it takes the next slot
	 * from the first attempts, and the fleet hears of it with the next slot this instance
	 * takes ({@link #takeSpent}). The queue stands until that slot: a first attempt that
	 * comes after the instant waits behind the retries that spend the origin's allowance, as
	 * behind the requests held for their slots. Nothing without a rate.
	 */
	synchronized void spent(long atNanos, long nowNanos) {
		if (Double.isNaN(this.rate)) {
			return;
		}
		long base = (this.nextSlot - atNanos > 0) ? this.nextSlot : atNanos;
		this.nextSlot = base + interval(nowNanos);
		this.unshared++;
		if (this.lastRelease - base < 0) {
			this.lastRelease = base;
		}
	}

	/**
	 * How many requests spent a slot without being paced since the last call; they are then
	 * the fleet's to count.
	 */
	synchronized long takeSpent() {
		long spent = this.unshared;
		this.unshared = 0;
		return spent;
	}

	/**
	 * The wait (before jitter) for the slot a first attempt asking now would get, or
	 * {@code null} when pacing would not hold it; for the endpoint.
	 * @param nowNanos the current monotonic reading
	 * @param notBefore the cooldown's instant if one holds the key, else {@code nowNanos}
	 */
	synchronized @Nullable Duration nextSlot(long nowNanos, long notBefore) {
		long wait = slotWait(nowNanos, notBefore);
		return (wait > 0) ? Duration.ofNanos(wait) : null;
	}

	// Zero or less when pacing has no say: no rate, or past the cooldown's instant with no
	// request held for its slot still to leave (a cooldown that has ended holds nobody).
	private long slotWait(long nowNanos, long notBefore) {
		if (Double.isNaN(this.rate)) {
			return 0;
		}
		boolean cooling = notBefore - nowNanos > 0;
		if (!cooling && this.lastRelease - nowNanos <= 0) {
			return 0;
		}
		long slot = cooling ? notBefore : nowNanos;
		if (this.nextSlot - slot > 0) {
			slot = this.nextSlot;
		}
		return slot - nowNanos;
	}

	private long interval(long nowNanos) {
		return (long) (NANOS_PER_SECOND / spacingRate(nowNanos));
	}

	// The fleet's rate while its last answer holds, else this instance's.
	private double spacingRate(long nowNanos) {
		return (!Double.isNaN(this.fleetRate) && this.fleetRateUntil - nowNanos > 0) ? this.fleetRate : this.rate;
	}

	/**
	 * Whether the fleet's queue, as its last answer showed it, still stands: a request this
	 * instance's own slots would let go at once (or that it has no rate to pace) takes a slot
	 * of the fleet's.
	 */
	synchronized boolean fleetQueueStands(long nowNanos) {
		// With or without a rate of its own: an instance whose requests got no share of the
		// last sample still sends into the fleet's queue. And for one server delay past the
		// queue's end as last answered: the other instances' requests have moved it on since,
		// and asking costs a round trip, never a wait the fleet's queue does not hold.
		return !Double.isNaN(this.fleetRate) && this.fleetRateUntil - nowNanos > 0
				&& this.lastRelease + this.delayNanos - nowNanos > 0;
	}

	/**
	 * What the fleet's schedule answered a paced request: the fleet's rate spaces this
	 * instance's slots until {@code untilNanos}, and its queue stands until
	 * {@code queueEndNanos} (a request arriving before then joins it, though this instance's
	 * own slots ran out).
	 * @param fleetRate the fleet's rate in requests per second; {@code NaN} to go back to this
	 * instance's own
	 * @param untilNanos until when the fleet's rate holds
	 * @param queueEndNanos when the fleet's last slot given out leaves
	 */
	synchronized void fleetPaced(double fleetRate, long untilNanos, long queueEndNanos) {
		this.fleetRate = Double.isNaN(fleetRate) ? Double.NaN : clamp(fleetRate);
		this.fleetRateUntil = untilNanos;
		if (this.lastRelease - queueEndNanos < 0) {
			this.lastRelease = queueEndNanos;
		}
		if (this.lastActive - queueEndNanos < 0) {
			this.lastActive = queueEndNanos;
		}
	}

	/**
	 * Whether the pacer has had nothing to do for long enough to be forgotten (the caller
	 * checks that no cooldown holds the key).
	 */
	synchronized boolean quiet(long nowNanos) {
		return nowNanos - this.lastActive > quietNanos();
	}

	// Delays are capped at the longest cooldown, far below where this could overflow.
	private long quietNanos() {
		return Math.max(QUIET_NANOS, 2 * this.delayNanos);
	}

	/**
	 * The learned rate in requests per second, {@code NaN} before the first sample.
	 */
	synchronized double rate() {
		return this.rate;
	}

	private static double clamp(double rate) {
		return Math.max(MIN_RATE, Math.min(MAX_RATE, rate));
	}

}
