package dev.retryafter.core;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class CooldownPartitionTests {

	private static final List<String> AUTHORIZATION = List.of("Authorization");

	private static final Origin API = Origin.of("https", "api.example.com", 443);

	private static final CooldownPartition.KeyedHash KEY_A = hmac("secret-a");

	private static final CooldownPartition.KeyedHash KEY_B = hmac("secret-b");

	@Test
	void whenOneTenantCallsTwoOriginsThenItsDigestsAreUnrelated() {
		// Whoever reads the keys of a shared store cannot link one tenant across origins.
		Origin other = Origin.of("https", "billing.example.com", 443);
		String onApi = CooldownPartition.of(API, AUTHORIZATION, (name) -> List.of("Bearer tenant-a"), KEY_A);
		String onOther = CooldownPartition.of(other, AUTHORIZATION, (name) -> List.of("Bearer tenant-a"), KEY_A);
		assertThat(onApi).isNotEqualTo(onOther);
		assertThat(onApi.substring(0, 8)).isNotEqualTo(onOther.substring(0, 8));
		// The origin's text form is what is hashed: the same origin, however written, is one.
		assertThat(CooldownPartition.of(Origin.of("HTTPS", "API.example.com", -1), AUTHORIZATION,
				(name) -> List.of("Bearer tenant-a"), KEY_A))
			.isEqualTo(onApi);
		// Nor can a port be moved into a header value: the origin is framed on its own.
		assertThat(CooldownPartition.of(Origin.of("https", "api.example.com", 8443), AUTHORIZATION,
				(name) -> List.of("Bearer tenant-a"), KEY_A))
			.isNotEqualTo(onApi);
	}

	@Test
	void whenNoHeaderIsNamedThenNoPartition() {
		assertThat(CooldownPartition.of(API, List.of(), (name) -> List.of("Bearer a"), KEY_A)).isNull();
	}

	@Test
	void whenTheRequestCarriesNoneOfTheHeadersThenNoPartition() {
		assertThat(CooldownPartition.of(API, AUTHORIZATION, (name) -> null, KEY_A)).isNull();
		assertThat(CooldownPartition.of(API, AUTHORIZATION, (name) -> List.of(), KEY_A)).isNull();
	}

	@Test
	void whenValuesAreEqualThenDigestsAreEqualAndOtherwiseNot() {
		String a = CooldownPartition.of(API, AUTHORIZATION, (name) -> List.of("Bearer tenant-a"), KEY_A);
		assertThat(a).isEqualTo(CooldownPartition.of(API, AUTHORIZATION, (name) -> List.of("Bearer tenant-a"), KEY_A));
		assertThat(a).isNotEqualTo(CooldownPartition.of(API, AUTHORIZATION, (name) -> List.of("Bearer tenant-b"), KEY_A));
		assertThat(a).hasSize(CooldownPartition.DIGEST_LENGTH).matches("[0-9a-f]{32}");
		assertThat(CooldownPartition.isDigest(a)).isTrue();
	}

	@Test
	void whenHeaderNamesDifferInCaseThenTheDigestIsTheSame() {
		assertThat(CooldownPartition.of(API, AUTHORIZATION, (name) -> List.of("Bearer tenant-a"), KEY_A))
			.isEqualTo(CooldownPartition.of(API, List.of("AUTHORIZATION"), (name) -> List.of("Bearer tenant-a"), KEY_A));
	}

	@Test
	void whenTheDigestIsFixedThenItIsTheTruncatedKeyedHashOfTheFramedValues() {
		// Pinned: every instance of a fleet must frame the same values the same way. Framing:
		// the length-prefixed UTF-16 origin, then per header its length-prefixed UTF-16 name,
		// value count and length-prefixed UTF-16 values.
		String framed = "0000001b" + utf16("https://api.example.com:443") + "0000000d" + utf16("authorization")
				+ "00000001" + "00000001" + utf16("t");
		byte[] expected = hmac("secret-a").hash(HexFormat.of().parseHex(framed));
		assertThat(CooldownPartition.of(API, AUTHORIZATION, (name) -> List.of("t"), KEY_A))
			.isEqualTo(HexFormat.of().formatHex(expected, 0, 16));
	}

	@Test
	void whenKeysDifferThenTheSameTokenGetsUnrelatedDigests() {
		// A digest read from a Redis key cannot be recomputed from a guessed token without the key.
		String underA = CooldownPartition.of(API, AUTHORIZATION, (name) -> List.of("Bearer 1234"), KEY_A);
		String underB = CooldownPartition.of(API, AUTHORIZATION, (name) -> List.of("Bearer 1234"), KEY_B);
		assertThat(underA).isNotEqualTo(underB);
		assertThat(underA).isNotEqualTo(sha256Prefix("Bearer 1234"));
	}

	@Test
	void whenTheHashIsTooShortThenItIsRejected() {
		assertThatIllegalStateException()
			.isThrownBy(() -> CooldownPartition.of(API, AUTHORIZATION, (name) -> List.of("t"), (input) -> new byte[15]));
	}

	@Test
	void whenValuesAreSplitDifferentlyThenTheDigestsDiffer() {
		Map<String, List<String>> joined = Map.of("A", List.of("xy"), "B", List.of());
		Map<String, List<String>> split = Map.of("A", List.of("x"), "B", List.of("y"));
		Map<String, List<String>> twoLines = Map.of("A", List.of("x", "y"), "B", List.of());
		List<String> names = List.of("A", "B");
		String first = CooldownPartition.of(API, names, joined::get, KEY_A);
		String second = CooldownPartition.of(API, names, split::get, KEY_A);
		String third = CooldownPartition.of(API, names, twoLines::get, KEY_A);
		assertThat(List.of(first, second, third)).doesNotHaveDuplicates();
	}

	@Test
	void whenManyTokensAreDigestedThenNoneLeaksIntoItsDigest() {
		SplittableRandom random = new SplittableRandom(20261130L);
		for (int i = 0; i < 10_000; i++) {
			String token = "tok" + Long.toHexString(random.nextLong());
			String digest = CooldownPartition.of(API, AUTHORIZATION, (name) -> List.of("Bearer " + token), KEY_A);
			CooldownKey key = new CooldownKey(Origin.of("https", "api.example.com", -1), digest);
			assertThat(key.toString()).doesNotContain(token).doesNotContain("Bearer");
			assertThat(key.partitionPrefix()).isEqualTo(digest.substring(0, 8));
		}
	}

	@Test
	void whenTextIsNotADigestThenRejected() {
		assertThat(CooldownPartition.isDigest("0".repeat(31))).isFalse();
		assertThat(CooldownPartition.isDigest("0".repeat(33))).isFalse();
		assertThat(CooldownPartition.isDigest("A".repeat(32))).isFalse();
		assertThat(CooldownPartition.isDigest("g".repeat(32))).isFalse();
	}

	private static String utf16(String text) {
		return HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_16BE));
	}

	private static String sha256Prefix(String text) {
		try {
			byte[] hash = MessageDigest.getInstance("SHA-256")
				.digest(text.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(hash, 0, 16);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static CooldownPartition.KeyedHash hmac(String key) {
		return (input) -> {
			try {
				Mac mac = Mac.getInstance("HmacSHA256");
				mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
				return mac.doFinal(input);
			}
			catch (GeneralSecurityException ex) {
				throw new IllegalStateException(ex);
			}
		};
	}

}
