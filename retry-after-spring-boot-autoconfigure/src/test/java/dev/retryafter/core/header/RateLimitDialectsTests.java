package dev.retryafter.core.header;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The APIs' own quota dialects read through {@link RateLimitParser}, each in the form its
 * documentation gives: GitHub, GitLab, OpenAI, Anthropic and Discord.
 */
class RateLimitDialectsTests {

	private static final Instant RECEIVED = Instant.parse("2026-12-02T13:24:12.750Z");

	private static final long NOW = RECEIVED.getEpochSecond();

	private static final Set<RateLimitFields> ALL = EnumSet.allOf(RateLimitFields.class);

	@Test
	void whenGitHubAnnouncesItsQuotaThenTheResourceNamesIt() {
		RateLimitReading reading = parse(Map.of("x-ratelimit-limit", "5000", "x-ratelimit-remaining", "4999",
				"x-ratelimit-used", "1", "x-ratelimit-reset", Long.toString(NOW + 3600), "x-ratelimit-resource",
				"core"));

		assertThat(reading).isEqualTo(new RateLimitReading("core", 4999, Duration.ofHours(1), 5000,
				Duration.ofHours(1), RateLimitFields.GITHUB));
	}

	@ParameterizedTest
	@ValueSource(strings = { "3600", "-1", "1.5e9", "abc", "99999999999" })
	void whenGitHubsResetIsNoUnixTimeThenTheFieldsAreIgnored(String reset) {
		assertThat(parse(Map.of("x-ratelimit-remaining", "1", "x-ratelimit-used", "59", "x-ratelimit-reset", reset)))
			.isNull();
	}

	@Test
	void whenGitHubsResetIsMoreThanADayAwayThenTheFieldsAreIgnored() {
		assertThat(parse(Map.of("x-ratelimit-remaining", "1", "x-ratelimit-resource", "core", "x-ratelimit-reset",
				Long.toString(NOW + 86_402)))).isNull();
	}

	@Test
	void whenGitHubIsNotReadThenItsFieldsAreNotReadAsThePlainOnes() {
		Map<String, String> fields = Map.of("x-ratelimit-remaining", "0", "x-ratelimit-resource", "core",
				"x-ratelimit-reset", Long.toString(NOW + 30));

		assertThat(RateLimitParser.parse(RateLimitParserTests.lines(fields), Set.of(RateLimitFields.X_RATELIMIT),
				RECEIVED)).isNull();
		assertThat(RateLimitParser.parse(RateLimitParserTests.lines(fields), Set.of(RateLimitFields.GITHUB),
				RECEIVED).fields()).isEqualTo(RateLimitFields.GITHUB);
	}

	@Test
	void whenGitLabSendsItsPlainFieldsThenTheyAreReadAndNotTakenForTheDraftsField() {
		RateLimitReading reading = parse(Map.of("ratelimit-limit", "600", "ratelimit-remaining", "0",
				"ratelimit-reset", Long.toString(NOW + 30), "ratelimit-resettime", "Wed, 02 Dec 2026 13:24:42 GMT",
				"ratelimit-observed", "600", "ratelimit-name", "throttle_authenticated_api"));

		assertThat(reading).isEqualTo(new RateLimitReading("throttle_authenticated_api", 0, Duration.ofSeconds(30),
				600, Duration.ofSeconds(30), RateLimitFields.GITLAB));
		assertThat(RateLimitParser.parse(RateLimitParserTests.lines(Map.of("ratelimit-remaining", "0",
				"ratelimit-reset", Long.toString(NOW + 30))), Set.of(RateLimitFields.IETF), RECEIVED)).isNull();
	}

