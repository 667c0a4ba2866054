/**
 * The RestClient and RestTemplate adapter: the retry interceptor (which sends, sleeps and
 * reads the clocks) and the customizers that install it. It runs each request as a call of
 * the shared {@code dev.retryafter.call} package, beside the other adapters, and uses none of
 * them.
 */
@NullMarked
package dev.retryafter.client;

import org.jspecify.annotations.NullMarked;
