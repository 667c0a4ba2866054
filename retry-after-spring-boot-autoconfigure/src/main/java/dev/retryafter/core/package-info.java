/**
 * The I/O-free retry policy core: {@code Retry-After} parsing and the retry decision.
 * <p>
 * Everything here is a pure function of its arguments (settings, clock readings, random
 * source): no I/O, no sleeping, no wall-clock reads, no Spring or Micrometer types. A
 * build-time architecture test enforces that rule.
 */
@NullMarked
package dev.retryafter.core;

import org.jspecify.annotations.NullMarked;
