/**
 * Test support for applications that use the Retry-After aware retries: virtual time that makes
 * every wait and hold instant while budgets and cooldowns behave as in real time
 * ({@link dev.retryafter.test.AutoConfigureRetryAfterVirtualTime}), and a recorder of every
 * attempt, planned wait, hold and stop ({@link dev.retryafter.test.RetryRecorder}). A
 * test-scoped dependency: nothing in production depends on it.
 */
@NullMarked
package dev.retryafter.test;

import org.jspecify.annotations.NullMarked;
