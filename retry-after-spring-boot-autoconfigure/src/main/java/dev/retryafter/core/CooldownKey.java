package dev.retryafter.core;

import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * What a host cooldown is kept under: an {@link Origin}, and, when the client names
 * partition headers, the {@link CooldownPartition} digest of those headers' values, so one
 * tenant's or one token's {@code 429} holds back only the requests that carry the same
 * values. The digest is one-way: the raw header values are never part of a key.
 *
 * @param origin the origin
 * @param partition the partition digest ({@value CooldownPartition#DIGEST_LENGTH} lower-case
 * hex digits), or {@code null} for the origin as a whole
 * @since 0.2.0
 */
public record CooldownKey(Origin origin, @Nullable String partition) {

	// Origin hosts never contain '#' (Origin refuses it), so the separator cannot be forged.
	private static final char SEPARATOR = '#';

	/** How many digest digits the actuator endpoint and log lines show. */
	public static final int SHOWN_PREFIX_LENGTH = 8;

	/**
	 * Checks the partition's form.
	 * @param origin the origin
	 * @param partition the partition digest, or {@code null}
	 */
	public CooldownKey {
		Objects.requireNonNull(origin, "origin");
		if (partition != null && !CooldownPartition.isDigest(partition)) {
			// The text is not echoed: whatever was passed by mistake may be a credential.
			throw new IllegalArgumentException("Cooldown partition must be " + CooldownPartition.DIGEST_LENGTH
					+ " lower-case hex digits");
		}
	}

	/**
	 * The key of a whole origin, with no partition.
	 * @param origin the origin
	 * @return the key
	 */
	public static CooldownKey of(Origin origin) {
		return new CooldownKey(origin, null);
	}

	/**
	 * The first {@value #SHOWN_PREFIX_LENGTH} digits of the partition digest: enough to tell
	 * partitions apart on screen, too few to be worth anything to anyone else.
	 * @return the prefix, or {@code null} when the key has no partition
	 */
	public @Nullable String partitionPrefix() {
		return (this.partition != null) ? this.partition.substring(0, SHOWN_PREFIX_LENGTH) : null;
	}

	/**
	 * Parses the form {@link #toString()} produces, e.g. a key or message read back from a
	 * shared store. Never throws.
	 * @param text the text
	 * @return the key, or empty if {@code text} is not in that form
	 */
	public static Optional<CooldownKey> parse(String text) {
		int separator = text.indexOf(SEPARATOR);
		if (separator < 0) {
			return Origin.parse(text).map(CooldownKey::of);
		}
		String partition = text.substring(separator + 1);
		if (!CooldownPartition.isDigest(partition)) {
			return Optional.empty();
		}
		return Origin.parse(text.substring(0, separator)).map((origin) -> new CooldownKey(origin, partition));
	}

	/**
	 * The key as {@code scheme://host:port}, followed by {@code #digest} when partitioned.
	 * @return the text form, which {@link #parse(String)} reads back
	 */
	@Override
	public String toString() {
		return (this.partition != null) ? this.origin.toString() + SEPARATOR + this.partition
				: this.origin.toString();
	}

}
