/**
 * Auto-configuration of the {@code retryafter} Actuator endpoint of
 * {@code dev.retryafter.actuate}, when Actuator is on the class path and the endpoint is
 * available.
 */
@NullMarked
package dev.retryafter.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
