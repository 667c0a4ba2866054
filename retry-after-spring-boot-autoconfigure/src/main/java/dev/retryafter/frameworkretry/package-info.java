/**
 * Spring Framework 7 retry adapter: a {@code RetryPolicy} and {@code RetryTemplate} driven by
 * the Retry-After policy core, a Reactor {@code Retry} spec, and the advice that makes
 * {@code @Retryable} methods one retry layer with the HTTP client adapters. Imports the
 * shared call ({@code call}) and {@code core} packages only, never another adapter.
 */
@NullMarked
package dev.retryafter.frameworkretry;

import org.jspecify.annotations.NullMarked;
