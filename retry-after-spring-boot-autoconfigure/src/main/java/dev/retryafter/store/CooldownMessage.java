package dev.retryafter.store;

import java.util.Optional;

import dev.retryafter.core.CooldownKey;
import org.jspecify.annotations.Nullable;

/**
 * What the instances of a fleet publish on the Redis channel, as plain text so it can be read
 * with {@code redis-cli SUBSCRIBE}:
 * <ul>
 * <li>{@code cooldown <remaining ms> <instance> <key>}: a cooldown that has this long left,
 * measured by Redis when it was published, so each receiver turns it into an instant on its
 * own clock and no instance's wall clock matters;</li>
 * <li>{@code end <instance> <key>}: a cooldown ended by an operator; a key without a partition
 * stands for every partition of its origin, {@code *} for every cooldown;</li>
 * <li>{@code heartbeat <instance>}: what an instance sends itself to check that both its
 * command and its subscription connection still work.</li>
 * </ul>
 * With a partition secret, each message is followed by {@code " at:"} and the Redis time it
 * was sent at, {@code " n:"} and its publisher's sequence number, then {@code " sig:"} and the
 * HMAC-SHA256 signature of all that ({@link MessageSignature}); messages without a valid
 * signature, stale or heard before are ignored.
 *
 * @param kind what the message says
 * @param remainingMillis for a cooldown, its time left in milliseconds; otherwise 0
 * @param instance the id of the publishing store, so it can skip its own messages
 * @param key for a cooldown or an end, the key; {@code null} for a heartbeat and for the end
 * of every cooldown
 */
record CooldownMessage(Kind kind, long remainingMillis, String instance, @Nullable CooldownKey key) {

	private static final String ALL = "*";

	// Up to 15 digits: far beyond any real cooldown, and no overflow.
	private static final int MAX_DIGITS = 15;

	static CooldownMessage cooldown(long remainingMillis, String instance, CooldownKey key) {
		return new CooldownMessage(Kind.COOLDOWN, remainingMillis, instance, key);
	}

	static CooldownMessage end(String instance, @Nullable CooldownKey key) {
		return new CooldownMessage(Kind.END, 0, instance, key);
	}

	static CooldownMessage heartbeat(String instance) {
		return new CooldownMessage(Kind.HEARTBEAT, 0, instance, null);
	}

	String encode(MessageSignature signature) {
		return signature.sign(encode());
	}

	String encode() {
		return switch (this.kind) {
			case COOLDOWN -> "cooldown " + this.remainingMillis + " " + this.instance + " " + this.key;
			case END -> "end " + this.instance + " " + ((this.key != null) ? this.key.toString() : ALL);
			case HEARTBEAT -> "heartbeat " + this.instance;
		};
	}

	/**
	 * The message a received text carries if its signature may be trusted, whether fresh or
	 * not ({@link MessageSignature#fresh} says).
	 */
	static Optional<CooldownMessage> decode(String text, MessageSignature signature) {
		MessageSignature.Signed signed = signature.verified(text);
		return (signed != null) ? decode(signed.message()) : Optional.empty();
	}

	// Messages come from the network: anything malformed is ignored, never thrown.
	static Optional<CooldownMessage> decode(String text) {
		String[] parts = text.split(" ", -1);
		if (parts.length < 2 || parts[1].isEmpty()) {
			return Optional.empty();
		}
		return switch (parts[0]) {
			case "cooldown" -> (parts.length == 4 && !parts[2].isEmpty()) ? decodeCooldown(parts) : Optional.empty();
			case "end" -> (parts.length == 3) ? decodeEnd(parts[1], parts[2]) : Optional.empty();
			case "heartbeat" -> (parts.length == 2) ? Optional.of(heartbeat(parts[1])) : Optional.empty();
			default -> Optional.empty();
		};
	}

	private static Optional<CooldownMessage> decodeCooldown(String[] parts) {
		String digits = parts[1];
		if (digits.length() > MAX_DIGITS) {
			return Optional.empty();
		}
		long millis = 0;
		for (int i = 0; i < digits.length(); i++) {
			char c = digits.charAt(i);
			if (c < '0' || c > '9') {
				return Optional.empty();
			}
			millis = millis * 10 + (c - '0');
		}
		long remainingMillis = millis;
		return CooldownKey.parse(parts[3]).map((key) -> cooldown(remainingMillis, parts[2], key));
	}

	private static Optional<CooldownMessage> decodeEnd(String instance, String target) {
		if (target.equals(ALL)) {
			return Optional.of(end(instance, null));
		}
		return CooldownKey.parse(target).map((key) -> end(instance, key));
	}

	/**
	 * What a message says.
	 */
	enum Kind {

		/** A cooldown was recorded. */
		COOLDOWN,

		/** Cooldowns were ended. */
		END,

		/** An instance checks its own connections. */
		HEARTBEAT

	}

}
