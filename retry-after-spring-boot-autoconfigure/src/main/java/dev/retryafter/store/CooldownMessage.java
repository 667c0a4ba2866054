package dev.retryafter.store;

import java.util.Optional;

import dev.retryafter.core.CooldownKey;

/**
 * What one instance publishes when it stores a cooldown in Redis:
 * {@code <not-before epoch millis> <instance id> <cooldown key>}. Plain text, so it can be read
 * with {@code redis-cli SUBSCRIBE}.
 *
 * @param notBeforeMillis the not-before instant, epoch milliseconds
 * @param instance the id of the publishing store, so it can skip its own messages
 * @param key the cooldown key: an origin, with its partition digest if it has one
 */
record CooldownMessage(long notBeforeMillis, String instance, CooldownKey key) {

	String encode() {
		return this.notBeforeMillis + " " + this.instance + " " + this.key;
	}

	// Messages come from the network: anything malformed is ignored, never thrown.
	static Optional<CooldownMessage> decode(String text) {
		int first = text.indexOf(' ');
		int second = (first > 0) ? text.indexOf(' ', first + 1) : -1;
		// Up to 15 digits: far beyond any real epoch millis, and no overflow.
		if (second <= first + 1 || first > 15) {
			return Optional.empty();
		}
		long millis = 0;
		for (int i = 0; i < first; i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return Optional.empty();
			}
			millis = millis * 10 + (c - '0');
		}
		long notBeforeMillis = millis;
		String instance = text.substring(first + 1, second);
		return CooldownKey.parse(text.substring(second + 1))
			.map((key) -> new CooldownMessage(notBeforeMillis, instance, key));
	}

}
