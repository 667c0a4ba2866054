package dev.retryafter.core.header;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RateLimitParser} and the structured-field list it reads.
 */
class RateLimitParserTests {

	private static final Instant RECEIVED = Instant.parse("2026-12-01T12:00:00.750Z");

	private static final Set<RateLimitFields> BOTH = Set.of(RateLimitFields.IETF, RateLimitFields.X_RATELIMIT);

	@Test
	void whenTheDraftsExampleIsSentThenItsQuotaIsRead() {
		RateLimitReading reading = parse(Map.of("ratelimit-policy", "\"default\";q=100;w=60;qu=\"requests\"",
				"ratelimit", "\"default\";r=50;t=30"));

		assertThat(reading).isEqualTo(new RateLimitReading("default", 50, Duration.ofSeconds(30), 100,
				Duration.ofSeconds(60), RateLimitFields.IETF));
	}

	@Test
	void whenTheNamesAreTokensAndThereArePartitionKeysAndUnknownParametersThenTheyAreRead() {
		RateLimitReading reading = parse(Map.of("ratelimit-policy",
				"burst;q=10;w=1;pk=:cHJvZmlsZQ==:;x-extra=?1;ratio=0.5, day;q=1000;w=86400",
				"ratelimit", "burst;r=3;t=1;pk=:cHJvZmlsZQ==:;foo=bar, day;r=900;t=5000"));

		assertThat(reading).isEqualTo(new RateLimitReading("burst", 3, Duration.ofSeconds(1), 10,
				Duration.ofSeconds(1), RateLimitFields.IETF, reading.partitionKey()));
		// Kept as a one-way digest only: never the raw key, which may come from a credential.
		assertThat(reading.partitionKey()).hasSize(16).matches("[0-9a-f]+").doesNotContain("cHJvZmlsZQ");
	}

	@Test
	void whenTwoPartitionKeysDifferThenTheirDigestsDifferAndAnItemWithoutOneTakesItsPolicys() {
		RateLimitReading one = parse(Map.of("ratelimit", "\"a\";r=3;t=1;pk=:b25l:"));
		RateLimitReading two = parse(Map.of("ratelimit", "\"a\";r=3;t=1;pk=:dHdv:"));
		RateLimitReading fromPolicy = parse(
				Map.of("ratelimit-policy", "\"a\";q=10;w=1;pk=:b25l:", "ratelimit", "\"a\";r=3;t=1"));
		RateLimitReading none = parse(Map.of("ratelimit", "\"a\";r=3;t=1"));

		assertThat(one.partitionKey()).isNotEqualTo(two.partitionKey()).isEqualTo(fromPolicy.partitionKey());
		assertThat(one.partitioned()).isTrue();
		assertThat(none.partitionKey()).isEmpty();
		assertThat(none.partitioned()).isFalse();
	}

	@Test
	void whenARateLimitItemHasNoPolicyThenItIsReadWithoutARate() {
		RateLimitReading reading = parse(Map.of("ratelimit", "\"x\";r=5;t=2"));

		assertThat(reading).isEqualTo(
				new RateLimitReading("x", 5, Duration.ofSeconds(2), 0, Duration.ZERO, RateLimitFields.IETF));
	}

	@Test
	void whenAnItemHasNoResetThenItsPolicysWindowIsTheReset() {
		RateLimitReading reading = parse(Map.of("ratelimit-policy", "\"m\";q=60;w=60", "ratelimit", "\"m\";r=7"));

		assertThat(reading.resetIn()).isEqualTo(Duration.ofSeconds(60));
	}

	@Test
	void whenAPolicyCountsBytesThenItsItemIsIgnored() {
		assertThat(parse(Map.of("ratelimit-policy", "\"b\";q=1000;qu=\"content-bytes\";w=1", "ratelimit",
				"\"b\";r=0;t=1")))
			.isNull();
		RateLimitReading reading = parse(Map.of("ratelimit-policy",
				"\"b\";q=1000;qu=\"content-bytes\";w=1, \"r\";q=10;w=1", "ratelimit", "\"b\";r=0;t=1, \"r\";r=4;t=1"));
		assertThat(reading.policy()).isEqualTo("r");
	}

