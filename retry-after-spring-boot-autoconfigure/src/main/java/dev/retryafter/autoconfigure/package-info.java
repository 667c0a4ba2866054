/**
 * Spring Boot auto-configuration of the Retry-After aware retries: the {@code retry-after.*}
 * properties, their validation and the beans. The properties are nullable and carry no
 * defaults: each properties group maps its own values onto the core's settings, which own
 * every default, and {@code RetryAfterSettingsMapper} adds the named clients' hosts and the
 * settings the whole instance shares. {@code docs/SETTINGS.md} describes the layout and what a
 * new setting touches.
 */
@NullMarked
package dev.retryafter.autoconfigure;

import org.jspecify.annotations.NullMarked;
