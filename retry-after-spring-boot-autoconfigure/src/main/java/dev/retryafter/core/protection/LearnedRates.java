package dev.retryafter.core.protection;

import java.util.Objects;
import java.util.function.ObjLongConsumer;
import java.util.function.Predicate;

import dev.retryafter.core.CooldownKey;

/**
 * The rates an {@link OriginProtection} learned from what origins accepted between two
 * rejections (rule 3), as a shared store reads them and spaces them for a fleet.
 * <p>
 * Why: each instance hears every rejection the fleet meets, so each learns the share of the
 * origin's rate that its own requests got. Spaced by that share alone, an instance's slots run
 * beside the others' with nothing to keep the fleet's in line; the store sums the shares into
 * the fleet's rate, gives slots from one schedule, and tells each instance what it answered.
 * Keys are those a learned-pace hold is reported under ({@link OriginProtection#holder}).
 *
 * @since 0.2.0
 */
public final class LearnedRates {

	private final HostCooldowns cooldowns;

	// Whether the origin announced a quota for a key, which then paces it instead.
	private final Predicate<CooldownKey> announced;

	LearnedRates(HostCooldowns cooldowns, Predicate<CooldownKey> announced) {
		this.cooldowns = cooldowns;
		this.announced = announced;
	}

	/**
	 * The rate this instance learned for {@code key}, in requests per second: its own share,
	 * whatever the fleet's schedule spaces its slots by.
	 * @param key the key
	 * @return the rate, or {@code NaN} before the first sample
	 */
	public double own(CooldownKey key) {
		return this.cooldowns.pacedRate(Objects.requireNonNull(key, "key"));
	}

	/**
	 * How many requests under {@code key} went without a slot of this instance's learned pace
	 * since the last call (retries, which the origin counts as any request): the fleet's
	 * schedule moves past as many slots. Resets the count.
	 * @param key the key
	 * @return the count
	 */
	public long takeSpent(CooldownKey key) {
		return this.cooldowns.takeSpent(Objects.requireNonNull(key, "key"));
	}

	/**
	 * Sets who is told, with the key and the monotonic reading, each time a rejection takes a
	 * new share of the fleet's rate ({@link #fleetShare}): a shared store tells the fleet at
	 * once, not only when a request next takes a slot. Called on the thread that records the
	 * rejection, so it must not block; replaces the one set before.
	 * @param listener the listener
	 */
	public void onSample(ObjLongConsumer<CooldownKey> listener) {
		this.cooldowns.onSample(Objects.requireNonNull(listener, "listener"));
	}

	/**
	 * This instance's share of the fleet's rate for {@code key}: 0.9 times what its requests
	 * got accepted, per second, over the two server delays before the last rejection that
	 * started a burst (a snapshot every instance takes at the same rejection, which all of
	 * them hear, so the shares add up to the fleet's rate).
	 * @param key the key
	 * @return the share in requests per second, or {@code NaN} before the first rejection
	 */
	public double fleetShare(CooldownKey key) {
		return this.cooldowns.fleetShare(Objects.requireNonNull(key, "key"));
	}

	/**
	 * Takes this instance's share of {@code key} again now, over the span that ends now, and
	 * dates it to the fleet's newest sample: a share an earlier rejection took is left out of
	 * the fleet's sum, and this instance hears only the rejections that moved the fleet's
	 * cooldown. Nothing before the first share.
	 * @param key the key
	 * @param nowNanos the current monotonic reading
	 * @param sampleNanos when the fleet's newest share was taken, on this instance's clock
	 * @return whether a share was taken
	 * @since 0.3.0
	 */
	public boolean joinShare(CooldownKey key, long nowNanos, long sampleNanos) {
		return this.cooldowns.joinShare(Objects.requireNonNull(key, "key"), nowNanos, sampleNanos);
	}

	/**
	 * How long ago the share of {@code key} was taken.
	 * @param key the key
	 * @param nowNanos the current monotonic reading
	 * @return nanoseconds, or {@code -1} without a share
	 */
	public long fleetShareAgoNanos(CooldownKey key, long nowNanos) {
		return this.cooldowns.fleetShareAgo(Objects.requireNonNull(key, "key"), nowNanos);
	}

	/**
	 * The server's delay last heard for {@code key}: shares taken within half of it of one
	 * another belong to one rejection.
	 * @param key the key
	 * @return nanoseconds, 0 when nothing was heard
	 */
	public long serverDelayNanos(CooldownKey key) {
		return this.cooldowns.serverDelay(Objects.requireNonNull(key, "key"));
	}

	/**
	 * Whether a learned rate may pace {@code request} under {@code key} at all: a first
	 * attempt in mode {@code wait}, whose origin announces no quota the client reads.
	 * @param request the request
	 * @param key the key
	 * @return whether a learned rate, this instance's or the fleet's, may hold it
	 */
	public boolean paces(AdmissionRequest request, CooldownKey key) {
		return KeyAdmission.paced(request, Objects.requireNonNull(key, "key"), this.announced);
	}

	/**
	 * Whether a first attempt that this instance's learned pace lets go at once still belongs
	 * to the fleet's queue of paced requests, as the fleet's schedule last answered: it then
	 * takes a slot of the fleet's. Never true without such an answer.
	 * @param request the request
	 * @param key the key
	 * @return whether the request takes a slot of the fleet's
	 */
	public boolean fleetQueueStands(AdmissionRequest request, CooldownKey key) {
		return KeyAdmission.paced(request, key, this.announced)
				&& this.cooldowns.fleetQueueStands(key, request.nowNanos());
	}

	/**
	 * What the fleet's schedule answered: until {@code untilNanos} the fleet's rate spaces this
	 * instance's slots under {@code key}, and requests arriving before {@code queueEndNanos}
	 * join the fleet's queue.
	 * @param key the key
	 * @param fleetRate the fleet's rate in requests per second, or {@code NaN} to go back to
	 * this instance's own
	 * @param untilNanos until when the fleet's rate holds (monotonic)
	 * @param queueEndNanos when the fleet's last slot given out leaves (monotonic)
	 */
	public void fleetPaced(CooldownKey key, double fleetRate, long untilNanos, long queueEndNanos) {
		this.cooldowns.fleetPaced(Objects.requireNonNull(key, "key"), fleetRate, untilNanos, queueEndNanos);
	}

}
