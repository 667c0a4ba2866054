package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.DurationMath;
import dev.retryafter.core.Jitter;
import dev.retryafter.core.RetrySettings;

/**
 * What {@link OriginProtection#admit} decides on: the request, where it stands in its budget,
 * and its client's cooldown settings.
 *
 * @param key the request's cooldown key
 * @param nowNanos the current monotonic reading
 * @param remainingBudget the request's remaining total budget (may be negative)
 * @param attemptReserve the time kept back for the attempt itself
 * @param mode what a held request does
 * @param jitter the jitter factor, between 0 and 1
 * @param random the random source for jitter
 * @param firstAttempt whether the request has not been sent yet
 * @param readsQuotas whether the client reads the quotas origins announce, so that a first
 * attempt takes a slot inside its key's quota (never in mode {@code fail-fast}, which asked
 * never to be held)
 * @since 0.1.0
 */
public record AdmissionRequest(CooldownKey key, long nowNanos, Duration remainingBudget, Duration attemptReserve,
		CooldownMode mode, double jitter, RandomGenerator random, boolean firstAttempt, boolean readsQuotas) {

	/**
	 * Checks the arguments.
	 * @throws IllegalArgumentException if {@code jitter} is not between 0 and 1
	 */
	public AdmissionRequest {
		Objects.requireNonNull(key, "key");
		Objects.requireNonNull(remainingBudget, "remainingBudget");
		Objects.requireNonNull(attemptReserve, "attemptReserve");
		Objects.requireNonNull(mode, "mode");
		Objects.requireNonNull(random, "random");
		Jitter.checkFactor(jitter);
	}

	/**
	 * A request of a client that does not read announced quotas.
	 * @param key the request's cooldown key
	 * @param nowNanos the current monotonic reading
	 * @param remainingBudget the request's remaining total budget (may be negative)
	 * @param attemptReserve the time kept back for the attempt itself
	 * @param mode what a held request does
	 * @param jitter the jitter factor, between 0 and 1
	 * @param random the random source for jitter
	 * @param firstAttempt whether the request has not been sent yet
	 */
	public AdmissionRequest(CooldownKey key, long nowNanos, Duration remainingBudget, Duration attemptReserve,
			CooldownMode mode, double jitter, RandomGenerator random, boolean firstAttempt) {
		this(key, nowNanos, remainingBudget, attemptReserve, mode, jitter, random, firstAttempt, false);
	}

	/**
	 * A request under {@code settings}' attempt reserve, cooldown mode and jitter.
	 * @param key the request's cooldown key
	 * @param nowNanos the current monotonic reading
	 * @param remainingBudget the request's remaining total budget (may be negative)
	 * @param settings the request's client settings
	 * @param random the random source for jitter
	 * @param firstAttempt whether the request has not been sent yet
	 * @return the request, reading quotas when the client's {@code rate-limit} and cooldown
	 * are on
	 */
	public static AdmissionRequest of(CooldownKey key, long nowNanos, Duration remainingBudget, RetrySettings settings,
			RandomGenerator random, boolean firstAttempt) {
		return new AdmissionRequest(key, nowNanos, remainingBudget, settings.attemptReserve(),
				settings.cooldown().mode(), settings.jitter(), random, firstAttempt,
				settings.rateLimit().active() && settings.cooldown().enabled());
	}

	/**
	 * The remaining budget in nanoseconds, clamped so that {@code budget - wait} stays a long.
	 * @return the budget, possibly negative
	 */
	long budgetNanos() {
		return DurationMath.saturatedNanos(this.remainingBudget, DurationMath.DURATION_LIMIT_NANOS);
	}

	/**
	 * The attempt reserve in nanoseconds, clamped alike and never negative.
	 * @return the reserve
	 */
	long reserveNanos() {
		return Math.max(0, DurationMath.saturatedNanos(this.attemptReserve, DurationMath.DURATION_LIMIT_NANOS));
	}

}
