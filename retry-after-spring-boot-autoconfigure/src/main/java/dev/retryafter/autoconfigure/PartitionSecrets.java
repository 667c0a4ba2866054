package dev.retryafter.autoconfigure;

import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.store.PartitionSecret;
import org.jspecify.annotations.Nullable;

/**
 * Which secret keys the partition digests of each store, from
 * {@code retry-after.cooldown.partition-secret}.
 */
final class PartitionSecrets {

	private PartitionSecrets() {
	}

	/**
	 * A store kept in this instance: the configured secret, else this JVM's random one (no
	 * other instance needs to compute the same digests).
	 */
	static PartitionSecret forLocalStore(RetryAfterProperties properties) {
		PartitionSecret configured = configured(properties);
		return (configured != null) ? configured : PartitionSecret.perJvm();
	}

	/**
	 * A store shared with other instances: the configured secret, which every instance must
	 * share, so it is required as soon as a client partitions its cooldowns; {@code null} (no
	 * partitions, unsigned messages) otherwise.
	 */
	static @Nullable PartitionSecret forSharedStore(RetryAfterProperties properties, ClientSettingsCatalog clients) {
		PartitionSecret configured = configured(properties);
		if (configured == null) {
			for (ClientSettings client : clients.all()) {
				if (!client.settings().cooldown().partitionHeaders().isEmpty()) {
					String headers = (client == clients.defaults()) ? "retry-after.cooldown.partition-headers"
							: "retry-after.clients." + client.name() + ".cooldown.partition-headers";
					throw new InvalidPartitionSecretException("must be set when the Redis store partitions cooldowns ("
							+ headers + " is set), so that every instance keys a tenant's cooldown alike");
				}
			}
		}
		return configured;
	}

	private static @Nullable PartitionSecret configured(RetryAfterProperties properties) {
		String secret = properties.getCooldown().getPartitionSecret();
		if (secret == null) {
			return null;
		}
		if (secret.length() < PartitionSecret.MIN_LENGTH) {
			throw new InvalidPartitionSecretException("must be at least " + PartitionSecret.MIN_LENGTH
					+ " characters long (it has " + secret.length() + ")");
		}
		return PartitionSecret.of(secret);
	}

}
