/**
 * Auto-configuration of the {@code WebClient} adapter of {@code dev.retryafter.reactive}: the
 * exchange filter on every {@code WebClient.Builder} Spring Boot builds, and the connector
 * customizers that see each attempt as it is sent and the hops of a redirect.
 */
@NullMarked
package dev.retryafter.autoconfigure.reactive;

import org.jspecify.annotations.NullMarked;
