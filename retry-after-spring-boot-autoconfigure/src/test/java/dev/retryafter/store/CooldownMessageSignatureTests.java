package dev.retryafter.store;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Messages signed with the partition secret: what is accepted, what is dropped, and what is
 * logged about it.
 */
class CooldownMessageSignatureTests {

	private static final PartitionSecret SECRET = PartitionSecret.of("0123456789abcdefghijklmnopqrstuvwxyz");

	private static final CooldownMessage COOLDOWN = CooldownMessage.cooldown(30000, "instance-1",
			new CooldownKey(Origin.of("https", "api.example.com", 443), "0123456789abcdef0123456789abcdef"));

	private static final long SENT_AT = 1_796_000_000_000L;

	private final Logger logger = (Logger) LoggerFactory.getLogger(MessageSignature.class);

	private final ListAppender<ILoggingEvent> log = new ListAppender<>();

	private Level level;

	@BeforeEach
	void captureLog() {
		this.level = this.logger.getLevel();
		this.logger.setLevel(Level.DEBUG);
		this.log.start();
		this.logger.addAppender(this.log);
	}

	@AfterEach
	void releaseLog() {
		this.logger.detachAppender(this.log);
		this.logger.setLevel(this.level);
	}

	@Test
	void whenSignedThenTheSameSecretDecodesIt() {
		String text = COOLDOWN.encode(signer(SECRET));
		// Stamped with Redis's time and a sequence number, both under the signature.
		assertThat(text).startsWith(COOLDOWN.encode() + " at:" + SENT_AT + " n:1 sig:")
			.matches(".* sig:[0-9a-f]{64}");
		MessageSignature receiver = signer(PartitionSecret.of("0123456789abcdefghijklmnopqrstuvwxyz"));
		assertThat(CooldownMessage.decode(text, receiver)).contains(COOLDOWN);
		assertThat(receiver.rejectedCount()).isZero();
	}

	@Test
	void whenNoSecretIsSetThenMessagesAreSentAndReadUnsigned() {
		MessageSignature none = signer(null);
		assertThat(COOLDOWN.encode(none)).isEqualTo(COOLDOWN.encode());
		assertThat(CooldownMessage.decode(COOLDOWN.encode(), none)).contains(COOLDOWN);
		// A signed message is not understood without the secret: the fleet disagrees.
		assertThat(CooldownMessage.decode(COOLDOWN.encode(signer(SECRET)), none)).isEmpty();
	}

	@Test
	void whenUnsignedOrWronglySignedThenDroppedCountedAndLoggedOnce() {
		MessageSignature receiver = signer(SECRET);
		String other = COOLDOWN.encode(signer(PartitionSecret.random()));
		assertThat(CooldownMessage.decode(COOLDOWN.encode(), receiver)).isEmpty();
		assertThat(CooldownMessage.decode(other, receiver)).isEmpty();
		assertThat(CooldownMessage.decode(COOLDOWN.encode() + " sig:" + "0".repeat(64), receiver)).isEmpty();
		assertThat(receiver.rejectedCount()).isEqualTo(3);
		assertThat(this.log.list).singleElement().satisfies((event) -> {
			assertThat(event.getLevel()).isEqualTo(Level.DEBUG);
			assertThat(event.getFormattedMessage()).contains("retry-after.cooldown.partition-secret")
				.doesNotContain("api.example.com");
		});
	}

	@Test
	void whenASignatureIsMovedToAnotherMessageThenItIsDropped() {
		String signed = COOLDOWN.encode(signer(SECRET));
		String signature = signed.substring(signed.lastIndexOf(" sig:"));
		String longer = CooldownMessage.cooldown(60000, "instance-1", COOLDOWN.key()).encode() + signature;
		assertThat(CooldownMessage.decode(longer, signer(SECRET))).isEmpty();
	}

