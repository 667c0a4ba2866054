/**
 * What the HTTP client adapters ask of the code around them, for an implementation to give:
 * whether a retry layer outside the HTTP client is retrying the current call
 * ({@link dev.retryafter.spi.OuterRetryDetector}) and the invocation it drives
 * ({@link dev.retryafter.spi.RetriedInvocation}), and the time the calls run on
 * ({@link dev.retryafter.spi.CallTime}, a test's virtual time). It depends on the policy core
 * only; the adapters and their auto-configuration implement and consume it.
 */
@NullMarked
package dev.retryafter.spi;

import org.jspecify.annotations.NullMarked;
