package dev.retryafter.core;

import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * What a host cooldown is kept under: an {@link Origin}, and, when the client names
 * partition headers, the {@link CooldownPartition} digest of those headers' values, so one
 * tenant's or one token's {@code 429} holds back only the requests that carry the same
 * values. The digest is one-way: the raw header values are never part of a key. A key may
 * also be narrowed to a {@link CooldownScope} (a route, a bucket the server named, a
 * configured path prefix) when the origin limits below its whole.
 *
 * @param origin the origin
 * @param partition the partition digest ({@value CooldownPartition#DIGEST_LENGTH} lower-case
 * hex digits), or {@code null} for the origin as a whole
 * @param scope the part of the origin (or partition) the key covers, or {@code null} for all
 * of it
 * @since 0.2.0
 */
public record CooldownKey(Origin origin, @Nullable String partition, @Nullable CooldownScope scope) {

	// Origin hosts never contain '#' or '@' (Origin refuses both), and neither does a
	// digest, so the separators cannot be forged.
	private static final char SEPARATOR = '#';

	private static final char SCOPE_SEPARATOR = '@';

	/** How many digest digits the actuator endpoint and log lines show. */
	public static final int SHOWN_PREFIX_LENGTH = 8;

	/**
	 * Checks the partition's form.
	 * @param origin the origin
	 * @param partition the partition digest, or {@code null}
	 * @param scope the scope, or {@code null}
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
	 * A key of a whole origin, or of one partition of it.
	 * @param origin the origin
	 * @param partition the partition digest, or {@code null}
	 */
	public CooldownKey(Origin origin, @Nullable String partition) {
		this(origin, partition, null);
	}

	/**
	 * This key narrowed to a scope.
	 * @param scope the scope, or {@code null} for the whole origin or partition
	 * @return the key with that scope
	 */
	public CooldownKey withScope(@Nullable CooldownScope scope) {
		return Objects.equals(scope, this.scope) ? this : new CooldownKey(this.origin, this.partition, scope);
	}

	/**
	 * The key of the whole origin (or partition) this key's scope is part of.
	 * @return this key without its scope
	 */
	public CooldownKey unscoped() {
		return withScope(null);
	}

	/**
	 * This key with a guessed route left out: the key a quota announced under it is kept by.
	 * A server that scopes its quota says so with a bucket; without one its fields count for
	 * the whole origin, and a guessed route of its own would read the same quota per route.
	 * @return this key, or the whole origin's (or partition's) for a guessed route
	 */
	public CooldownKey declared() {
		return (this.scope != null && this.scope.guessed()) ? unscoped() : this;
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
		int scopeAt = text.indexOf(SCOPE_SEPARATOR);
		if (scopeAt >= 0) {
			Optional<CooldownScope> scope = CooldownScope.parse(text.substring(scopeAt + 1));
			return scope.flatMap((parsed) -> parseUnscoped(text.substring(0, scopeAt)).map((key) -> key.withScope(parsed)));
		}
		return parseUnscoped(text);
	}

	private static Optional<CooldownKey> parseUnscoped(String text) {
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
	 * The key as {@code scheme://host:port}, followed by {@code #digest} when partitioned and
	 * {@code @kind:name} when scoped. An instance that knows no scopes reads a scoped key as
	 * malformed and ignores it, rather than taking it for a whole origin's.
	 * @return the text form, which {@link #parse(String)} reads back
	 */
	@Override
	public String toString() {
		String unscoped = (this.partition != null) ? this.origin.toString() + SEPARATOR + this.partition
				: this.origin.toString();
		return (this.scope != null) ? unscoped + SCOPE_SEPARATOR + this.scope : unscoped;
	}

}
