package dev.retryafter.autoconfigure;

import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.store.PartitionSecret;
import org.jspecify.annotations.Nullable;

/**
 * What a cooldown store is built from, read from the {@code retry-after.*} properties: the
 * bounds of its host cooldowns ({@code cooldown.max-hosts}, {@code cooldown.max-duration}) and
 * the secret that keys its partitions ({@code cooldown.partition-secret}), validated with
 * messages naming the properties. The local store of {@link RetryAfterAutoConfiguration} and
 * the Redis store of {@code autoconfigure.redis} are built from the same reading.
 * <p>
 * Public for the Redis auto-configuration, which builds its store from its own package; not
 * for applications.
 *
 * @since 0.1.0
 */
public final class CooldownStoreSettings {

	private final RetryAfterProperties properties;

	/**
	 * Reads the store's settings from the given properties.
	 * @param properties the bound {@code retry-after.*} properties
	 */
	public CooldownStoreSettings(RetryAfterProperties properties) {
		this.properties = properties;
	}

	/**
	 * The host cooldowns of the store, bounded as the properties say.
	 * @return new, empty host cooldowns
	 */
	public OriginProtection hostCooldowns() {
		return new RetryAfterSettingsMapper(this.properties).hostCooldowns();
	}

	/**
	 * The secret of a store kept in this instance: the configured one, else this JVM's random
	 * one.
	 * @return the secret that keys the partitions
	 */
	public PartitionSecret localSecret() {
		return PartitionSecrets.forLocalStore(this.properties);
	}

	/**
	 * The secret of a store shared with other instances: the configured one, required as soon
	 * as a client partitions its cooldowns.
	 * @param clients the settings per named client
	 * @return the configured secret, or {@code null} when none is set and none is needed
	 */
	public @Nullable PartitionSecret sharedSecret(ClientSettingsCatalog clients) {
		return PartitionSecrets.forSharedStore(this.properties, clients);
	}

}
