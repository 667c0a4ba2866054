package dev.retryafter.core.protection;

import java.time.Duration;

import dev.retryafter.core.header.RateLimitFields;

/**
 * The last quota a cooldown key's origin announced, as the actuator endpoint shows it.
 *
 * @param policy the policy's name, empty when the dialect names none
 * @param remaining requests the response said remain until the reset
 * @param resetIn time left until that reset, zero once it has passed
 * @param age time since the response was received
 * @param fields the dialect it was read in
 * @since 0.2.0
 */
public record RateLimitState(String policy, long remaining, Duration resetIn, Duration age, RateLimitFields fields) {
}
