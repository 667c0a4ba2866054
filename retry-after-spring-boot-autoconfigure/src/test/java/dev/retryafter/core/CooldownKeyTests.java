package dev.retryafter.core;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CooldownKeyTests {

	private static final Origin ORIGIN = Origin.of("https", "api.example.com", -1);

	private static final String DIGEST = "0123456789abcdef0123456789abcdef";

	@Test
	void whenUnpartitionedThenTheKeyIsTheOriginText() {
		CooldownKey key = CooldownKey.of(ORIGIN);
		assertThat(key).hasToString("https://api.example.com:443");
		assertThat(key.partitionPrefix()).isNull();
		assertThat(CooldownKey.parse("https://api.example.com:443")).contains(key);
	}

	@Test
	void whenPartitionedThenTheDigestFollowsAHash() {
		CooldownKey key = new CooldownKey(ORIGIN, DIGEST);
		assertThat(key).hasToString("https://api.example.com:443#" + DIGEST);
		assertThat(key.partitionPrefix()).isEqualTo("01234567");
		assertThat(CooldownKey.parse(key.toString())).contains(key);
	}

	@Test
	void whenTheTextIsMalformedThenParseGivesNothing() {
		assertThat(CooldownKey.parse("https://api.example.com:443#short")).isEqualTo(Optional.empty());
		assertThat(CooldownKey.parse("https://api.example.com:443#" + DIGEST.toUpperCase())).isEmpty();
		assertThat(CooldownKey.parse("#" + DIGEST)).isEmpty();
		assertThat(CooldownKey.parse("not a key")).isEmpty();
		assertThat(CooldownKey.parse("")).isEmpty();
	}

	@Test
	void whenThePartitionIsNotADigestThenRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> new CooldownKey(ORIGIN, "Bearer secret"))
			.withMessage("Cooldown partition must be 32 lower-case hex digits");
	}

}
