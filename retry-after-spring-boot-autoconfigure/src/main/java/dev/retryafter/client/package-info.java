/**
 * Spring HTTP client adapters: the only place that does I/O, sleeps and reads clocks.
 */
@NullMarked
package dev.retryafter.client;

import org.jspecify.annotations.NullMarked;
