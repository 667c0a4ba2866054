/**
 * spring-retry adapter: a back-off policy driven by the Retry-After policy core, and the
 * detector that lets the HTTP client interceptor leave the retrying to a template using it.
 */
@NullMarked
package dev.retryafter.springretry;

import org.jspecify.annotations.NullMarked;
