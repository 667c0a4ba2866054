/**
 * The parsing of the response headers the retry policy core reads: {@code Retry-After} and
 * HTTP dates (RFC 9110), the millisecond hints and server verdicts, Structured Field lists
 * (RFC 9651) and the quota fields of every rate-limit dialect the starter knows.
 * <p>
 * Each reader is a pure, total function of field values and the instants it is given: no I/O,
 * no clock, and it never throws on any value a server sends. The package depends on nothing
 * else in {@code dev.retryafter.core}, only on {@code java.*} and JSpecify, so the plan and
 * the origin protection are built on it and never the other way round; a build-time
 * architecture test enforces the rule.
 */
@NullMarked
package dev.retryafter.core.header;

import org.jspecify.annotations.NullMarked;
