/**
 * Auto-configuration of the Micrometer meters for retries ({@code http.client.retry.*}): the
 * listener and the meter binders of {@code dev.retryafter.metrics}, when Micrometer and a
 * {@code MeterRegistry} are present.
 */
@NullMarked
package dev.retryafter.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
