package dev.retryafter.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.retryafter.core.CooldownKey;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The keys of a {@link RedisCooldownStore} in Redis: {@code <prefix><cooldown key>}. Finds
 * them ({@code SCAN}, the one loop both the catch-up and ending cooldowns use), reads their
 * time left and deletes them, a batch at a time.
 */
final class StoreKeys {

	static final int BATCH = 100;

	private static final int SCAN_COUNT = 200;

	// The time left (ms) of each key, as measured by Redis: -2 gone, -1 no expiry.
	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> TIMES_LEFT = RedisScript.of("""
			local left = {}
			for i, key in ipairs(KEYS) do
			  left[i] = redis.call('PTTL', key)
			end
			return left
			""", List.class);

	private final StringRedisTemplate redis;

	private final String keyPrefix;

	StoreKeys(RedisLink link) {
		this.redis = link.redis();
		this.keyPrefix = link.keyPrefix();
	}

	/**
	 * The key of a cooldown.
	 */
	String key(CooldownKey key) {
		return this.keyPrefix + key;
	}

	/**
	 * The pattern that matches every key of this store.
	 */
	String all() {
		return escapeGlob(this.keyPrefix) + "*";
	}

	/**
	 * The pattern that matches every partition of an origin's key (not the origin's own key).
	 */
	String partitionsOf(String origin) {
		return escapeGlob(this.keyPrefix + origin) + "#*";
	}

	/**
	 * Hands over this store's keys that match {@code pattern}, at most {@code limit} of them,
	 * in batches of at most {@link #BATCH}, while scanning.
	 */
	void scan(String pattern, int limit, Consumer<List<String>> batches) {
		ScanOptions options = ScanOptions.scanOptions().match(pattern).count(SCAN_COUNT).build();
		List<String> keys = new ArrayList<>();
		int found = 0;
		try (Cursor<String> cursor = this.redis.scan(options)) {
			while (found < limit && cursor.hasNext()) {
				String key = cursor.next();
				// Under the bare default prefix, other applications' keys must be left alone.
				if (ownKey(key) == null) {
					continue;
				}
				keys.add(key);
				found++;
				if (keys.size() >= BATCH) {
					batches.accept(List.copyOf(keys));
					keys.clear();
				}
			}
		}
		if (!keys.isEmpty()) {
			batches.accept(keys);
		}
	}

	/**
	 * The time left of each key, in milliseconds, as Redis measures it (-2 gone, -1 no
	 * expiry); in the order of {@code keys}, possibly shorter.
	 */
	List<?> timesLeft(List<String> keys) {
		List<?> left = this.redis.execute(TIMES_LEFT, keys);
		return (left != null) ? left : List.of();
	}

	void delete(List<String> keys) {
		this.redis.delete(keys);
	}

	/**
	 * The cooldown key a Redis key stands for, or {@code null} for a key of something else.
	 */
	@Nullable CooldownKey ownKey(String key) {
		if (!key.startsWith(this.keyPrefix)) {
			return null;
		}
		return CooldownKey.parse(key.substring(this.keyPrefix.length())).orElse(null);
	}

	// SCAN MATCH is a glob: a prefix such as "app[1]:" must match literally.
	private static String escapeGlob(String text) {
		StringBuilder escaped = new StringBuilder(text.length() + 4);
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
				escaped.append('\\');
			}
			escaped.append(c);
		}
		return escaped.toString();
	}

}
