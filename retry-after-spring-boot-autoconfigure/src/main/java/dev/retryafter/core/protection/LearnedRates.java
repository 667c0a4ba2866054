package dev.retryafter.core.protection;

import java.util.Objects;
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
