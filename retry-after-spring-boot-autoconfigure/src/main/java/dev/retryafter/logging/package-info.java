/**
 * The log of retry decisions: {@link dev.retryafter.logging.LoggingRetryListener} writes one
 * DEBUG line per decision and per cooldown hold of any adapter's calls, blocking or reactive.
 * A listener of the core's {@link dev.retryafter.core.RetryListener} seam, so it sits beneath
 * the adapters and depends on none of them.
 */
@NullMarked
package dev.retryafter.logging;

import org.jspecify.annotations.NullMarked;
