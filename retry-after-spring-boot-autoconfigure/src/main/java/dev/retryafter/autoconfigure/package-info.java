/**
 * Spring Boot auto-configuration of the Retry-After aware retries: the {@code retry-after.*}
 * properties, their validation and the beans. The properties are nullable and carry no
 * defaults: each properties group maps its own values onto the core's settings, which own
 * every default, and {@code RetryAfterSettingsMapper} adds the named clients' hosts and the
 * settings the whole instance shares. {@code docs/SETTINGS.md} describes the layout and what a
 * new setting touches.
 * <p>
 * Here live the main auto-configuration (the beans every adapter shares) and the property
 * check's, next to the properties they bind, the settings mapper, the property checks and the
 * failure analyzers; each feature's auto-configuration has a sub-package of its own
 * ({@code client}, {@code reactive}, {@code redis}, {@code frameworkretry}, {@code logging},
 * {@code metrics}, {@code observation}, {@code actuate}), as Spring Boot's HTTP client modules
 * lay theirs out.
 */
@NullMarked
package dev.retryafter.autoconfigure;

import org.jspecify.annotations.NullMarked;
