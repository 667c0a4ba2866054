/**
 * Auto-configuration of the log of retry decisions: the
 * {@link dev.retryafter.logging.LoggingRetryListener} bean, which every adapter's calls report
 * to.
 */
@NullMarked
package dev.retryafter.autoconfigure.logging;

import org.jspecify.annotations.NullMarked;
