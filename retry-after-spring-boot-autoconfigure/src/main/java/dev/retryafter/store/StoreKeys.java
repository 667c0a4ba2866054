package dev.retryafter.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.retryafter.core.CooldownKey;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The keys of a {@link RedisCooldownStore} in Redis: {@code <prefix><cooldown key>}. Finds
 * them ({@code SCAN}, the one loop both the catch-up and ending cooldowns use), reads their
 * time left and deletes them, a batch at a time.
 * <p>
 * On a Redis Cluster the keys are spread over every slot, as the key format is public and
 * carries no hash tag: the scan runs on every master in turn, and the time left and deletes
 * are asked key by key, so no command names keys of two slots.
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

	private final RedisConnectionFactory connectionFactory;

	private final StringRedisTemplate redis;

	private final String keyPrefix;

	StoreKeys(RedisLink link) {
		this.connectionFactory = link.connectionFactory();
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
	 * The pattern that matches every scope of an origin's own key (a partition's scopes are
	 * among its {@link #partitionsOf partitions}).
	 */
	String scopesOf(String origin) {
		return escapeGlob(this.keyPrefix + origin) + "@*";
	}

	/**
	 * Hands over this store's keys that match {@code pattern}, at most {@code limit} of them,
	 * in batches of at most {@link #BATCH}, while scanning.
	 */
	void scan(String pattern, int limit, Consumer<List<String>> batches) {
		ScanOptions options = ScanOptions.scanOptions().match(pattern).count(SCAN_COUNT).build();
		Batches found = new Batches(limit, batches);
		withConnection((connection) -> {
			if (connection instanceof RedisClusterConnection cluster) {
				for (RedisClusterNode node : cluster.clusterGetNodes()) {
					if (node.isMaster() && !found.full()) {
						try (Cursor<byte[]> cursor = cluster.scan(node, options)) {
							found.drain(cursor);
						}
					}
				}
			}
			else {
				try (Cursor<byte[]> cursor = connection.keyCommands().scan(options)) {
					found.drain(cursor);
				}
			}
			return null;
		});
		found.flush();
	}

	/**
	 * The time left of each key, in milliseconds, as Redis measures it (-2 gone, -1 no
	 * expiry); in the order of {@code keys}, possibly shorter.
	 */
	List<?> timesLeft(List<String> keys) {
		List<?> left = withConnection((connection) -> {
			if (!(connection instanceof RedisClusterConnection)) {
				return null;
			}
			List<Long> times = new ArrayList<>(keys.size());
			for (String key : keys) {
				times.add(connection.keyCommands().pTtl(bytes(key)));
			}
			return times;
		});
		if (left == null) {
			left = this.redis.execute(TIMES_LEFT, keys);
		}
		return (left != null) ? left : List.of();
	}

	void delete(List<String> keys) {
		withConnection((connection) -> {
			if (connection instanceof RedisClusterConnection) {
				for (String key : keys) {
					connection.keyCommands().del(bytes(key));
				}
			}
			else {
				connection.keyCommands().del(keys.stream().map(StoreKeys::bytes).toArray(byte[][]::new));
			}
			return null;
		});
	}

	private <T> @Nullable T withConnection(Function<RedisConnection, @Nullable T> action) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			return action.apply(connection);
		}
	}

	private static byte[] bytes(String key) {
		return key.getBytes(StandardCharsets.UTF_8);
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

	// Collects the scanned keys of this store into batches, up to the limit.
	private final class Batches {

		private final int limit;

		private final Consumer<List<String>> batches;

		private final List<String> keys = new ArrayList<>();

		private int found;

		Batches(int limit, Consumer<List<String>> batches) {
			this.limit = limit;
			this.batches = batches;
		}

		boolean full() {
			return this.found >= this.limit;
		}

		void drain(Cursor<byte[]> cursor) {
			while (!full() && cursor.hasNext()) {
				String key = new String(cursor.next(), StandardCharsets.UTF_8);
				// Under the bare default prefix, other applications' keys must be left alone.
				if (ownKey(key) == null) {
					continue;
				}
				this.keys.add(key);
				this.found++;
				if (this.keys.size() >= BATCH) {
					flush();
				}
			}
		}

		void flush() {
			if (!this.keys.isEmpty()) {
				this.batches.accept(List.copyOf(this.keys));
				this.keys.clear();
			}
		}

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
