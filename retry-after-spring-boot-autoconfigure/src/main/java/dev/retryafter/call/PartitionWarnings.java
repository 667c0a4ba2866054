package dev.retryafter.call;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.RetrySettings;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The warnings about a cooldown key that could not be split as {@code partition-headers}
 * asks: once per client and origin, so that a key that silently became origin-wide is seen
 * without a line per request. They name the client, the origin and the header names, never
 * a header value.
 */
final class PartitionWarnings {

	private static final Log logger = LogFactory.getLog(PartitionWarnings.class);

	/**
	 * Most client and origin pairs remembered: a hostile or dynamic host set must not grow
	 * the set without bound. Past it, one last line says that further ones are not logged.
	 */
	static final int MAX_WARNED = 1024;

	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	/**
	 * Warns, once per client and origin, that a request as sent carried none of the
	 * partition headers, so that it shares the origin's own cooldown.
	 * @param client the client's name
	 * @param settings the client's settings
	 * @param key the key the request was given
	 */
	void noPartitionAsSent(String client, RetrySettings settings, CooldownKey key) {
		if (key.partition() == null && !settings.cooldown().partitionHeaders().isEmpty()
				&& first("absent " + client + " " + key.origin())) {
			logger.warn("Requests of client '" + client + "' to " + key.origin() + " are sent without any of "
					+ "retry-after.cooldown.partition-headers " + settings.cooldown().partitionHeaders()
					+ ": they share the origin's own cooldown, which holds back every request to it without"
					+ " those headers");
		}
	}

	/**
	 * Warns, once per client and origin, that the request as sent could not be seen (the
	 * client's request factory or connector was not built by Spring Boot), so its cooldown
	 * partition comes from the request before the application's own interceptors or filters
	 * ran, which may not carry the headers they add.
	 * @param client the client's name
	 * @param settings the client's settings
	 * @param origin the request's origin, as {@link RequestOrigins#originText} gives it
	 */
	void notSeenAsSent(String client, RetrySettings settings, String origin) {
		if (!settings.cooldown().partitionHeaders().isEmpty() && first("unseen " + client + " " + origin)) {
			logger.warn("Requests of client '" + client + "' to " + origin + " go through a request factory or"
					+ " connector that Spring Boot did not build: their cooldown partition is read from the"
					+ " request before the application's interceptors and filters add headers to it");
		}
	}

	private boolean first(String what) {
		if (this.warned.size() >= MAX_WARNED) {
			if (this.warned.add("")) {
				logger.warn("Further warnings about cooldown partitions are not logged");
			}
			return false;
		}
		return this.warned.add(what);
	}

}
