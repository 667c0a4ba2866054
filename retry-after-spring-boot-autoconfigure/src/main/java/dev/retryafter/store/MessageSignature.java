package dev.retryafter.store;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Signs the store's messages with the partition secret and checks those it hears, so that
 * only instances holding the secret can start or end cooldowns through the channel (anyone
 * who may publish on a Redis channel may otherwise hold a whole fleet back). A message
 * without a valid signature is dropped and counted, and the first one is logged at DEBUG:
 * they come from the network, so they never throw and never flood the log.
 * <p>
 * Without a secret, messages are sent and read unsigned, as before there were secrets: they
 * then carry no partition digests (start-up requires a secret with partition headers), only
 * origins, and whoever can publish on the channel can as well write the keys every instance
 * reads when it connects, so a signature would protect nothing Redis's own access control
 * does not.
 */
final class MessageSignature {

	/** What separates a message from its signature: never part of an unsigned message. */
	static final String SEPARATOR = " sig:";

	private static final Log logger = LogFactory.getLog(MessageSignature.class);

	private final @Nullable PartitionSecret secret;

	private final LongAdder rejected = new LongAdder();

	private final AtomicBoolean logged = new AtomicBoolean();

	MessageSignature(@Nullable PartitionSecret secret) {
		this.secret = secret;
	}

	/**
	 * The text to publish.
	 * @param message an encoded message
	 * @return the message followed by its signature, or the message alone without a secret
	 */
	String sign(String message) {
		return (this.secret != null) ? message + SEPARATOR + this.secret.sign(message) : message;
	}

	/**
	 * The message a received text carries, if it may be trusted.
	 * @param text what was received
	 * @return the message without its signature; {@code null} when a secret is set and the
	 * signature is missing or wrong
	 */
	@Nullable String verified(String text) {
		if (this.secret == null) {
			return text;
		}
		int at = text.lastIndexOf(SEPARATOR);
		if (at >= 0) {
			String message = text.substring(0, at);
			if (this.secret.verify(message, text.substring(at + SEPARATOR.length()))) {
				return message;
			}
		}
		this.rejected.increment();
		if (this.logged.compareAndSet(false, true) && logger.isDebugEnabled()) {
			// The text is not logged: it came from whoever could publish on the channel.
			logger.debug("Dropped a cooldown message " + ((at >= 0) ? "with a wrong signature" : "without a signature")
					+ ": another instance has a different retry-after.cooldown.partition-secret, or none; "
					+ "later ones are only counted");
		}
		return null;
	}

	/**
	 * How many received messages were dropped for a missing or wrong signature.
	 * @return the count
	 */
	long rejectedCount() {
		return this.rejected.sum();
	}

}
