package dev.retryafter.core.protection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.retryafter.core.CooldownKey;

/**
 * Keeps the maps of a {@link OriginProtection} within {@code maxHosts}: ended entries are purged
 * from time to time, and when a map is still too large the cooldowns that end soonest are
 * forgotten first (they protect the least), and pacers without a cooldown before any other.
 * The bound is exact for one writer and may be exceeded by the number of threads recording
 * at the same moment.
 */
final class CooldownBound {

	// Expired entries are purged every this many records even while the map is small, so a
	// map that never reaches its bound does not keep dead entries for ever.
	private static final int PURGE_EVERY = 256;

	private final int maxHosts;

	private final ConcurrentHashMap<CooldownKey, CooldownHold> notBefore;

	private final ConcurrentHashMap<CooldownKey, LearnedPacer> pacers;

	private final AtomicInteger recordsSincePurge = new AtomicInteger();

	private final AtomicBoolean maintaining = new AtomicBoolean();

	CooldownBound(int maxHosts, ConcurrentHashMap<CooldownKey, CooldownHold> notBefore,
			ConcurrentHashMap<CooldownKey, LearnedPacer> pacers) {
		this.maxHosts = maxHosts;
		this.notBefore = notBefore;
		this.pacers = pacers;
	}

	/**
	 * Called after each record: maintains the maps when one is over the bound, or every
	 * {@value #PURGE_EVERY} records.
	 */
	void recorded(CooldownKey justRecorded, long nowNanos) {
		if (this.notBefore.size() > this.maxHosts || this.pacers.size() > this.maxHosts
				|| this.recordsSincePurge.incrementAndGet() >= PURGE_EVERY) {
			maintain(justRecorded, nowNanos);
		}
	}

	// One thread at a time; the others carry on (the bound is approximate under contention).
	private void maintain(CooldownKey justRecorded, long nowNanos) {
		if (!this.maintaining.compareAndSet(false, true)) {
			return;
		}
		try {
			this.recordsSincePurge.set(0);
			purgeExpired(nowNanos);
			int excess = this.notBefore.size() - this.maxHosts;
			if (excess > 0) {
				// Evicting a little below the bound spares a full scan on every following record.
				evictSoonestEnding(justRecorded, nowNanos, excess + this.maxHosts / 16);
			}
			// A pacer without a cooldown is the first to go: it only spaces requests out.
			int pacerExcess = this.pacers.size() - this.maxHosts;
			for (CooldownKey key : this.pacers.keySet()) {
				if (pacerExcess <= 0) {
					break;
				}
				if (!key.equals(justRecorded) && !this.notBefore.containsKey(key) && this.pacers.remove(key) != null) {
					pacerExcess--;
				}
			}
		}
		finally {
			this.maintaining.set(false);
		}
	}

	void purgeExpired(long nowNanos) {
		// A conditional remove per entry: a not-before renewed meanwhile is kept, and so is one
		// whose held requests are still leaving (its release window).
		this.notBefore.entrySet().removeIf((entry) -> entry.getValue().ended(nowNanos));
		this.pacers.entrySet()
			.removeIf((entry) -> !this.notBefore.containsKey(entry.getKey()) && entry.getValue().quiet(nowNanos));
	}

	private void evictSoonestEnding(CooldownKey justRecorded, long nowNanos, int count) {
		List<Map.Entry<CooldownKey, CooldownHold>> candidates = new ArrayList<>(this.notBefore.size());
		this.notBefore.forEach((key, hold) -> {
			if (!key.equals(justRecorded)) {
				candidates.add(Map.entry(key, hold));
			}
		});
		candidates.sort(
				Comparator.comparingLong((Map.Entry<CooldownKey, CooldownHold> entry) -> entry.getValue().until - nowNanos));
		for (int i = 0; i < count && i < candidates.size(); i++) {
			Map.Entry<CooldownKey, CooldownHold> entry = candidates.get(i);
			this.notBefore.remove(entry.getKey(), entry.getValue());
		}
	}

}
