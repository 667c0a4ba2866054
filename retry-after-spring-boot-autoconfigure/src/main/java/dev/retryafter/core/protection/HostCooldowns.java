package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ObjLongConsumer;
import java.util.function.Predicate;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import org.jspecify.annotations.Nullable;

/**
 * The map of host cooldowns and the pacers learned beside them: each {@link CooldownKey}'s
 * "not before" instant on the monotonic clock, and the rate its origin accepted between two
 * of its rejections. {@link OriginProtection} is the door; this holds its two maps, their
 * bound and the admission of one key (cooldown, release window, learned pace).
 * <p>
 * Thread-safe without a global lock: a read is one lock-free map read, a record updates a
 * single entry atomically. Views read and purge nothing; expired entries go when a record
 * passes the bound's maintenance, when an admission finds its key's cooldown over, or through
 * {@link #purgeExpired}.
 */
final class HostCooldowns {

	private final ConcurrentHashMap<CooldownKey, CooldownHold> notBefore = new ConcurrentHashMap<>();

	private final ConcurrentHashMap<CooldownKey, LearnedPacer> pacers = new ConcurrentHashMap<>();

	// Per key, the last cooldown kept, whose wave a rejection may answer after the cooldown
	// itself was forgotten (see CooldownHold#merge, and rule 1's follow-up). Bounded as the
	// cooldowns are.
	private final ConcurrentHashMap<CooldownKey, CooldownHold> waveEnds = new ConcurrentHashMap<>();

	private final int maxHosts;

	private final CooldownBound bound;

	private final KeyAdmission admission;

	// What each host accepted while none of its keys was paced: a pacer's first rate.
	private final RecentAcceptances recent;

	// Told when a rejection takes a new share of the fleet's rate; a shared store sends it.
	private volatile ObjLongConsumer<CooldownKey> sampled = (key, nowNanos) -> {
	};

	/**
	 * @param announced whether an origin announced a quota for a key, which then paces its
	 * first attempts instead of a learned rate
	 */
	HostCooldowns(int maxHosts, Predicate<CooldownKey> announced) {
		this.maxHosts = maxHosts;
		this.bound = new CooldownBound(maxHosts, this.notBefore, this.pacers);
		this.admission = new KeyAdmission(this.notBefore, this.pacers, announced);
		this.recent = new RecentAcceptances(maxHosts);
	}

	/**
	 * Keeps the later of {@code candidate} and the hold already kept for {@code key}, a
	 * follow-up when it answers the wave of a cooldown whose instant has passed (see
	 * {@link CooldownHold#merge}), and tells the key's pacer of the rejection.
	 * @return the hold kept now: {@code candidate} when it won
	 */
	CooldownHold hold(CooldownKey key, CooldownHold candidate, long nowNanos) {
		CooldownHold last = this.waveEnds.get(key);
		CooldownHold held = this.notBefore.compute(key,
				(k, kept) -> CooldownHold.merge(kept, candidate, nowNanos, last));
		if (held == candidate) {
			this.waveEnds.put(key, held);
			if (this.waveEnds.size() > this.maxHosts) {
				purgeWaves(nowNanos);
			}
		}
		LearnedPacer pacer = this.pacers.get(key);
		if (pacer == null) {
			double seed = this.recent.seedRate(key.origin().host(), nowNanos, candidate.spread);
			LearnedPacer created = new LearnedPacer(nowNanos, candidate.spread, seed);
			pacer = this.pacers.putIfAbsent(key, created);
			if (pacer == null && (!Double.isNaN(seed) || created.snapshotShare(nowNanos))) {
				this.sampled.accept(key, nowNanos);
			}
		}
		if (pacer != null) {
			pacer.rejected(nowNanos, candidate.spread);
			if (pacer.snapshotShare(nowNanos)) {
				this.sampled.accept(key, nowNanos);
			}
		}
		this.bound.recorded(key, nowNanos);
		return held;
	}

	/**
	 * The retry of a request refused under {@code key} is planned for {@code releaseNanos}:
	 * the key's cooldown counts it among the requests still to leave, so a first attempt that
	 * arrives after the instant queues behind it (rule 2) instead of spending the allowance
	 * the retry waited for. A retry planned more than one server delay past the instant (a
	 * backoff of the planner's own) is not counted: it would hold first attempts far longer
	 * than any request the cooldown held.
	 */
	void retryPlanned(CooldownKey key, long releaseNanos, long nowNanos) {
		CooldownHold hold = this.notBefore.get(key);
		if (hold != null && releaseNanos - nowNanos > 0 && releaseNanos - (hold.until + hold.spread) <= 0) {
			hold.releases.add(releaseNanos);
		}
	}

	/**
	 * A request the cooldown of {@code key} held has been sent now: the cooldown kept, or
	 * with none kept (its release window over on the planned instants), the last one.
	 */
	void left(CooldownKey key, long nowNanos) {
		CooldownHold hold = this.notBefore.get(key);
		if (hold == null) {
			hold = this.waveEnds.get(key);
		}
		if (hold != null) {
			hold.releases.left(nowNanos);
		}
	}

	/**
	 * {@code key}'s share of the fleet's rate as of its last snapshot, or {@code NaN}.
	 */
	double fleetShare(CooldownKey key) {
		LearnedPacer pacer = this.pacers.get(key);
		return (pacer != null) ? pacer.fleetShare() : Double.NaN;
	}

	/**
	 * Takes {@code key}'s share again now, dated {@code sampleNanos} (see
	 * {@link LearnedPacer#joinShare}).
	 * @return whether a share was taken
	 */
	boolean joinShare(CooldownKey key, long nowNanos, long sampleNanos) {
		LearnedPacer pacer = this.pacers.get(key);
		return pacer != null && pacer.joinShare(nowNanos, sampleNanos);
	}

