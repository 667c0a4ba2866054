/**
 * Micrometer observations of each attempt ({@code http.client.retry.attempt}) and each wait
 * or hold ({@code http.client.retry.wait}) of a retried call, as children of the call's own
 * observation ({@code http.client.requests}), so a tracer shows every attempt on the wire.
 * They follow calls through the core's {@link dev.retryafter.core.RetryListener}, so the
 * policy core never imports Micrometer.
 */
@NullMarked
package dev.retryafter.observation;

import org.jspecify.annotations.NullMarked;