	@Test
	void whenSeveralQuotasAreSentThenTheOneWithTheFewestRemainingIsRead() {
		RateLimitReading reading = parse(Map.of("ratelimit", "\"a\";r=9;t=1, \"b\";r=2;t=60, \"c\";r=2;t=5"));

		assertThat(reading.policy()).isEqualTo("b");
	}

	@Test
	void whenTheFieldHasSeveralLinesThenTheyAreOneList() {
		RateLimitReading reading = RateLimitParser.parse(lines(Map.of()).with("ratelimit",
				List.of("\"a\";r=9;t=1", "\"b\";r=2;t=4")), BOTH, RECEIVED);

		assertThat(reading.policy()).isEqualTo("b");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "   ", "\"a\";r=5;t=1,", ",\"a\";r=5;t=1", "\"a\";r=5;t=1,,\"b\";r=1",
			"\"a\";r=5;t=1 \"b\"", "\"a\";R=5;t=1, \"b\";r=1;t=1",
			"\"a;r=5;t=1", "(\"a\" \"b\");r=1", "\"a\";r=1;t=1;pk=:not base64!:", "\"a\";r=1;t=1;x=@1700000000",
			"\"a\";r=1;t=1;x=%\"d\"", "\"a\";r=1234567890123456;t=1", "\"a\";r=1;t=1;x=?2", "\"a\";r=1;;t=1",
			"\"\u00e9\";r=1;t=1", "\"a\\n\";r=1;t=1", "\"a\";r=1\t;t=1" })
	void whenTheRateLimitFieldIsMalformedThenItIsIgnoredWhole(String value) {
		assertThat(parse(Map.of("ratelimit", value))).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "\"a\";t=1", "\"a\";r=-1;t=1", "\"a\";r=1;t=-1", "\"a\";r=\"1\";t=1", "5;r=1;t=1",
			"\"a\";r=1;t=86401", "\"a\";r=1;t=1;pk=\"key\"" })
	void whenAnItemSaysNothingUsableThenItIsIgnored(String value) {
		assertThat(parse(Map.of("ratelimit", value))).isNull();
	}

	@Test
	void whenAnItemsParameterIsOfAnotherKindThenOnlyThatItemIsIgnored() {
		assertThat(parse(Map.of("ratelimit", "\"a\";r=5.5;t=1, \"b\";r=7;t=1")).policy()).isEqualTo("b");
	}

	@Test
	void whenThePolicyFieldIsMalformedThenTheQuotaIsReadWithoutARate() {
		RateLimitReading reading = parse(Map.of("ratelimit-policy", "\"a\";q=10;w=1,", "ratelimit", "\"a\";r=5;t=1"));

		assertThat(reading.hasRate()).isFalse();
		assertThat(reading.remaining()).isEqualTo(5);
	}

	@Test
	void whenMoreRemainThanThePolicyAllowsThenTheItemIsIgnored() {
		assertThat(parse(Map.of("ratelimit-policy", "\"a\";q=10;w=1", "ratelimit", "\"a\";r=11;t=1"))).isNull();
	}

	@Test
	void whenTheResponseHasRetryAfterThenRetryAfterDecides() {
		assertThat(parse(Map.of("ratelimit", "\"a\";r=0;t=30", "retry-after", "5"))).isNull();
	}

	@Test
	void whenTheResponseCameFromACacheThenItsQuotaIsIgnored() {
		assertThat(parse(Map.of("ratelimit", "\"a\";r=0;t=30", "age", "3"))).isNull();
		assertThat(parse(Map.of("x-ratelimit-remaining", "0", "x-ratelimit-reset", "30", "age", "0"))).isNull();
	}

	@Test
	void whenTheLegacyResetIsSmallThenItIsSecondsFromNow() {
		RateLimitReading reading = parse(
				Map.of("x-ratelimit-limit", "60", "x-ratelimit-remaining", "12", "x-ratelimit-reset", "42"));

		assertThat(reading).isEqualTo(new RateLimitReading("", 12, Duration.ofSeconds(42), 60, Duration.ofSeconds(42),
				RateLimitFields.X_RATELIMIT));
	}

	@Test
	void whenTheLegacyResetIsAUnixTimeThenItIsMeasuredFromTheResponse() {
		long reset = RECEIVED.getEpochSecond() + 1800;
		RateLimitReading reading = parse(Map.of("x-ratelimit-limit", "5000", "x-ratelimit-remaining", "4999",
				"x-ratelimit-reset", Long.toString(reset)));

		assertThat(reading.resetIn()).isEqualTo(Duration.ofSeconds(1800));
		assertThat(reading.window()).isEqualTo(Duration.ofSeconds(1800));
	}

	@Test
	void whenTheLegacyResetIsAUnixTimeInThePastThenTheQuotaResetsNow() {
		RateLimitReading reading = parse(Map.of("x-rate-limit-limit", "10", "x-rate-limit-remaining", "0",
				"x-rate-limit-reset", Long.toString(RECEIVED.getEpochSecond() - 5)));

		assertThat(reading.resetIn()).isZero();
		assertThat(reading.window()).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void whenTheLegacyResetHasAFractionThenItIsReadRoundedUp() {
		assertThat(parse(Map.of("x-ratelimit-remaining", "0", "x-ratelimit-reset", "1.5")).resetIn())
			.isEqualTo(Duration.ofMillis(1500));
		assertThat(parse(Map.of("x-ratelimit-remaining", "0", "x-ratelimit-reset",
				(RECEIVED.getEpochSecond() + 2) + ".25")).resetIn()).isEqualTo(Duration.ofMillis(1500));
	}

	@ParameterizedTest
	@ValueSource(strings = { "1764590400000", "86401", "-1", "1.", ".5", "", "1e3", "\u0663", "99999999999999999999" })
	void whenTheLegacyResetIsNonsenseThenTheFieldsAreIgnored(String reset) {
		assertThat(parse(Map.of("x-ratelimit-limit", "10", "x-ratelimit-remaining", "3", "x-ratelimit-reset", reset)))
			.isNull();
	}

	@Test
	void whenMoreRemainThanTheLegacyLimitThenTheFieldsAreIgnored() {
		assertThat(parse(Map.of("x-ratelimit-limit", "10", "x-ratelimit-remaining", "11", "x-ratelimit-reset", "1")))
			.isNull();
	}

	@Test
	void whenBothKindsAreSentThenTheIetfFieldsAreRead() {
		RateLimitReading reading = parse(Map.of("ratelimit", "\"a\";r=5;t=1", "x-ratelimit-remaining", "3",
				"x-ratelimit-reset", "1"));

		assertThat(reading.fields()).isEqualTo(RateLimitFields.IETF);
	}

	@Test
	void whenOnlyOneKindIsReadThenTheOtherIsIgnored() {
		Map<String, String> fields = Map.of("ratelimit", "\"a\";r=5;t=1", "x-ratelimit-remaining", "3",
				"x-ratelimit-reset", "1");

		assertThat(RateLimitParser.parse(lines(fields), Set.of(RateLimitFields.X_RATELIMIT), RECEIVED).fields())
			.isEqualTo(RateLimitFields.X_RATELIMIT);
		assertThat(RateLimitParser.parse(lines(Map.of("x-ratelimit-remaining", "3", "x-ratelimit-reset", "1")),
				Set.of(RateLimitFields.IETF), RECEIVED))
			.isNull();
	}

	@Test
	void whenAFieldIsLongerThanTheLimitThenItIsIgnored() {
		String value = "\"a\";r=5;t=1" + ", \"b\";r=5;t=1".repeat(StructuredFieldList.MAX_LENGTH / 10);

		assertThat(parse(Map.of("ratelimit", value))).isNull();
	}

	@Test
	void whenAStringHasEscapesThenTheyAreUnescaped() {
		assertThat(parse(Map.of("ratelimit", "\"a\\\"b\\\\c\";r=1;t=1")).policy()).isEqualTo("a\"b\\c");
	}

	private static RateLimitReading parse(Map<String, String> fields) {
		return RateLimitParser.parse(lines(fields), BOTH, RECEIVED);
	}

	static Lines lines(Map<String, String> fields) {
		Map<String, List<String>> lines = new HashMap<>();
		fields.forEach((name, value) -> lines.put(name, List.of(value)));
		return new Lines(lines);
	}

	/** Field lines by lower-case name, as a response's headers give them. */
	record Lines(Map<String, List<String>> byName) implements java.util.function.Function<String, List<String>> {

		@Override
		public List<String> apply(String name) {
			return this.byName.get(name);
		}

		Lines with(String name, List<String> lines) {
			Map<String, List<String>> copy = new HashMap<>(this.byName);
			copy.put(name, lines);
			return new Lines(copy);
		}

	}

}
