package dev.retryafter.store;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Signs the store's messages with the partition secret and checks those it hears, so that
 * only instances holding the secret can start or end cooldowns through the channel (anyone
 * who may publish on a Redis channel may otherwise hold a whole fleet back), and only once,
 * soon after they were sent. A signed message reads
 * {@code <message> at:<Redis time, epoch ms> n:<sequence number> sig:<HMAC-SHA256 of all
 * before " sig:">}: the stamp and the sequence number ({@link ReplayGuard}) stop a recorded
 * message from being published again later, e.g. a cooldown after an operator ended it. A
 * message without a valid signature, stale or replayed is dropped and counted per
 * {@link MessageRejection}, and the first of each reason is logged at DEBUG: they come from
 * the network, so they never throw and never flood the log.
 * <p>
 * Without a secret, messages are sent and read unsigned and unstamped, as before there were
 * secrets: they then carry no partition digests (start-up requires a secret with partition
 * headers), only origins, and whoever can publish on the channel can as well write the keys
 * every instance reads when it connects, so a signature would protect nothing Redis's own
 * access control does not.
 */
final class MessageSignature {

	/** What separates a message from its signature: never part of an unsigned message. */
	static final String SEPARATOR = " sig:";

	static final String STAMP = " at:";

	static final String SEQUENCE = " n:";

	/** What {@link Signed#sentAt()} is for a message without a stamp. */
	static final long NOT_STAMPED = -1;

	// Enough for any epoch millisecond or sequence number, and no overflow.
	private static final int MAX_DIGITS = 18;

	private static final Log logger = LogFactory.getLog(MessageSignature.class);

	private final @Nullable PartitionSecret secret;

	// Redis's time now, as this instance estimates it (RedisClock), or RedisClock.UNKNOWN.
	private final LongSupplier redisNow;

	private final AtomicLong sequence = new AtomicLong();

	private final ReplayGuard guard = new ReplayGuard();

	private final Map<MessageRejection, LongAdder> rejected = new EnumMap<>(MessageRejection.class);

	private final Map<MessageRejection, AtomicBoolean> logged = new EnumMap<>(MessageRejection.class);

	MessageSignature(@Nullable PartitionSecret secret, LongSupplier redisNow) {
		this.secret = secret;
		this.redisNow = redisNow;
		for (MessageRejection reason : MessageRejection.values()) {
			this.rejected.put(reason, new LongAdder());
			this.logged.put(reason, new AtomicBoolean());
		}
	}

	/**
	 * Whether messages are signed (and stamped): a partition secret is set.
	 */
	boolean signs() {
		return this.secret != null;
	}

	/**
	 * The text to publish.
	 * @param message an encoded message
	 * @return the message, stamped with Redis's time and the next sequence number, followed
	 * by its signature; or the message alone without a secret
	 */
	String sign(String message) {
		if (this.secret == null) {
			return message;
		}
		String stamped = message + STAMP + Math.max(0, this.redisNow.getAsLong()) + SEQUENCE
				+ this.sequence.incrementAndGet();
		return stamped + SEPARATOR + this.secret.sign(stamped);
	}

	/**
	 * The message a received text carries, if its signature may be trusted; whether it is
	 * fresh is {@link #fresh}'s to say.
	 * @param text what was received
	 * @return the message without its stamp and signature; {@code null} when a secret is set
	 * and the signature is missing or wrong
	 */
	@Nullable Signed verified(String text) {
		if (this.secret == null) {
			return new Signed(text, NOT_STAMPED, NOT_STAMPED);
		}
		int at = text.lastIndexOf(SEPARATOR);
		if (at >= 0) {
			String stamped = text.substring(0, at);
			if (this.secret.verify(stamped, text.substring(at + SEPARATOR.length()))) {
				return unstamped(stamped);
			}
		}
		reject(MessageRejection.SIGNATURE, (at >= 0) ? "with a wrong signature" : "without a signature",
				"another instance has a different retry-after.cooldown.partition-secret, or none");
		return null;
	}

	/**
	 * Whether a verified message is sent recently and heard for the first time; drops and
	 * counts it if not. Always true without a secret.
	 * @param publisher the id of the store that published it
	 * @param signed the verified message
	 * @return whether to apply it
	 */
	boolean fresh(String publisher, Signed signed) {
		if (this.secret == null) {
			return true;
		}
		if (signed.sentAt() == NOT_STAMPED) {
			reject(MessageRejection.STALE, "without a stamp",
					"an instance of an older version sent it, or it was recorded from one");
			return false;
		}
		return switch (this.guard.check(publisher, signed.sentAt(), signed.sequence(), this.redisNow.getAsLong())) {
			case FRESH -> true;
			case STALE -> reject(MessageRejection.STALE, "stamped over " + ReplayGuard.MAX_AGE.toSeconds()
					+ " s away from Redis's time", "it was recorded and published again, or Redis's clock jumped");
			case REPLAYED -> reject(MessageRejection.REPLAYED, "heard before",
					"it was recorded and published again");
		};
	}

	/**
	 * How many received messages were dropped for a missing or wrong signature.
	 * @return the count
	 */
	long rejectedCount() {
		return rejectedCount(MessageRejection.SIGNATURE);
	}

	long rejectedCount(MessageRejection reason) {
		return this.rejected.get(reason).sum();
	}

	// A message signed by a version before stamps has none: it is handed on as unstamped.
	private static Signed unstamped(String stamped) {
		int n = stamped.lastIndexOf(SEQUENCE);
		int at = stamped.lastIndexOf(STAMP);
		if (at >= 0 && n > at) {
			long sentAt = digits(stamped, at + STAMP.length(), n);
			long sequence = digits(stamped, n + SEQUENCE.length(), stamped.length());
			if (sentAt >= 0 && sequence > 0) {
				return new Signed(stamped.substring(0, at), sentAt, sequence);
			}
		}
		return new Signed(stamped, NOT_STAMPED, NOT_STAMPED);
	}

	// The number written from start to end, or -1 when that is not 1 to 18 ASCII digits.
	private static long digits(String text, int start, int end) {
		if (end <= start || end - start > MAX_DIGITS) {
			return -1;
		}
		long value = 0;
		for (int i = start; i < end; i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return -1;
			}
			value = value * 10 + (c - '0');
		}
		return value;
	}

	private boolean reject(MessageRejection reason, String what, String why) {
		this.rejected.get(reason).increment();
		if (this.logged.get(reason).compareAndSet(false, true) && logger.isDebugEnabled()) {
			// The text is not logged: it came from whoever could publish on the channel.
			logger.debug("Dropped a cooldown message " + what + ": " + why + "; later ones are only counted");
		}
		return false;
	}

	/**
	 * A message whose signature was checked, with its stamp.
	 * @param message the message, without stamp and signature
	 * @param sentAt when it was sent, in Redis's epoch milliseconds; {@link #NOT_STAMPED}
	 * unsigned or without a stamp
	 * @param sequence its publisher's sequence number; {@link #NOT_STAMPED} likewise
	 */
	record Signed(String message, long sentAt, long sequence) {
	}

}