	@Test
	void whenGitLabsTwoResetsDisagreeThenTheLaterIsRead() {
		RateLimitReading reading = parse(Map.of("ratelimit-remaining", "3", "ratelimit-reset",
				Long.toString(NOW + 10), "ratelimit-resettime", "Wed, 02 Dec 2026 13:24:42 GMT"));

		assertThat(reading.resetIn()).isEqualTo(Duration.ofSeconds(30));
		assertThat(parse(Map.of("ratelimit-remaining", "3", "ratelimit-resettime", "Wed, 02 Dec 2026 13:24:42 GMT"))
			.resetIn()).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void whenOpenAiHasRequestsLeftAndTokensLeftThenTheRequestsQuotaPaces() {
		RateLimitReading reading = parse(Map.of("x-ratelimit-limit-requests", "60", "x-ratelimit-remaining-requests",
				"59", "x-ratelimit-reset-requests", "1s", "x-ratelimit-limit-tokens", "150000",
				"x-ratelimit-remaining-tokens", "149984", "x-ratelimit-reset-tokens", "6m0s"));

		assertThat(reading).isEqualTo(new RateLimitReading("requests", 59, Duration.ofSeconds(1), 60,
				Duration.ofSeconds(1), RateLimitFields.OPENAI));
	}

	@Test
	void whenOpenAisTokensAreSpentThenTheyHoldUntilTheirResetWithNoRate() {
		RateLimitReading reading = parse(Map.of("x-ratelimit-limit-requests", "60", "x-ratelimit-remaining-requests",
				"59", "x-ratelimit-reset-requests", "1s", "x-ratelimit-limit-tokens", "150000",
				"x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "1m30.5s"));

		assertThat(reading).isEqualTo(new RateLimitReading("tokens", 0, Duration.ofMillis(90_500), 0, Duration.ZERO,
				RateLimitFields.OPENAI));
	}

	@Test
	void whenOnlyATokenQuotaWithSomeLeftIsAnnouncedThenThereIsNoReading() {
		assertThat(parse(Map.of("x-ratelimit-remaining-tokens", "5", "x-ratelimit-reset-tokens", "20ms"))).isNull();
	}

	@Test
	void whenAnthropicAnnouncesFourQuotasThenASpentTokenQuotaPacesOverTheRequests() {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("anthropic-ratelimit-requests-limit", "50");
		fields.put("anthropic-ratelimit-requests-remaining", "49");
		fields.put("anthropic-ratelimit-requests-reset", "2026-12-02T13:24:13Z");
		fields.put("anthropic-ratelimit-input-tokens-limit", "40000");
		fields.put("anthropic-ratelimit-input-tokens-remaining", "0");
		fields.put("anthropic-ratelimit-input-tokens-reset", "2026-12-02T14:24:20+01:00");
		fields.put("anthropic-ratelimit-output-tokens-remaining", "0");
		fields.put("anthropic-ratelimit-output-tokens-reset", "2026-12-02T13:24:15.5Z");
		fields.put("anthropic-ratelimit-tokens-remaining", "30000");
		fields.put("anthropic-ratelimit-tokens-reset", "2026-12-02T13:25:00Z");

		RateLimitReading reading = parse(fields);

		// Both spent: the later reset holds longer. A whole-second reset counts from 13:24:12.
		assertThat(reading).isEqualTo(new RateLimitReading("input-tokens", 0, Duration.ofSeconds(8), 0,
				Duration.ZERO, RateLimitFields.ANTHROPIC));
	}

	@Test
	void whenAnthropicsRequestsResetHasAFractionThenItIsMeasuredFromTheInstantReceived() {
		RateLimitReading reading = parse(Map.of("anthropic-ratelimit-requests-limit", "50",
				"anthropic-ratelimit-requests-remaining", "10", "anthropic-ratelimit-requests-reset",
				"2026-12-02T13:24:14.000Z"));

		assertThat(reading).isEqualTo(new RateLimitReading("requests", 10, Duration.ofMillis(1250), 50,
				Duration.ofMillis(1250), RateLimitFields.ANTHROPIC));
	}

	@Test
	void whenDiscordSendsResetAfterThenItIsReadBeforeTheUnixTime() {
		RateLimitReading reading = parse(Map.of("x-ratelimit-limit", "5", "x-ratelimit-remaining", "1",
				"x-ratelimit-reset", (NOW + 100) + ".123", "x-ratelimit-reset-after", "1.25", "x-ratelimit-bucket",
				"abcd1234"));

		assertThat(reading).isEqualTo(new RateLimitReading("", 1, Duration.ofMillis(1250), 5, Duration.ofMillis(1250),
				RateLimitFields.DISCORD));
	}

	@Test
	void whenDiscordSendsOnlyTheDecimalUnixTimeThenItIsMeasuredFromTheInstantReceived() {
		RateLimitReading reading = parse(Map.of("x-ratelimit-limit", "5", "x-ratelimit-remaining", "0",
				"x-ratelimit-reset", (NOW + 2) + ".250", "x-ratelimit-bucket", "abcd1234"));

		assertThat(reading.resetIn()).isEqualTo(Duration.ofMillis(1500));
		assertThat(reading.fields()).isEqualTo(RateLimitFields.DISCORD);
	}

	@ParameterizedTest
	@ValueSource(strings = { "-1.5", "86400.5", "1.2.3", "abc" })
	void whenDiscordsResetAfterIsNegativeNonsenseOrOverADayThenNoEarlierResetIsRead(String resetAfter) {
		RateLimitReading reading = parse(Map.of("x-ratelimit-remaining", "0", "x-ratelimit-reset-after", resetAfter));

		assertThat(reading).isNull();
	}

	@Test
	void whenAQuotaHasMoreRemainingThanItsLimitOrANegativeCountThenItIsIgnored() {
		assertThat(parse(Map.of("ratelimit-limit", "10", "ratelimit-remaining", "11", "ratelimit-reset", "5")))
			.isNull();
		assertThat(parse(Map.of("x-ratelimit-remaining-requests", "-1", "x-ratelimit-reset-requests", "1s")))
			.isNull();
		assertThat(parse(Map.of("x-ratelimit-remaining-requests", "1.5", "x-ratelimit-reset-requests", "1s")))
			.isNull();
	}

	@Test
	void whenANameIsNoTokenOrTooLongThenItIsNotShown() {
		assertThat(parse(Map.of("x-ratelimit-remaining", "1", "x-ratelimit-resource", "Bearer abc",
				"x-ratelimit-reset", Long.toString(NOW + 30))).policy()).isEmpty();
		assertThat(parse(Map.of("ratelimit-remaining", "1", "ratelimit-reset", "30", "ratelimit-name", "n".repeat(65)))
			.policy()).isEmpty();
	}

	@Test
	void whenAResponseNamesAQuotaFieldThenItMayAnnounceOneInTheDialectsRead() {
		for (String name : new String[] { "RateLimit", "ratelimit-remaining", "X-RateLimit-Remaining",
				"x-rate-limit-remaining", "x-ratelimit-remaining-requests", "X-RateLimit-Remaining-Tokens",
				"anthropic-ratelimit-requests-remaining", "Anthropic-RateLimit-Output-Tokens-Remaining" }) {
			assertThat(RateLimitParser.mayAnnounce(name, ALL)).as(name).isTrue();
		}
		for (String name : new String[] { "Retry-After", "RateLimit-Policy", "X-RateLimit-Reset", "x-ratelimit-",
				"anthropic-ratelimit-requests-reset", "content-type", "", "r", "x-ratelimit-remaining-bytes" }) {
			assertThat(RateLimitParser.mayAnnounce(name, ALL)).as(name).isFalse();
		}
		assertThat(RateLimitParser.mayAnnounce("x-ratelimit-remaining-tokens", Set.of(RateLimitFields.IETF))).isFalse();
		assertThat(RateLimitParser.mayAnnounce("ratelimit-remaining", Set.of(RateLimitFields.IETF))).isFalse();
		assertThat(RateLimitParser.mayAnnounce("x-ratelimit-remaining", Set.of(RateLimitFields.DISCORD))).isTrue();
	}

	@Test
	void theNamesLookedUpForADialectAreTheOnesItMayAnnounceWith() {
		assertThat(RateLimitParser.announcingNames(ALL)).hasSize(10)
			.allSatisfy((name) -> assertThat(RateLimitParser.mayAnnounce(name, ALL)).as(name).isTrue())
			.allSatisfy((name) -> assertThat(name).isLowerCase());
		for (RateLimitFields dialect : RateLimitFields.values()) {
			assertThat(RateLimitParser.announcingNames(Set.of(dialect))).as(dialect.toString())
				.isNotEmpty()
				.allSatisfy((name) -> assertThat(RateLimitParser.mayAnnounce(name, Set.of(dialect))).isTrue());
		}
		assertThat(RateLimitParser.announcingNames(Set.of(RateLimitFields.IETF))).containsExactly("ratelimit");
		assertThat(RateLimitParser.announcingNames(Set.of())).isEmpty();
	}

	@Test
	void aDialectWhoseCountsAreAllAbsentReadsNothingWhateverElseItSends() {
		// Each dialect is looked at only when one of its remaining counts is there.
		assertThat(parse(Map.of("ratelimit-limit", "10", "ratelimit-reset", "30"))).isNull();
		assertThat(parse(Map.of("x-ratelimit-limit-requests", "10", "x-ratelimit-reset-requests", "1s"))).isNull();
		assertThat(parse(Map.of("anthropic-ratelimit-requests-limit", "10",
				"anthropic-ratelimit-requests-reset", "2030-01-01T00:00:00Z"))).isNull();
		assertThat(parse(Map.of("ratelimit-remaining", "3", "ratelimit-reset", "30"))).isNotNull();
	}

	private static RateLimitReading parse(Map<String, String> fields) {
		return RateLimitParser.parse(RateLimitParserTests.lines(fields), ALL, RECEIVED);
	}

}
