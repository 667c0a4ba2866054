package dev.retryafter.store;

import java.lang.management.ManagementFactory;
import java.time.Instant;

/**
 * When the JVM started, read once: since when a store that shares nothing has been connected.
 */
final class JvmStart {

	static final Instant INSTANT = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());

	private JvmStart() {
	}

}
