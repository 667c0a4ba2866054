package dev.retryafter.store;

import java.util.List;

import dev.retryafter.core.CooldownKey;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Reads what the other instances wrote while this one was not listening (at start and after
 * every outage): the time left of the store's keys in Redis, at most {@code maxHosts} of them.
 */
final class CatchUp {

	private static final Log logger = LogFactory.getLog(RedisCooldownStore.class);

	private final RedisLink link;

	private final StoreKeys keys;

	private final ConnectionHealth health;

	CatchUp(RedisLink link, StoreKeys keys, ConnectionHealth health) {
		this.link = link;
		this.keys = keys;
		this.health = health;
	}

	/**
	 * Runs on the background thread.
	 * @return whether every key was read
	 */
	boolean run() {
		int limit = this.link.cooldowns().maxHosts();
		int[] learned = new int[1];
		try {
			this.keys.scan(this.keys.all(), limit, (batch) -> learned[0] += learn(batch));
		}
		catch (RuntimeException ex) {
			this.health.commandFailed("read-through", ex);
			return false;
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Read " + learned[0] + " shared cooldown(s) from Redis (at most " + limit + ")");
		}
		return true;
	}

	private int learn(List<String> batch) {
		List<?> left = this.keys.timesLeft(batch);
		int learned = 0;
		for (int i = 0; i < batch.size() && i < left.size(); i++) {
			CooldownKey key = this.keys.ownKey(batch.get(i));
			if (key != null && left.get(i) instanceof Long millis && millis > 0) {
				this.link.learn(key, millis);
				learned++;
			}
		}
		return learned;
	}

}
