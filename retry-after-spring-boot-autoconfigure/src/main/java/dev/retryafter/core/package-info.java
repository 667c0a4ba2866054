/**
 * The I/O-free retry policy core: the retry decision and the retry budgets it reads, and the
 * vocabulary its sub-packages share (origins, cooldown keys, settings).
 * <p>
 * What a response's headers say is read by {@link dev.retryafter.core.header}, which this
 * package builds on and which knows nothing of it. Origin protection (host cooldowns, pacing,
 * quotas) is {@link dev.retryafter.core.protection}, which builds on this package.
 * <p>
 * No I/O, no sleeping, no wall-clock reads, no Spring or Micrometer types: time comes in as
 * monotonic readings from an injected {@link dev.retryafter.core.MonotonicClock}, randomness
 * as an injected generator, so the decision is a function of its arguments and the state is
 * thread-safe and testable without waiting. A build-time architecture test enforces the rule.
 */
@NullMarked
package dev.retryafter.core;

import org.jspecify.annotations.NullMarked;
