/**
 * Origin protection behind one door, {@link dev.retryafter.core.protection.OriginProtection}:
 * the host cooldowns a {@code Retry-After} sets, the rate an origin accepted between two of
 * its rejections, the probes of cooling routes, the buckets origins name for their routes,
 * and the quotas they announce.
 * <p>
 * It builds on the root of {@code dev.retryafter.core} (keys, origins, settings) and on
 * {@link dev.retryafter.core.header} (the readings); neither knows of it. The cooldown store
 * holds the door: outside the store, code names only the door's vocabulary (the admissions and
 * the read-only views), as a build-time architecture test enforces. Like the rest of the core:
 * no I/O, no sleeping, no clock of its own.
 */
@NullMarked
package dev.retryafter.core.protection;

import org.jspecify.annotations.NullMarked;
