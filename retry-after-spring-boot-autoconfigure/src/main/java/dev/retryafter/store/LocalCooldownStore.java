package dev.retryafter.store;

import java.time.Duration;
import java.util.Objects;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.protection.OriginProtection;

/**
 * Host cooldowns kept in this JVM only ({@code retry-after.store=local}, the default).
 *
 * @since 0.1.0
 */
public final class LocalCooldownStore implements CooldownStore {

	/** The value of {@link #name()}. */
	public static final String NAME = "local";

	private final OriginProtection cooldowns;

	private final PartitionSecret partitionSecret;

	/**
	 * Creates a store over a map, keying partition digests with this JVM's random secret.
	 * @param cooldowns the map
	 */
	public LocalCooldownStore(OriginProtection cooldowns) {
		this(cooldowns, PartitionSecret.perJvm());
	}

	/**
	 * Creates a store over a map.
	 * @param cooldowns the map
	 * @param partitionSecret keys the partition digests
	 * @since 0.2.0
	 */
	public LocalCooldownStore(OriginProtection cooldowns, PartitionSecret partitionSecret) {
		this.cooldowns = Objects.requireNonNull(cooldowns, "cooldowns");
		this.partitionSecret = Objects.requireNonNull(partitionSecret, "partitionSecret");
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public void record(CooldownKey key, Duration delay, long nowNanos) {
		this.cooldowns.record(key, delay, nowNanos);
	}

	@Override
	public OriginProtection protection() {
		return this.cooldowns;
	}

	@Override
	public PartitionSecret partitionSecret() {
		return this.partitionSecret;
	}

}
