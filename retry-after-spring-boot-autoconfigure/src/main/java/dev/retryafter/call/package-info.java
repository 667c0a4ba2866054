/**
 * The call every adapter shares, whatever the HTTP client or retry library: one
 * {@link dev.retryafter.call.RetryCall} per request over the collaborators all calls of an
 * adapter share ({@link dev.retryafter.call.CallContext}), with its cooldown side (admission,
 * holds, quota slots) in a class of its own, the first-attempt shortcut, the facts about a
 * request, the look for quota fields ({@link dev.retryafter.call.RateLimitFieldReader}), the
 * detection of an outer retry layer and the placement every customizer shares
 * ({@link dev.retryafter.call.OutermostPlacement}): the adapters' plumbing. What applications
 * call is in {@link dev.retryafter.api}, what the code around the adapters implements in
 * {@link dev.retryafter.spi}. It sits over the policy core
 * and the cooldown store, and under the adapters ({@code client}, {@code reactive},
 * {@code springretry}, {@code frameworkretry}), none of which uses another.
 */
@NullMarked
package dev.retryafter.call;

import org.jspecify.annotations.NullMarked;
