/**
 * Spring HTTP client adapters: the retry interceptor (which sends, sleeps and reads the
 * clocks), the customizers that install it, and the vocabulary a caller uses to mark requests
 * ({@link dev.retryafter.client.RetryAfterAttributes}) and to tell failures apart
 * ({@link dev.retryafter.client.RetryFailures}).
 */
@NullMarked
package dev.retryafter.client;

import org.jspecify.annotations.NullMarked;
