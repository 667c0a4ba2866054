/**
 * Where host cooldowns live: in this JVM only ({@link dev.retryafter.store.LocalCooldownStore})
 * or shared by a fleet through Redis ({@link dev.retryafter.store.RedisCooldownStore}).
 * Requests always decide from the local map; sharing happens in the background.
 */
@NullMarked
package dev.retryafter.store;

import org.jspecify.annotations.NullMarked;
