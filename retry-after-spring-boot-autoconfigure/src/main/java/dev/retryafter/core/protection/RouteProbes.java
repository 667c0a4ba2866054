package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import org.jspecify.annotations.Nullable;

/**
 * What a guessed route's cooldown means for the other routes of its origin (or partition).
 * A {@code 429} on one route says that route is limited; whether the server limits the whole
 * origin is not known until another route is tried. So, while a route cools down:
 * <ol>
 * <li>the first first attempt to another route goes out at once: the <em>probe</em>;</li>
 * <li>first attempts to other routes that come while the probe is out wait for its answer
 * (reason {@code probe}), at most the attempt reserve after the probe left, and only when
 * that fits their budget; then they are admitted again, once;</li>
 * <li>a probe that is accepted shows the server limits per route: the other routes go freely
 * for the rest of the cooldown;</li>
 * <li>a {@code 429} on a second route while the first still cools down widens the cooldown
 * to the whole origin ({@link #widened}).</li>
 * </ol>
 * No request is refused here, so the probe never costs a call; an origin that limits as a
 * whole still gets one extra request, not a herd. Entries live as long as their route's
 * cooldown and are bounded by the cooldown map's size.
 */
final class RouteProbes {

	private static final long NO_PROBE = Long.MIN_VALUE;

	private final int maxEntries;

	private final ConcurrentHashMap<CooldownKey, Family> families = new ConcurrentHashMap<>();

	RouteProbes(int maxEntries) {
		this.maxEntries = maxEntries;
	}

	/**
	 * Notes that a cooldown was recorded under {@code key} until {@code until}. Only a
	 * guessed route's counts: it is what other routes probe around.
	 */
	void cooled(CooldownKey key, long nowNanos, long until) {
		CooldownScope scope = key.scope();
		if (scope == null || !scope.guessed()) {
			return;
		}
		CooldownKey family = key.unscoped();
		if (!this.families.containsKey(family) && this.families.size() >= this.maxEntries) {
			this.families.values().removeIf((entry) -> entry.until - nowNanos <= 0);
			if (this.families.size() >= this.maxEntries) {
				// Without an entry the other routes simply go: the safe side of a full map.
				return;
			}
		}
		this.families.compute(family, (k, held) -> (held == null || held.until - nowNanos <= 0)
				? new Family(scope, until) : held.later(until));
	}

	/**
	 * The key a refusal under {@code key} is recorded under: the whole origin's when a
	 * different guessed route of it is cooling down (the server is limiting more than one
	 * route), else {@code key} itself.
	 */
	CooldownKey widened(CooldownKey key, long nowNanos) {
		CooldownScope scope = key.scope();
		if (scope == null || !scope.guessed()) {
			return key;
		}
		Family family = this.families.get(key.unscoped());
		if (family != null && family.until - nowNanos > 0 && !family.route.equals(scope)) {
			return key.unscoped();
		}
		return key;
	}

	/**
	 * Rules 1 and 2 for a first attempt under a guessed route that nothing else holds.
	 * @return a wait for the probe's answer, or {@code null} to send now
	 */
	Admission.@Nullable Wait admit(AdmissionRequest request) {
		CooldownKey key = request.key();
		Family family = this.families.get(key.unscoped());
		long nowNanos = request.nowNanos();
		if (family == null || family.proven || family.route.equals(key.scope()) || !request.firstAttempt()) {
			return null;
		}
		if (family.until - nowNanos <= 0) {
			this.families.remove(key.unscoped(), family);
			return null;
		}
		long lease = request.reserveNanos();
		long started = family.probe.get();
		if (started == NO_PROBE || nowNanos - started >= lease) {
			// The first to take the probe sends it; a lost race waits like any other.
			if (family.probe.compareAndSet(started, nowNanos)) {
				return null;
			}
			started = family.probe.get();
			if (started == NO_PROBE) {
				// Answered meanwhile: nothing to wait for.
				return null;
			}
		}
		long wait = started + lease - nowNanos;
		if (wait <= 0 || request.budgetNanos() - wait < request.reserveNanos()) {
			return null;
		}
		return new Admission.Wait(Duration.ofNanos(wait), HoldReason.PROBE);
	}

	/**
	 * Rule 3: the origin accepted a request under {@code key}; if that was another route than
	 * the cooling one, the server limits per route.
	 */
	void accepted(CooldownKey key) {
		CooldownScope scope = key.scope();
		if (scope == null || !scope.guessed()) {
			return;
		}
		Family family = this.families.get(key.unscoped());
		if (family != null && !family.route.equals(scope)) {
			family.proven = true;
			family.probe.set(NO_PROBE);
		}
	}

	/** Forgets every origin's entries, or one origin's (every partition of it). */
	void forget(@Nullable Origin origin) {
		this.families.keySet().removeIf((key) -> origin == null || key.origin().equals(origin));
	}

	int size() {
		return this.families.size();
	}

	// One origin's (or partition's) cooling route and its probe.
	private static final class Family {

		final CooldownScope route;

		final long until;

		final AtomicLong probe;

		volatile boolean proven;

		Family(CooldownScope route, long until) {
			this(route, until, new AtomicLong(NO_PROBE), false);
		}

		private Family(CooldownScope route, long until, AtomicLong probe, boolean proven) {
			this.route = route;
			this.until = until;
			this.probe = probe;
			this.proven = proven;
		}

		Family later(long until) {
			return (until - this.until > 0) ? new Family(this.route, until, this.probe, this.proven) : this;
		}

	}

}
