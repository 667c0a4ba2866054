/**
 * Auto-configuration of the Redis cooldown store ({@code retry-after.store=redis}): the
 * {@code RedisCooldownStore} on the application's own {@code RedisConnectionFactory}, which
 * every instance shares its host cooldowns through, and TCP keepalive for Boot's Lettuce
 * client.
 */
@NullMarked
package dev.retryafter.autoconfigure.redis;

import org.jspecify.annotations.NullMarked;