	@Test
	void whenAMessageIsHeardTwiceThenTheSecondIsDroppedAndCountedAsReplayed() {
		MessageSignature sender = signer(SECRET);
		MessageSignature receiver = signer(SECRET);
		String first = COOLDOWN.encode(sender);
		String second = COOLDOWN.encode(sender);
		assertThat(second).isNotEqualTo(first).contains(" n:2 sig:");
		assertThat(receiver.fresh("instance-1", receiver.verified(first))).isTrue();
		assertThat(receiver.fresh("instance-1", receiver.verified(second))).isTrue();
		assertThat(receiver.fresh("instance-1", receiver.verified(first))).isFalse();
		assertThat(receiver.rejectedCount(MessageRejection.REPLAYED)).isOne();
		assertThat(receiver.rejectedCount(MessageRejection.STALE)).isZero();
		assertThat(receiver.rejectedCount()).isZero();
	}

	@Test
	void whenAMessageIsStampedLongAgoThenItIsDroppedAndCountedAsStale() {
		String old = COOLDOWN.encode(new MessageSignature(SECRET, () -> SENT_AT - 30_001));
		MessageSignature receiver = signer(SECRET);
		MessageSignature.Signed signed = receiver.verified(old);
		assertThat(signed).isNotNull();
		assertThat(signed.message()).isEqualTo(COOLDOWN.encode());
		assertThat(signed.sentAt()).isEqualTo(SENT_AT - 30_001);
		assertThat(receiver.fresh("instance-1", signed)).isFalse();
		assertThat(receiver.rejectedCount(MessageRejection.STALE)).isOne();
		// Before this instance knows Redis's time, nothing can be judged recent.
		MessageSignature starting = new MessageSignature(SECRET, () -> RedisClock.UNKNOWN);
		assertThat(starting.fresh("instance-1", starting.verified(COOLDOWN.encode(signer(SECRET))))).isFalse();
	}

	@Test
	void whenASignedMessageHasNoStampThenItIsAnOlderVersionsAndDroppedAsStale() {
		// What an instance of a version before stamps publishes: the signature covers the
		// message alone.
		String older = COOLDOWN.encode() + " sig:" + SECRET.sign(COOLDOWN.encode());
		MessageSignature receiver = signer(SECRET);
		MessageSignature.Signed signed = receiver.verified(older);
		assertThat(signed).isNotNull();
		assertThat(signed.sentAt()).isEqualTo(MessageSignature.NOT_STAMPED);
		assertThat(receiver.fresh("instance-1", signed)).isFalse();
		assertThat(receiver.rejectedCount(MessageRejection.STALE)).isOne();
		assertThat(receiver.rejectedCount()).isZero();
	}

	@Test
	void whenNoSecretIsSetThenEveryMessageIsFresh() {
		MessageSignature none = signer(null);
		MessageSignature.Signed signed = none.verified(COOLDOWN.encode());
		assertThat(none.fresh("instance-1", signed)).isTrue();
		assertThat(none.fresh("instance-1", signed)).isTrue();
		for (MessageRejection reason : MessageRejection.values()) {
			assertThat(none.rejectedCount(reason)).isZero();
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { " at:", " at: n:", " at:12 n:", " at:x n:1", " at:-1 n:1", " at:1 n:0",
			" at:1 n:1234567890123456789", " n:1 at:1" })
	void whenTheStampIsMalformedThenItIsTakenForNoStamp(String stamp) {
		String stamped = COOLDOWN.encode() + stamp;
		MessageSignature receiver = signer(SECRET);
		MessageSignature.Signed signed = receiver.verified(stamped + " sig:" + SECRET.sign(stamped));
		assertThat(signed).isNotNull();
		assertThat(signed.sentAt()).isEqualTo(MessageSignature.NOT_STAMPED);
		assertThat(receiver.fresh("instance-1", signed)).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " sig:", "sig:", " sig: sig:", "heartbeat x sig:zz", "cooldown sig:" + "a",
			"\u0000 sig:\u0000", "end * sig:" })
	void whenMalformedThenDroppedWithoutThrowing(String text) {
		MessageSignature receiver = signer(SECRET);
		assertThat(CooldownMessage.decode(text, receiver)).isEmpty();
		assertThat(receiver.rejectedCount()).isOne();
	}

	private static MessageSignature signer(@Nullable PartitionSecret secret) {
		return new MessageSignature(secret, () -> SENT_AT);
	}

}
