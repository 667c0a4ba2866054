/**
 * Benchmarks of the starter against the retry libraries users would otherwise pick: JMH
 * benchmarks (happy-path overhead, parser throughput) and plain Java harnesses on a loopback
 * origin (herd timing, rate-limited origin). None of it runs in the test phase.
 */
package dev.retryafter.benchmarks;
