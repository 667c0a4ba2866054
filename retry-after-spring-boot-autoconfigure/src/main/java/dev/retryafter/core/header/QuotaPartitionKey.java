package dev.retryafter.core.header;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The one-way digest a quota's partition key ({@code pk}, a Byte Sequence in the draft's
 * fields) is kept as: enough to tell two partitions apart, never the key itself, which a
 * server may derive from a credential. It is held in memory only, next to the quota it
 * scopes; no key, meter, log line or endpoint shows it.
 */
final class QuotaPartitionKey {

	/** Hex digits kept of the SHA-256 digest: 64 bits tell a server's partitions apart. */
	static final int LENGTH = 16;

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private QuotaPartitionKey() {
	}

	/**
	 * The digest of {@code text[start, end)}, the base64 characters of a Byte Sequence.
	 * @param text the field value
	 * @param start the first character
	 * @param end one past the last
	 * @return {@value #LENGTH} lower-case hex digits
	 */
	static String digest(String text, int start, int end) {
		MessageDigest sha256 = sha256();
		// Base64 characters only (the parser checked them): each is one ASCII byte.
		for (int i = start; i < end; i++) {
			sha256.update((byte) text.charAt(i));
		}
		byte[] hash = sha256.digest();
		char[] digits = new char[LENGTH];
		for (int i = 0; i < LENGTH / 2; i++) {
			digits[2 * i] = HEX[(hash[i] >> 4) & 0xF];
			digits[2 * i + 1] = HEX[hash[i] & 0xF];
		}
		return new String(digits);
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			// Every Java platform must provide SHA-256 (MessageDigest's Javadoc).
			throw new IllegalStateException(ex);
		}
	}

}
