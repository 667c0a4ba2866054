/**
 * Spring Boot auto-configuration of the Retry-After aware retries: properties, their validation and the beans.
 */
@NullMarked
package dev.retryafter.autoconfigure;

import org.jspecify.annotations.NullMarked;
