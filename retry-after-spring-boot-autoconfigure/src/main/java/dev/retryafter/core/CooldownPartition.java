package dev.retryafter.core;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The one-way digest that splits an origin's cooldown by the values of some request
 * headers (e.g. {@code Authorization}): requests with the same values share a cooldown,
 * others do not. Only the digest is ever kept, in memory, in a shared store, in log lines
 * or in the actuator endpoint, so a credential never leaves the request it came with.
 * <p>
 * The digest is SHA-256 over the header names (as configured, lower-cased) and their
 * values, each length-prefixed so that no two different sets of values can be written the
 * same way, truncated to 128 bits: ample to keep tenants apart, and the same on every
 * instance of a fleet, so a shared store keys them alike.
 *
 * @since 0.2.0
 */
public final class CooldownPartition {

	/** Length of a partition digest in hex digits (128 bits). */
	public static final int DIGEST_LENGTH = 32;

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private CooldownPartition() {
	}

	/**
	 * The partition of a request, from the values it carries for {@code headerNames}.
	 * @param headerNames the configured partition headers; empty for no partitioning
	 * @param values the request's values of a header name, {@code null} or empty when absent
	 * @return the digest, or {@code null} when no header is named or the request carries
	 * none of them (such requests share the origin's own cooldown)
	 */
	public static @Nullable String of(List<String> headerNames, Function<String, @Nullable List<String>> values) {
		Objects.requireNonNull(headerNames, "headerNames");
		Objects.requireNonNull(values, "values");
		if (headerNames.isEmpty()) {
			return null;
		}
		MessageDigest digest = sha256();
		boolean any = false;
		for (String name : headerNames) {
			List<String> fieldValues = values.apply(name);
			update(digest, name.toLowerCase(Locale.ROOT));
			int count = (fieldValues != null) ? fieldValues.size() : 0;
			updateInt(digest, count);
			for (int i = 0; i < count; i++) {
				String value = fieldValues.get(i);
				update(digest, (value != null) ? value : "");
				any = true;
			}
		}
		return any ? hex(digest.digest(), DIGEST_LENGTH / 2) : null;
	}

	/**
	 * Whether {@code text} has the form of a partition digest.
	 * @param text the text
	 * @return {@code true} for exactly {@value #DIGEST_LENGTH} lower-case hex digits
	 */
	public static boolean isDigest(String text) {
		if (text.length() != DIGEST_LENGTH) {
			return false;
		}
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
				return false;
			}
		}
		return true;
	}

	// Length-prefixed UTF-16 code units: no charset needed, and no two inputs collide by framing.
	private static void update(MessageDigest digest, String text) {
		updateInt(digest, text.length());
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			digest.update((byte) (c >>> 8));
			digest.update((byte) c);
		}
	}

	private static void updateInt(MessageDigest digest, int value) {
		digest.update((byte) (value >>> 24));
		digest.update((byte) (value >>> 16));
		digest.update((byte) (value >>> 8));
		digest.update((byte) value);
	}

	private static String hex(byte[] bytes, int count) {
		char[] chars = new char[count * 2];
		for (int i = 0; i < count; i++) {
			chars[2 * i] = HEX[(bytes[i] >>> 4) & 0xf];
			chars[2 * i + 1] = HEX[bytes[i] & 0xf];
		}
		return new String(chars);
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			// Every Java platform must provide SHA-256 (MessageDigest javadoc).
			throw new IllegalStateException(ex);
		}
	}

}