	/**
	 * How long ago {@code key}'s share was taken, in nanoseconds, or {@code -1} without one.
	 */
	long fleetShareAgo(CooldownKey key, long nowNanos) {
		LearnedPacer pacer = this.pacers.get(key);
		if (pacer == null || Double.isNaN(pacer.fleetShare())) {
			return -1;
		}
		return Math.max(0, pacer.fleetShareAgo(nowNanos));
	}

	/** The server delay {@code key}'s pacer last heard, or 0 without a pacer. */
	long serverDelay(CooldownKey key) {
		LearnedPacer pacer = this.pacers.get(key);
		return (pacer != null) ? pacer.delayNanos() : 0;
	}

	/** How many of {@code key}'s requests spent a slot unpaced since the last call. */
	long takeSpent(CooldownKey key) {
		LearnedPacer pacer = this.pacers.get(key);
		return (pacer != null) ? pacer.takeSpent() : 0;
	}

	/** Who is told when a rejection closes a key's sample and sets its rate. */
	void onSample(ObjLongConsumer<CooldownKey> listener) {
		this.sampled = listener;
	}

	/**
	 * Tells {@code key}'s pacer, if it has one, that the origin accepted a request.
	 * @return whether it had one
	 */
	boolean accepted(CooldownKey key, long nowNanos) {
		LearnedPacer pacer = this.pacers.get(key);
		if (pacer != null) {
			pacer.accepted(nowNanos);
		}
		return pacer != null;
	}

	/** Counts an acceptance from {@code host} that no pacer took, for a first rejection's rate. */
	void acceptedUnpaced(String host, long nowNanos) {
		this.recent.accepted(host, nowNanos);
	}

	/** The cooldown, release window and learned pace of one key. */
	Admission admit(AdmissionRequest request, CooldownKey key) {
		return this.admission.admit(request, key);
	}

	/** Whether {@code key}'s not-before instant is still ahead. */
	boolean cooling(CooldownKey key, long nowNanos) {
		CooldownHold whole = this.notBefore.get(key);
		return whole != null && whole.until - nowNanos > 0;
	}

	/** Whether {@code key} can hold a request: a cooldown not yet ended, or a learned rate. */
	boolean canHold(CooldownKey key, long nowNanos) {
		CooldownHold hold = this.notBefore.get(key);
		LearnedPacer pacer = this.pacers.get(key);
		return (hold != null && !hold.ended(nowNanos)) || (pacer != null && !Double.isNaN(pacer.rate()));
	}

	/** Whether {@code key}'s pacer spaces requests by the fleet's queue, which still stands. */
	boolean fleetQueueStands(CooldownKey key, long nowNanos) {
		LearnedPacer pacer = this.pacers.get(key);
		return pacer != null && pacer.fleetQueueStands(nowNanos);
	}

	/** Tells {@code key}'s pacer, if it has one, what the fleet's schedule answered. */
	void fleetPaced(CooldownKey key, double fleetRate, long untilNanos, long queueEndNanos) {
		LearnedPacer pacer = this.pacers.get(key);
		if (pacer != null) {
			pacer.fleetPaced(fleetRate, untilNanos, queueEndNanos);
		}
	}

	/** The rate learned for {@code key}, or {@code NaN}. */
	double pacedRate(CooldownKey key) {
		LearnedPacer pacer = this.pacers.get(key);
		return (pacer != null) ? pacer.rate() : Double.NaN;
	}

	List<KeyProtection> protection(long nowNanos) {
		return CooldownViews.protection(this.notBefore, this.pacers, nowNanos);
	}

	/** The time left until {@code key}'s instant, zero or negative when it has passed. */
	long remainingNanos(CooldownKey key, long nowNanos) {
		CooldownHold hold = this.notBefore.get(key);
		return (hold != null) ? hold.until - nowNanos : 0;
	}

	int activeCount(long nowNanos) {
		return CooldownViews.activeCount(this.notBefore, nowNanos);
	}

	Map<CooldownKey, Duration> snapshot(long nowNanos) {
		return CooldownViews.snapshot(this.notBefore, nowNanos);
	}

	void purgeExpired(long nowNanos) {
		this.bound.purgeExpired(nowNanos);
		purgeWaves(nowNanos);
	}

	// Ended waves go first; past the bound, the waves of keys with no cooldown kept.
	private void purgeWaves(long nowNanos) {
		this.waveEnds.values().removeIf((hold) -> hold.until + hold.spread - nowNanos <= 0);
		if (this.waveEnds.size() > this.maxHosts) {
			this.waveEnds.keySet().removeIf((key) -> !this.notBefore.containsKey(key));
		}
	}

	/** Ends the cooldowns and pacers of {@code origin}, or of every origin. */
	List<CooldownKey> endAll(@Nullable Origin origin) {
		List<CooldownKey> ended = new ArrayList<>();
		for (CooldownKey key : this.notBefore.keySet()) {
			if ((origin == null || key.origin().equals(origin)) && this.notBefore.remove(key) != null) {
				ended.add(key);
			}
		}
		this.pacers.keySet().removeIf((key) -> origin == null || key.origin().equals(origin));
		this.waveEnds.keySet().removeIf((key) -> origin == null || key.origin().equals(origin));
		return ended;
	}

	boolean end(CooldownKey key) {
		this.pacers.remove(key);
		this.waveEnds.remove(key);
		return this.notBefore.remove(key) != null;
	}

	/** Whether a cooldown or a pacer is kept, expired ones included. */
	boolean holdsAny() {
		return !this.notBefore.isEmpty() || !this.pacers.isEmpty();
	}

	int size() {
		return this.notBefore.size();
	}

	int pacedKeys() {
		return this.pacers.size();
	}

}
