package dev.retryafter.store;

import java.util.ArrayList;
import java.util.List;

import dev.retryafter.core.CooldownKey;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Reads what the other instances wrote while this one was not listening (at start and after
 * every outage): the time left of the store's keys in Redis, at most {@code maxHosts} of them;
 * deletes those of them that never expire.
 */
final class CatchUp {

	private static final Log logger = LogFactory.getLog(RedisCooldownStore.class);

	// What PTTL answers for a key without an expiry.
	private static final long NO_EXPIRY = -1;

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
		int limit = this.link.protection().maxHosts();
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

	// A key that expires further away than maxDuration is learned as maxDuration (learn caps
	// it); one that never expires was not written by a store (keys are not signed) and is
	// deleted, so a planted key is gone by the next catch-up of any instance.
	private int learn(List<String> batch) {
		List<?> left = this.keys.timesLeft(batch);
		int learned = 0;
		List<String> untimed = new ArrayList<>();
		for (int i = 0; i < batch.size() && i < left.size(); i++) {
			CooldownKey key = this.keys.ownKey(batch.get(i));
			if (key != null && left.get(i) instanceof Long millis) {
				if (millis > 0) {
					this.link.learn(key, millis);
					learned++;
				}
				else if (millis == NO_EXPIRY) {
					untimed.add(batch.get(i));
				}
			}
		}
		if (!untimed.isEmpty()) {
			this.keys.delete(untimed);
		}
		return learned;
	}

}
