package dev.retryafter.core.protection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.retryafter.core.CooldownKey;

/**
 * The read-only views of a {@link OriginProtection}' maps, for the endpoint and the gauges:
 * built off the request path, ordered by key text.
 */
final class CooldownViews {

	private CooldownViews() {
	}

	static List<KeyProtection> protection(Map<CooldownKey, CooldownHold> holds,
			Map<CooldownKey, LearnedPacer> pacers, long nowNanos) {
		Set<CooldownKey> keys = new HashSet<>(holds.keySet());
		keys.addAll(pacers.keySet());
		List<KeyProtection> views = new ArrayList<>(keys.size());
		for (CooldownKey key : keys) {
			CooldownHold hold = holds.get(key);
			if (hold != null && hold.ended(nowNanos)) {
				// Ended but not yet purged: a view shows what can still hold, and purges nothing.
				hold = null;
			}
			LearnedPacer pacer = pacers.get(key);
			double rate = (pacer != null) ? pacer.rate() : Double.NaN;
			if (hold == null && Double.isNaN(rate)) {
				continue;
			}
			Duration instant = null;
			Duration releaseWindow = null;
			int leaving = 0;
			long notBefore = nowNanos;
			if (hold != null) {
				instant = Duration.ofNanos(hold.until - nowNanos);
				leaving = hold.releases.leaving(nowNanos);
				long untilLast = hold.releases.untilLast(nowNanos);
				releaseWindow = (untilLast > 0) ? Duration.ofNanos(untilLast) : null;
				notBefore = (hold.until - nowNanos > 0) ? hold.until : nowNanos;
			}
			Duration nextSlot = (pacer != null) ? pacer.nextSlot(nowNanos, notBefore) : null;
			views.add(new KeyProtection(key, instant, releaseWindow, leaving, rate, nextSlot));
		}
		views.sort(Comparator.comparing((KeyProtection view) -> view.key().toString()));
		return Collections.unmodifiableList(views);
	}

	static int activeCount(Map<CooldownKey, CooldownHold> notBefore, long nowNanos) {
		int count = 0;
		for (CooldownHold hold : notBefore.values()) {
			if (hold.until - nowNanos > 0) {
				count++;
			}
		}
		return count;
	}

	static Map<CooldownKey, Duration> snapshot(Map<CooldownKey, CooldownHold> notBefore, long nowNanos) {
		List<Map.Entry<CooldownKey, Long>> active = new ArrayList<>();
		notBefore.forEach((key, hold) -> {
			if (hold.until - nowNanos > 0) {
				active.add(Map.entry(key, hold.until));
			}
		});
		active.sort(Comparator.comparing((Map.Entry<CooldownKey, Long> entry) -> entry.getKey().toString()));
		Map<CooldownKey, Duration> snapshot = new LinkedHashMap<>();
		for (Map.Entry<CooldownKey, Long> entry : active) {
			snapshot.put(entry.getKey(), Duration.ofNanos(entry.getValue() - nowNanos));
		}
		return Collections.unmodifiableMap(snapshot);
	}

}
