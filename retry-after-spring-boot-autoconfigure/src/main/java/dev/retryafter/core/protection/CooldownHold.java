package dev.retryafter.core.protection;

/**
 * An origin's not-before instant, the delay that set it (the width of the jitter window for
 * requests held by it), and when the requests it held leave. Compared by identity in
 * conditional removes, so a cooldown renewed meanwhile is never removed by mistake.
 */
final class CooldownHold {

	final long until;

	final long spread;

	// Set before the hold is published through the map: a renewal takes over the requests the
	// cooldown it replaces held, which are still to leave.
	Releases releases = new Releases();

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
	 * The merge of a held and a fresh cooldown: the later instant wins, and takes over the
	 * requests the one it replaces held.
	 */
	static CooldownHold later(CooldownHold held, CooldownHold fresh) {
		if (fresh.until - held.until > 0) {
			fresh.releases = held.releases;
			return fresh;
		}
		return held;
	}

}
