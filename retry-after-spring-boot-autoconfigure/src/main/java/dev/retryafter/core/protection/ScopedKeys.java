package dev.retryafter.core.protection;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.HoldReason;

/**
 * Which key holds, and which key records, a request whose key is scoped (see
 * {@link CooldownScope}): a scoped key is held by its whole origin's (or partition's) rules
 * 1-3 first, then by its own, and a refusal widens to the whole origin while that cools down
 * or while a second guessed route is turned away. Unscoped keys pass through unchanged. Kept
 * apart from {@link OriginProtection} so that the door reads as its rules, and the key
 * choices sit in one place.
 */
final class ScopedKeys {

	private final HostCooldowns cooldowns;

	private final RouteProbes probes;

	ScopedKeys(HostCooldowns cooldowns, RouteProbes probes) {
		this.cooldowns = cooldowns;
		this.probes = probes;
	}

	/** Rules 1-3 under the whole origin's key first, for a scoped key, then under its own. */
	Admission heldByKey(AdmissionRequest request) {
		CooldownKey key = request.key();
		if (key.scope() == null) {
			return this.cooldowns.admit(request, key);
		}
		Admission whole = this.cooldowns.admit(request, key.unscoped());
		return (whole != Admission.PROCEED) ? whole : this.cooldowns.admit(request, key);
	}

	/**
	 * Rule 4, {@link HoldReason#PROBE}: a guessed route waits for another route's probe.
	 */
	Admission probe(AdmissionRequest request) {
		CooldownKey key = request.key();
		if (key.scope() == null || !key.scope().guessed()) {
			return Admission.PROCEED;
		}
		Admission.Wait probe = this.probes.admit(request);
		return (probe != null) ? probe : Admission.PROCEED;
	}

	/** See {@link OriginProtection#holder}. */
	CooldownKey holder(CooldownKey key, HoldReason reason, long nowNanos) {
		return switch (reason) {
			case PROBE -> key;
			case QUOTA -> key.declared();
			default -> (key.scope() != null && this.cooldowns.canHold(key.unscoped(), nowNanos)) ? key.unscoped()
					: key;
		};
	}

	/** See {@link OriginProtection#recordKey}. */
	CooldownKey recordKey(CooldownKey key, long nowNanos) {
		if (key.scope() == null) {
			return key;
		}
		if (this.cooldowns.cooling(key.unscoped(), nowNanos)) {
			return key.unscoped();
		}
		return this.probes.widened(key, nowNanos);
	}

}
