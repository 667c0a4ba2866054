/**
 * The reactive adapter: a Retry-After aware {@code ExchangeFilterFunction} for
 * {@code WebClient}, on the same policy core, settings, origin protection and listeners as
 * the blocking interceptor, whose waits are timers and never park a thread. Loaded only when
 * Spring WebFlux is on the class path. It runs each request as a call of the shared
 * {@code dev.retryafter.call} package, beside the other adapters, and uses none of them.
 */
@NullMarked
package dev.retryafter.reactive;

import org.jspecify.annotations.NullMarked;
