/**
 * Auto-configuration of the Spring Framework 7 retry adapter of
 * {@code dev.retryafter.frameworkretry}: the retry policy and template, the Reactor
 * {@code Retry} spec, and what lets the interceptor step aside inside them.
 */
@NullMarked
package dev.retryafter.autoconfigure.frameworkretry;

import org.jspecify.annotations.NullMarked;
