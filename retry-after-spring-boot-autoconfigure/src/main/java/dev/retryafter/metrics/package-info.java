/**
 * Micrometer meters for retries ({@code http.client.retry.*}), recorded through the core's
 * {@link dev.retryafter.core.RetryListener} so the policy core never imports Micrometer.
 */
@NullMarked
package dev.retryafter.metrics;

import org.jspecify.annotations.NullMarked;
