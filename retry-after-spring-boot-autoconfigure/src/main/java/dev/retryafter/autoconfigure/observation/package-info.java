/**
 * Auto-configuration of the Micrometer observations of retry attempts and waits: the listener
 * of {@code dev.retryafter.observation}, when an {@code ObservationRegistry} is present.
 */
@NullMarked
package dev.retryafter.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
