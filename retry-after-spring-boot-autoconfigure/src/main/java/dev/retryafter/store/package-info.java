/**
 * Where host cooldowns live: in this JVM only ({@link dev.retryafter.store.LocalCooldownStore})
 * or shared by a fleet through Redis ({@link dev.retryafter.store.RedisCooldownStore}).
 * Requests always decide from the local map; sharing happens in the background.
 * <p>
 * The Redis store is made of package-private parts with one job each: the write queue
 * ({@code WriteQueue}), the connection health with its heartbeat, watchdog and outages
 * ({@code ConnectionHealth}), the subscription ({@code CooldownSubscription}) and the
 * catch-up ({@code CatchUp}), over the store's keys in Redis ({@code StoreKeys}, the one key
 * scan, cluster-aware) and what they share ({@code RedisLink}).
 */
@NullMarked
package dev.retryafter.store;

import org.jspecify.annotations.NullMarked;
