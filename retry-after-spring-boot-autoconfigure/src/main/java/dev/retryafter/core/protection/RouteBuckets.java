package dev.retryafter.core.protection;

import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownScope;
import org.jspecify.annotations.Nullable;

/**
 * Which routes of an origin the server said share a limit: learned from the bucket or
 * resource it names in {@code X-RateLimit-Bucket} or {@code X-RateLimit-Resource}, so that a
 * request to a route known to be in a bucket honours that bucket's cooldown (and quota)
 * before its own route has ever been refused.
 * <p>
 * Routes are first path segments ({@link CooldownScope#route}), not whole paths, so an
 * origin has few of them; the map is still bounded, at {@code maxEntries} routes over all
 * origins: when full, an arbitrary entry is forgotten for each new one (its route then
 * keeps its own cooldown until the server names its bucket again).
 *
 * @since 0.2.0
 */
public final class RouteBuckets {

	private final int maxEntries;

	private final ConcurrentHashMap<CooldownKey, CooldownScope> buckets = new ConcurrentHashMap<>();

	/**
	 * Creates an empty map.
	 * @param maxEntries how many routes to remember at most, at least 1
	 */
	public RouteBuckets(int maxEntries) {
		if (maxEntries < 1) {
			throw new IllegalArgumentException("maxEntries must be at least 1: " + maxEntries);
		}
		this.maxEntries = maxEntries;
	}

	/**
	 * Notes that the server named {@code bucket} for a request under {@code routeKey}.
	 * @param routeKey the request's key, scoped to its route
	 * @param bucket the bucket scope the server named
	 */
	public void learn(CooldownKey routeKey, CooldownScope bucket) {
		Objects.requireNonNull(bucket, "bucket");
		CooldownKey route = origin(routeKey);
		if (route == null || bucket.equals(this.buckets.get(route))) {
			return;
		}
		if (!this.buckets.containsKey(route) && this.buckets.size() >= this.maxEntries) {
			Iterator<CooldownKey> oldest = this.buckets.keySet().iterator();
			if (oldest.hasNext()) {
				this.buckets.remove(oldest.next());
			}
		}
		this.buckets.put(route, bucket);
	}

	/**
	 * The bucket the server named for a request's route.
	 * @param routeKey the request's key, scoped to its route
	 * @return the bucket scope, or {@code null} when none is known
	 */
	public @Nullable CooldownScope bucketOf(CooldownKey routeKey) {
		CooldownKey route = origin(routeKey);
		return (route != null && !this.buckets.isEmpty()) ? this.buckets.get(route) : null;
	}

	/**
	 * How many routes are remembered.
	 * @return the number of entries
	 */
	public int size() {
		return this.buckets.size();
	}

	// Buckets are the server's, so one map serves every partition of an origin.
	private static @Nullable CooldownKey origin(CooldownKey routeKey) {
		CooldownScope scope = routeKey.scope();
		return (scope != null && scope.kind() == CooldownScope.Kind.ROUTE)
				? new CooldownKey(routeKey.origin(), null, scope) : null;
	}

}
