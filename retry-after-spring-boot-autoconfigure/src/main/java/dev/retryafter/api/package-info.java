/**
 * What applications call: the marks a caller puts on one request
 * ({@link dev.retryafter.api.RetryAfterAttributes}) and the failures it tells apart
 * ({@link dev.retryafter.api.RetryFailures}, {@link dev.retryafter.api.RetryRefusedException},
 * {@link dev.retryafter.api.RetryInterruptedException}, with the classification of transport
 * failures they use). It depends on the policy core only, never on the plumbing of
 * {@code dev.retryafter.call}, so what an application imports does not move when the plumbing
 * does; a build-time architecture test enforces the rule.
 */
@NullMarked
package dev.retryafter.api;

import org.jspecify.annotations.NullMarked;
