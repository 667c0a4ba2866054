package dev.retryafter.call;

import java.net.URI;
import java.util.Locale;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownPartition;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.store.CooldownStore;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * A request's origin: as refusals and log lines name it, and as the cooldown key the request
 * honours and sets.
 */
final class RequestOrigins {

	private RequestOrigins() {
	}

	/**
	 * A request URI's origin as {@code scheme://host:port}, the port filled in from the
	 * scheme when the URI has none: the same text as {@link Origin#toString()}, so a refusal
	 * names an origin exactly as the cooldowns, the endpoint and the logs do. Never the path,
	 * query or user info.
	 */
	static String originText(URI uri) {
		String scheme = (uri.getScheme() != null) ? uri.getScheme() : "http";
		String host = (uri.getHost() != null) ? uri.getHost() : "";
		try {
			return Origin.of(scheme, host, Origin.effectivePort(scheme, uri.getPort())).toString();
		}
		catch (IllegalArgumentException ex) {
			// A URI no request could be sent to (no host, an unknown scheme without a port).
			return scheme.toLowerCase(Locale.ROOT) + "://" + host.toLowerCase(Locale.ROOT);
		}
	}

	/**
	 * The cooldown a request honours and sets: its origin, split by the client's partition
	 * headers and narrowed to its scope; {@code null} when the client's cooldown is off (or
	 * the URI has no usable origin).
	 * @param settings the client's settings
	 * @param uri the request URI
	 * @param headers the request headers, for the partition
	 * @param cooldowns the store, for the partition secret
	 * @return the key, or {@code null}
	 */
	static @Nullable CooldownKey cooldownKey(RetrySettings settings, URI uri, HttpHeaders headers,
			CooldownStore cooldowns) {
		if (!settings.cooldown().enabled() || uri.getScheme() == null || uri.getHost() == null) {
			return null;
		}
		Origin origin;
		try {
			origin = Origin.of(uri.getScheme(), uri.getHost(), uri.getPort());
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
		CooldownKey key = new CooldownKey(origin, CooldownPartition.of(origin, settings.cooldown().partitionHeaders(),
				headers::get, cooldowns.partitionSecret().partitionHash()));
		return key.withScope(scope(settings, uri.getRawPath(), key, cooldowns));
	}

	/**
	 * The part of its origin a request's cooldown covers: the longest configured
	 * {@code cooldown.scopes} prefix of its path, else the bucket the server named for its
	 * route, else its route (the first path segment), else none (the whole origin).
	 */
	private static @Nullable CooldownScope scope(RetrySettings settings, @Nullable String rawPath,
			CooldownKey key, CooldownStore buckets) {
		CooldownScope prefix = CooldownScope.prefix(settings.cooldown().scopes(), rawPath);
		if (prefix != null) {
			return prefix;
		}
		CooldownScope route = CooldownScope.route(rawPath);
		if (route == null) {
			return null;
		}
		CooldownScope bucket = buckets.bucketOf(key.withScope(route));
		return (bucket != null) ? bucket : route;
	}

}
