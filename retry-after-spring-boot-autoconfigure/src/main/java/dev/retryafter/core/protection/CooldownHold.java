package dev.retryafter.core.protection;

import org.jspecify.annotations.Nullable;

/**
 * An origin's not-before instant, the delay that set it (the width of the jitter window for
 * requests held by it), and when the requests it held leave. Compared by identity in
 * conditional removes, so a cooldown renewed meanwhile is never removed by mistake.
 */
final class CooldownHold {

	final long until;

	final long spread;

	// Set before the hold is published through the map: a renewal takes over the requests the
	// cooldown it replaces held, which are still to leave, and so does a follow-up of the wave
	// they are.
	Releases releases = new Releases();

	// Set before the hold is published through the map, as releases: a follow-up cooldown
	// (see OriginProtection, rule 1) holds first attempts only, never a retry.
	boolean followUp;

	// Whether this cooldown held a request, itself or as the one it renewed before that one's
	// instant (a follow-up's wave is its own): only then does it release a wave. Shared with
	// the renewal, as releases are, rather than copied into it: a request that read this hold
	// just before a renewal replaced it still counts for the renewal's wave.
	private Wave wave = new Wave();

	CooldownHold(long until, long spread) {
		this.until = until;
		this.spread = spread;
	}

	/**
	 * Whether the instant has passed and no request held by this cooldown is still to leave:
	 * then nothing about it can hold a request any more.
	 */
	boolean ended(long nowNanos) {
		return this.until - nowNanos <= 0 && this.releases.leaving(nowNanos) == 0;
	}

	/**
	 * Whether this hold may hold {@code request}: a follow-up cooldown holds first attempts
	 * only.
	 */
	boolean holds(AdmissionRequest request) {
		return request.firstAttempt() || !this.followUp;
	}

	/**
	 * Counts a request this cooldown held, which leaves at {@code releaseNanos}.
	 */
	void release(long releaseNanos) {
		this.wave.heldAny = true;
		this.releases.add(releaseNanos);
	}

	/**
	 * Whether the wave this cooldown released is still answered at {@code nowNanos}: its
	 * instant has passed, and either it held a request and one server delay after the instant
	 * has not passed (the requests it held leave within its jitter window, a share of that
	 * delay, and are answered soon after), or a request it (or a cooldown it took over from)
	 * held was sent less than one server delay ago, however late a busy machine let it go.
	 */
	boolean waveAnswered(long nowNanos) {
		return this.until - nowNanos <= 0 && ((this.wave.heldAny && this.until + this.spread - nowNanos > 0)
				|| this.releases.leftWithin(this.spread, nowNanos));
	}

	/**
	 * The merge of a kept and a fresh cooldown: the later instant wins, and takes over the
	 * requests the one it replaces held. A fresh cooldown recorded while the wave of the kept
	 * one (or, with none kept, of the last one) is answered is a follow-up, which holds first
	 * attempts only; a follow-up renewed before its instant stays one, and so does a renewal
	 * after a request the kept one (or one it renewed) held has been sent since it was kept.
	 * @param kept the hold kept for the key, or {@code null}
	 * @param fresh the hold just recorded, not yet published
	 * @param nowNanos the current monotonic reading
	 * @param last the last hold kept for the key, or {@code null}; read when none is kept
	 * @return the hold to keep: {@code fresh} when it won
	 */
	static CooldownHold merge(@Nullable CooldownHold kept, CooldownHold fresh, long nowNanos,
			@Nullable CooldownHold last) {
		if (kept == null) {
			fresh.followUp = last != null && last.waveAnswered(nowNanos);
			if (fresh.followUp) {
				// The wave's requests still being sent are this follow-up's to hear of.
				fresh.releases = last.releases;
			}
			return fresh;
		}
		if (fresh.until - kept.until > 0) {
			fresh.releases = kept.releases;
			if (kept.until - nowNanos > 0) {
				// Renewed before its instant: the requests the kept one held are this one's wave.
				// One of them released already (at the earlier instant of a cooldown the kept
				// one renewed) has begun that wave, and a rejection now may be its answer.
				fresh.followUp = kept.followUp || kept.releases.leftSince(kept.until - kept.spread);
				fresh.wave = kept.wave;
			}
			else {
				fresh.followUp = kept.waveAnswered(nowNanos);
			}
			return fresh;
		}
		return kept;
	}

	/** Whether the requests of one wave include a held one. */
	private static final class Wave {

		volatile boolean heldAny;

	}

}
