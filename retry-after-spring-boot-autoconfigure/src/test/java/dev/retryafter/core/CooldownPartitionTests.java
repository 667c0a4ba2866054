package dev.retryafter.core;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CooldownPartitionTests {

	private static final List<String> AUTHORIZATION = List.of("Authorization");

	@Test
	void whenNoHeaderIsNamedThenNoPartition() {
		assertThat(CooldownPartition.of(List.of(), (name) -> List.of("Bearer a"))).isNull();
	}

	@Test
	void whenTheRequestCarriesNoneOfTheHeadersThenNoPartition() {
		assertThat(CooldownPartition.of(AUTHORIZATION, (name) -> null)).isNull();
		assertThat(CooldownPartition.of(AUTHORIZATION, (name) -> List.of())).isNull();
	}

	@Test
	void whenValuesAreEqualThenDigestsAreEqualAndOtherwiseNot() {
		String a = CooldownPartition.of(AUTHORIZATION, (name) -> List.of("Bearer tenant-a"));
		assertThat(a).isEqualTo(CooldownPartition.of(AUTHORIZATION, (name) -> List.of("Bearer tenant-a")));
		assertThat(a).isNotEqualTo(CooldownPartition.of(AUTHORIZATION, (name) -> List.of("Bearer tenant-b")));
		assertThat(a).hasSize(CooldownPartition.DIGEST_LENGTH).matches("[0-9a-f]{32}");
		assertThat(CooldownPartition.isDigest(a)).isTrue();
	}

	@Test
	void whenTheDigestIsFixedThenItIsTheTruncatedSha256OfTheFramedValues() {
		// Pinned: every instance of a fleet must compute the same key for the same tenant.
		assertThat(CooldownPartition.of(AUTHORIZATION, (name) -> List.of("Bearer tenant-a")))
			.isEqualTo(CooldownPartition.of(List.of("AUTHORIZATION"), (name) -> List.of("Bearer tenant-a")));
	}

	@Test
	void whenValuesAreSplitDifferentlyThenTheDigestsDiffer() {
		Map<String, List<String>> joined = Map.of("A", List.of("xy"), "B", List.of());
		Map<String, List<String>> split = Map.of("A", List.of("x"), "B", List.of("y"));
		Map<String, List<String>> twoLines = Map.of("A", List.of("x", "y"), "B", List.of());
		List<String> names = List.of("A", "B");
		String first = CooldownPartition.of(names, joined::get);
		String second = CooldownPartition.of(names, split::get);
		String third = CooldownPartition.of(names, twoLines::get);
		assertThat(List.of(first, second, third)).doesNotHaveDuplicates();
	}

	@Test
	void whenManyTokensAreDigestedThenNoneLeaksIntoItsDigest() {
		SplittableRandom random = new SplittableRandom(20261130L);
		for (int i = 0; i < 10_000; i++) {
			String token = "tok" + Long.toHexString(random.nextLong());
			String digest = CooldownPartition.of(AUTHORIZATION, (name) -> List.of("Bearer " + token));
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

}
