package dev.retryafter.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

import dev.retryafter.core.CooldownPartition;
import dev.retryafter.core.Origin;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PartitionSecretTests {

	private static final String SECRET = "0123456789abcdefghijklmnopqrstuvwxyz";

	@Test
	void whenTwoInstancesHoldTheSameSecretThenTheyComputeTheSameDigest() {
		assertThat(digest(PartitionSecret.of(SECRET), "Bearer tenant-a"))
			.isEqualTo(digest(PartitionSecret.of(SECRET), "Bearer tenant-a"))
			.isNotEqualTo(digest(PartitionSecret.of(SECRET), "Bearer tenant-b"));
	}

	@Test
	void whenSecretsDifferThenDigestsDiffer() {
		assertThat(digest(PartitionSecret.of(SECRET), "Bearer tenant-a"))
			.isNotEqualTo(digest(PartitionSecret.of(SECRET + "!"), "Bearer tenant-a"))
			.isNotEqualTo(digest(PartitionSecret.random(), "Bearer tenant-a"));
	}

	@Test
	void whenNoSecretIsConfiguredThenTheJvmsOwnIsTheSameEverywhereInIt() {
		assertThat(PartitionSecret.perJvm()).isSameAs(PartitionSecret.perJvm());
		assertThat(digest(PartitionSecret.perJvm(), "Bearer tenant-a"))
			.isEqualTo(digest(PartitionSecret.perJvm(), "Bearer tenant-a"));
	}

	@Test
	void whenShorterThan32CharactersThenRejectedWithoutShowingIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> PartitionSecret.of("short-secret-value"))
			.withMessage("must be at least 32 characters long")
			.withMessageNotContaining("short-secret-value");
		assertThat(PartitionSecret.of("x".repeat(32))).isNotNull();
	}

	@Test
	void whenPrintedThenTheSecretIsHidden() {
		assertThat(PartitionSecret.of(SECRET)).hasToString("PartitionSecret[hidden]");
	}

	@Test
	void whenSignedThenOnlyTheSameSecretVerifies() {
		PartitionSecret secret = PartitionSecret.of(SECRET);
		String signature = secret.sign("cooldown 1000 a http://127.0.0.1:8080");
		assertThat(signature).matches("[0-9a-f]{64}");
		assertThat(PartitionSecret.of(SECRET).verify("cooldown 1000 a http://127.0.0.1:8080", signature)).isTrue();
		assertThat(secret.verify("cooldown 9000 a http://127.0.0.1:8080", signature)).isFalse();
		assertThat(PartitionSecret.of(SECRET + "!").verify("cooldown 1000 a http://127.0.0.1:8080", signature))
			.isFalse();
		assertThat(secret.verify("cooldown 1000 a http://127.0.0.1:8080", "")).isFalse();
		assertThat(secret.verify("cooldown 1000 a http://127.0.0.1:8080", "é".repeat(64))).isFalse();
	}

	@Test
	void whenTheSameBytesAreSignedAndDigestedThenTheResultsAreUnrelated() {
		// One key per use: a signature never doubles as a partition digest.
		PartitionSecret secret = PartitionSecret.of(SECRET);
		byte[] input = "x".getBytes(StandardCharsets.UTF_8);
		String digest = HexFormat.of().formatHex(secret.partitionHash().hash(input));
		assertThat(secret.sign("x")).isNotEqualTo(digest);
	}

	@Test
	void whenUsedFromManyThreadsThenEveryDigestIsTheSame() throws Exception {
		PartitionSecret secret = PartitionSecret.of(SECRET);
		String expected = digest(secret, "Bearer tenant-a");
		List<String> digests = Collections.synchronizedList(new ArrayList<>());
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			Thread thread = new Thread(() -> {
				for (int j = 0; j < 500; j++) {
					digests.add(digest(secret, "Bearer tenant-a"));
				}
			});
			thread.start();
			threads.add(thread);
		}
		for (Thread thread : threads) {
			thread.join();
		}
		assertThat(digests).hasSize(4000).containsOnly(expected);
	}

	private static String digest(PartitionSecret secret, String authorization) {
		return CooldownPartition.of(Origin.of("https", "api.example.com", 443), List.of("Authorization"), (name) -> List.of(authorization),
				secret.partitionHash());
	}

}
