package dev.retryafter.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;

import dev.retryafter.core.CooldownPartition;

/**
 * The secret that keys cooldown partition digests and signs the Redis store's messages
 * ({@code retry-after.cooldown.partition-secret}). Every instance that shares a store must
 * hold the same secret, so that they compute the same digest for the same tenant and accept
 * each other's messages. Generate one with, e.g., {@code openssl rand -base64 32}.
 * <p>
 * Two keys are derived from it with HMAC-SHA256, one per use, so a message signature can
 * never be taken for a partition digest or the other way round. The secret is never written
 * anywhere: {@link #toString()} hides it.
 *
 * @since 0.2.0
 */
public final class PartitionSecret {

	/** Fewest characters a configured secret may have: 32 characters of base64 is 192 bits. */
	public static final int MIN_LENGTH = 32;

	private final HmacPool partitionMac;

	private final HmacPool messageMac;

	private final CooldownPartition.KeyedHash partitionHash;

	private PartitionSecret(byte[] secret) {
		this.partitionMac = new HmacPool(derive(secret, "retry-after partition digest"));
		this.messageMac = new HmacPool(derive(secret, "retry-after store message"));
		this.partitionHash = this.partitionMac::hmac;
	}

	/**
	 * A configured secret.
	 * @param secret the secret, at least {@value #MIN_LENGTH} characters
	 * @return the secret
	 * @throws IllegalArgumentException if it is shorter (the message never contains it)
	 */
	public static PartitionSecret of(String secret) {
		Objects.requireNonNull(secret, "secret");
		if (secret.length() < MIN_LENGTH) {
			throw new IllegalArgumentException("must be at least " + MIN_LENGTH + " characters long");
		}
		return new PartitionSecret(secret.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * A new random secret, for a store that no other instance shares.
	 * @return the secret
	 */
	public static PartitionSecret random() {
		byte[] secret = new byte[32];
		new SecureRandom().nextBytes(secret);
		return new PartitionSecret(secret);
	}

	/**
	 * The random secret of this JVM, for stores kept in this instance only: partitions are
	 * the same across the JVM's contexts and differ from every other instance's.
	 * @return the secret
	 */
	public static PartitionSecret perJvm() {
		return PerJvm.SECRET;
	}

	/**
	 * Keys partition digests.
	 * @return HMAC-SHA256 under this secret's partition key
	 */
	public CooldownPartition.KeyedHash partitionHash() {
		return this.partitionHash;
	}

	/**
	 * Signs a message.
	 * @param text the message
	 * @return its signature, 64 lower-case hex digits
	 */
	String sign(String text) {
		return HexFormat.of().formatHex(this.messageMac.hmac(text.getBytes(StandardCharsets.UTF_8)));
	}

	/**
	 * Whether {@code signature} is this secret's signature of {@code text}, compared in time
	 * independent of where they differ.
	 * @param text the message
	 * @param signature the signature it came with
	 * @return {@code true} if it matches
	 */
	boolean verify(String text, String signature) {
		return MessageDigest.isEqual(sign(text).getBytes(StandardCharsets.US_ASCII),
				signature.getBytes(StandardCharsets.US_ASCII));
	}

	@Override
	public String toString() {
		return "PartitionSecret[hidden]";
	}

	private static byte[] derive(byte[] secret, String purpose) {
		return new HmacPool(secret).hmac(purpose.getBytes(StandardCharsets.UTF_8));
	}

	private static final class PerJvm {

		static final PartitionSecret SECRET = random();

	}

}
