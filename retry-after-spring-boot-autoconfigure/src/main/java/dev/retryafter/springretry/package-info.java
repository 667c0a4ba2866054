/**
 * spring-retry adapter: a back-off policy driven by the Retry-After policy core, and the
 * detector that lets the HTTP client adapters leave the retrying to a template using it. It
 * implements the shared call's {@code OuterRetryDetector}, and uses no other adapter.
 */
@NullMarked
package dev.retryafter.springretry;

import org.jspecify.annotations.NullMarked;
