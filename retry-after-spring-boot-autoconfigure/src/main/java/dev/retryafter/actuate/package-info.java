/**
 * The {@code retryafter} Actuator endpoint: effective settings per named client, and the
 * origin-protection state (host cooldowns, retry budgets). Never request headers, credentials
 * or bodies.
 */
@NullMarked
package dev.retryafter.actuate;

import org.jspecify.annotations.NullMarked;
