package dev.retryafter.core;

import java.util.HexFormat;
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
 * The digest is a keyed hash ({@link KeyedHash}, HMAC-SHA256 with a secret outside the core)
 * over the origin, the header names (as configured, lower-cased) and their values, each
 * length-prefixed so that no two different sets of values can be written the same way,
 * truncated to 128 bits: ample to keep tenants apart. The origin is part of it so that the
 * same tenant gets unrelated digests on two origins: whoever reads a shared store's keys
 * cannot tell that two origins' cooldowns belong to one tenant. Keyed, because a plain hash
 * of a low-entropy token could be confirmed offline by anyone who reads a digest from a Redis
 * key or a message; instances that share a store share the key, so they compute the same
 * digest for the same tenant.
 *
 * @since 0.2.0
 */
public final class CooldownPartition {

	/** Length of a partition digest in hex digits (128 bits). */
	public static final int DIGEST_LENGTH = 32;


	private CooldownPartition() {
	}

	/**
	 * The partition of a request, from the values it carries for {@code headerNames}.
	 * @param origin the request's origin, hashed with the values
	 * @param headerNames the configured partition headers; empty for no partitioning
	 * @param values the request's values of a header name, {@code null} or empty when absent
	 * @param hash the keyed hash of the framed names and values
	 * @return the digest, or {@code null} when no header is named or the request carries
	 * none of them (such requests share the origin's own cooldown)
	 */
	public static @Nullable String of(Origin origin, List<String> headerNames,
			Function<String, @Nullable List<String>> values, KeyedHash hash) {
		Objects.requireNonNull(origin, "origin");
		Objects.requireNonNull(headerNames, "headerNames");
		Objects.requireNonNull(values, "values");
		Objects.requireNonNull(hash, "hash");
		if (headerNames.isEmpty()) {
			return null;
		}
		String[] names = new String[headerNames.size()];
		@Nullable List<String>[] fieldValues = newLists(names.length);
		int size = 0;
		boolean any = false;
		for (int i = 0; i < names.length; i++) {
			names[i] = headerNames.get(i).toLowerCase(Locale.ROOT);
			fieldValues[i] = values.apply(headerNames.get(i));
			size += framedSize(names[i]) + Integer.BYTES;
			List<String> list = fieldValues[i];
			int count = (list != null) ? list.size() : 0;
			for (int j = 0; j < count; j++) {
				size += framedSize(text(list.get(j)));
				any = true;
			}
		}
		if (!any) {
			return null;
		}
		String originText = origin.toString();
		Frame frame = new Frame(size + framedSize(originText));
		frame.text(originText);
		for (int i = 0; i < names.length; i++) {
			frame.text(names[i]);
			List<String> list = fieldValues[i];
			int count = (list != null) ? list.size() : 0;
			frame.integer(count);
			for (int j = 0; j < count; j++) {
				frame.text(text(list.get(j)));
			}
		}
		byte[] digest = hash.hash(frame.bytes);
		if (digest.length < DIGEST_LENGTH / 2) {
			throw new IllegalStateException("A partition hash must give at least " + (DIGEST_LENGTH / 2) + " bytes");
		}
		return HexFormat.of().formatHex(digest, 0, DIGEST_LENGTH / 2);
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

	@SuppressWarnings("unchecked")
	private static @Nullable List<String>[] newLists(int length) {
		return (List<String>[]) new List<?>[length];
	}

	private static String text(@Nullable String value) {
		return (value != null) ? value : "";
	}

	private static int framedSize(String text) {
		return Integer.BYTES + 2 * text.length();
	}


	/**
	 * A keyed one-way function of bytes, e.g. HMAC-SHA256 with a secret: the core frames what
	 * is hashed, the key and the algorithm stay outside it.
	 */
	@FunctionalInterface
	public interface KeyedHash {

		/**
		 * Hashes {@code input}.
		 * @param input the framed origin, header names and values
		 * @return at least 16 bytes; equal for equal input under the same key
		 */
		byte[] hash(byte[] input);

	}

	/**
	 * Length-prefixed UTF-16 code units: no charset needed, and no two inputs collide by
	 * framing.
	 */
	private static final class Frame {

		private final byte[] bytes;

		private int position;

		Frame(int size) {
			this.bytes = new byte[size];
		}

		void text(String text) {
			integer(text.length());
			for (int i = 0; i < text.length(); i++) {
				char c = text.charAt(i);
				this.bytes[this.position++] = (byte) (c >>> 8);
				this.bytes[this.position++] = (byte) c;
			}
		}

		void integer(int value) {
			this.bytes[this.position++] = (byte) (value >>> 24);
			this.bytes[this.position++] = (byte) (value >>> 16);
			this.bytes[this.position++] = (byte) (value >>> 8);
			this.bytes[this.position++] = (byte) value;
		}

	}

}
