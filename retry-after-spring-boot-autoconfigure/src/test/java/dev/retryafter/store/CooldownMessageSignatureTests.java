package dev.retryafter.store;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
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
		String text = COOLDOWN.encode(new MessageSignature(SECRET));
		assertThat(text).startsWith(COOLDOWN.encode() + " sig:").matches(".* sig:[0-9a-f]{64}");
		MessageSignature receiver = new MessageSignature(PartitionSecret.of("0123456789abcdefghijklmnopqrstuvwxyz"));
		assertThat(CooldownMessage.decode(text, receiver)).contains(COOLDOWN);
		assertThat(receiver.rejectedCount()).isZero();
	}

	@Test
	void whenNoSecretIsSetThenMessagesAreSentAndReadUnsigned() {
		MessageSignature none = new MessageSignature(null);
		assertThat(COOLDOWN.encode(none)).isEqualTo(COOLDOWN.encode());
		assertThat(CooldownMessage.decode(COOLDOWN.encode(), none)).contains(COOLDOWN);
		// A signed message is not understood without the secret: the fleet disagrees.
		assertThat(CooldownMessage.decode(COOLDOWN.encode(new MessageSignature(SECRET)), none)).isEmpty();
	}

	@Test
	void whenUnsignedOrWronglySignedThenDroppedCountedAndLoggedOnce() {
		MessageSignature receiver = new MessageSignature(SECRET);
		String other = COOLDOWN.encode(new MessageSignature(PartitionSecret.random()));
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
		String signed = COOLDOWN.encode(new MessageSignature(SECRET));
		String signature = signed.substring(signed.lastIndexOf(" sig:"));
		String longer = CooldownMessage.cooldown(60000, "instance-1", COOLDOWN.key()).encode() + signature;
		assertThat(CooldownMessage.decode(longer, new MessageSignature(SECRET))).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " sig:", "sig:", " sig: sig:", "heartbeat x sig:zz", "cooldown sig:" + "a",
			"\u0000 sig:\u0000", "end * sig:" })
	void whenMalformedThenDroppedWithoutThrowing(String text) {
		MessageSignature receiver = new MessageSignature(SECRET);
		assertThat(CooldownMessage.decode(text, receiver)).isEmpty();
		assertThat(receiver.rejectedCount()).isOne();
	}

}
