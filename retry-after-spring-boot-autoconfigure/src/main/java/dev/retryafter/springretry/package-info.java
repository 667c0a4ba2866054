/**
 * spring-retry adapter: a back-off policy driven by the Retry-After policy core.
 */
@NullMarked
package dev.retryafter.springretry;

import org.jspecify.annotations.NullMarked;
