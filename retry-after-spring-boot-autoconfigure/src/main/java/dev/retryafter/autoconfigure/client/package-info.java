/**
 * Auto-configuration of the blocking adapter of {@code dev.retryafter.client}: the retry
 * interceptor on every {@code RestClient.Builder} and {@code RestTemplateBuilder} Spring Boot
 * builds (and on its HTTP service groups), and the request factory customizers that switch
 * off the transports' own retries, see each request as it is sent, and report the hops of a
 * redirect.
 */
@NullMarked
package dev.retryafter.autoconfigure.client;

import org.jspecify.annotations.NullMarked;
