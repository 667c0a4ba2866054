package dev.retryafter.core.header;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property-style tests for the vendors' dialects: per seed, thousands of fields written as
 * each API writes them (Go durations as Go prints them, RFC 3339 with any offset, Unix times
 * with and without a fraction) must read exactly as generated; the same fields mutated, and
 * random text under every quota field name, must never throw, and any reading they give must
 * be possible. A failure names its seed and case, so it can be replayed.
 */
class RateLimitDialectsFuzzTests {

	private static final int CASES_PER_SEED = 2_000;

	private static final Set<RateLimitFields> ALL = EnumSet.allOf(RateLimitFields.class);

	private static final long S = 1_000_000_000L;

	private static final String ALPHABET = "0123456789.:-+TZzsmhnu\u00b5 \t,;eE\u0000\u0663abc";

	private static final String[] NAMES = { "x-ratelimit-remaining-requests", "x-ratelimit-reset-requests",
			"x-ratelimit-remaining-tokens", "x-ratelimit-reset-tokens", "anthropic-ratelimit-requests-remaining",
			"anthropic-ratelimit-requests-reset", "anthropic-ratelimit-tokens-remaining",
			"anthropic-ratelimit-tokens-reset", "ratelimit-remaining", "ratelimit-reset", "ratelimit-resettime",
			"x-ratelimit-remaining", "x-ratelimit-reset", "x-ratelimit-reset-after", "x-ratelimit-bucket",
			"x-ratelimit-used", "x-ratelimit-limit", "ratelimit-limit" };

	static Stream<Long> seeds() {
		return LongStream.range(0, 10).mapToObj((i) -> 0x2800_0000L + i);
	}

	@ParameterizedTest
	@MethodSource("seeds")
	void wellFormedVendorFieldsReadExactlyAsWritten(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		Instant received = Instant.ofEpochSecond(1_700_000_000L + random.nextLong(500_000_000L),
				random.nextInt(1_000_000_000));
		List<String> mismatches = new ArrayList<>();
		for (int i = 0; i < CASES_PER_SEED; i++) {
			Generated generated = generate(random, received);
			Map<String, String> fields = generated.fields();
			RateLimitReading expected = generated.expected();
			RateLimitReading actual = RateLimitParser.parse(RateLimitParserTests.lines(fields), ALL, received);
			if (!expected.equals(actual)) {
				mismatches.add("seed " + seed + " case " + i + ": " + fields + " -> " + actual + ", expected " + expected);
			}
		}
		assertThat(mismatches).isEmpty();
	}

	@ParameterizedTest
	@MethodSource("seeds")
	void mutatedAndRandomVendorFieldsNeverThrowAndReadOnlyPossibleQuotas(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		Instant received = Instant.ofEpochSecond(1_700_000_000L + random.nextLong(500_000_000L),
				random.nextInt(1_000_000_000));
		int read = 0;
		for (int i = 0; i < CASES_PER_SEED; i++) {
			Map<String, List<String>> lines = new HashMap<>();
			generate(random, received).fields()
				.forEach((name, value) -> lines.put(name, List.of((random.nextInt(3) == 0) ? mutate(random, value) : value)));
			if (random.nextInt(4) == 0) {
				lines.put(NAMES[random.nextInt(NAMES.length)], List.of(switch (random.nextInt(3)) {
					case 0 -> randomString(random, random.nextInt(40));
					case 1 -> mutate(random, goDuration(random.nextLong(0, Duration.ofDays(2).toNanos())));
					default -> mutate(random, Long.toString(received.getEpochSecond() + random.nextLong(-100, 100_000)));
				}));
			}
			RateLimitReading reading = RateLimitParser.parse(lines::get, ALL, received);
			if (reading != null) {
				read++;
				// The client looks for these names before it parses: a reading without one
				// would never be made.
				assertThat(RateLimitParser.announcingNames(ALL)).anyMatch(lines::containsKey);
				assertThat(reading.resetIn()).isLessThanOrEqualTo(RateLimitParser.MAX_RESET);
				assertThat(reading.resetIn().isNegative()).isFalse();
				assertThat(reading.window()).isLessThanOrEqualTo(RateLimitParser.MAX_RESET);
				assertThat(reading.quota() == 0 || reading.remaining() <= reading.quota()).isTrue();
				assertThat(reading.policy().chars().allMatch((c) -> c >= 0x20 && c <= 0x7E)).isTrue();
			}
		}
		assertThat(read).isGreaterThan(CASES_PER_SEED / 20);
	}

	@ParameterizedTest
	@MethodSource("seeds")
	void longValuesAreRejectedWithoutOverflow(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		String digits = "9".repeat(random.nextInt(19, 5_000));
		for (String value : new String[] { digits + "s", digits + "." + digits + "ms", digits, "0." + digits,
				"2026-12-02T13:24:12." + digits + "Z", "1s".repeat(random.nextInt(1, 50_000)) }) {
			List<String> line = List.of(value);
			assertThat(RateLimitValues.goDuration(line)).isLessThanOrEqualTo(Duration.ofDays(1).toNanos());
			assertThat(RateLimitValues.decimalSeconds(line)).isLessThanOrEqualTo(9_214_646_400L * S + S);
			assertThat(RateLimitValues.rfc3339(line)).isGreaterThanOrEqualTo(RateLimitValues.INVALID);
		}
	}

	/** Fields of one dialect, written as the API writes them, and what they must read as. */
	private static Generated generate(SplittableRandom random, Instant received) {
		long limit = random.nextLong(1, 100_000);
		long remaining = random.nextLong(0, limit + 1);
		long resetNanos = random.nextLong(0, Duration.ofDays(1).toNanos() + 1);
		Map<String, String> fields = new HashMap<>();
		RateLimitReading expected;
		switch (random.nextInt(4)) {
			case 0 -> {
				fields.put("x-ratelimit-limit-requests", Long.toString(limit));
				fields.put("x-ratelimit-remaining-requests", Long.toString(remaining));
				fields.put("x-ratelimit-reset-requests", goDuration(resetNanos));
				expected = reading("requests", remaining, resetNanos, limit, RateLimitFields.OPENAI);
			}
			case 1 -> {
				// A whole-second timestamp counts from the start of the second received.
				long resetAt = received.getEpochSecond() + resetNanos / S;
				ZoneOffset offset = ZoneOffset.ofTotalSeconds(60 * random.nextInt(-18 * 60 + 1, 18 * 60));
				fields.put("anthropic-ratelimit-requests-limit", Long.toString(limit));
				fields.put("anthropic-ratelimit-requests-remaining", Long.toString(remaining));
				fields.put("anthropic-ratelimit-requests-reset", DateTimeFormatter.ISO_OFFSET_DATE_TIME
					.format(Instant.ofEpochSecond(resetAt).atOffset(offset)));
				expected = reading("requests", remaining, (resetNanos / S) * S, limit,
						RateLimitFields.ANTHROPIC);
			}
			case 2 -> {
				long millis = resetNanos / 1_000_000;
				fields.put("x-ratelimit-limit", Long.toString(limit));
				fields.put("x-ratelimit-remaining", Long.toString(remaining));
				fields.put("x-ratelimit-reset-after", (millis / 1000) + "." + String.format("%03d", millis % 1000));
				fields.put("x-ratelimit-bucket", "b" + random.nextInt(1000));
				expected = reading("", remaining, millis * 1_000_000, limit, RateLimitFields.DISCORD);
			}
			default -> {
				long resetAt = received.getEpochSecond() + resetNanos / S;
				fields.put("x-ratelimit-limit", Long.toString(limit));
				fields.put("x-ratelimit-remaining", Long.toString(remaining));
				fields.put("x-ratelimit-used", Long.toString(limit - remaining));
				fields.put("x-ratelimit-reset", Long.toString(resetAt));
				fields.put("x-ratelimit-resource", "core");
				expected = reading("core", remaining, (resetNanos / S) * S, limit, RateLimitFields.GITHUB);
			}
		}
		return new Generated(fields, expected);
	}

	record Generated(Map<String, String> fields, RateLimitReading expected) {
	}

	private static RateLimitReading reading(String policy, long remaining, long resetNanos, long limit,
			RateLimitFields fields) {
		Duration resetIn = Duration.ofNanos(resetNanos);
		Duration window = (resetIn.compareTo(Duration.ofSeconds(1)) >= 0) ? resetIn : Duration.ofSeconds(1);
		return new RateLimitReading(policy, remaining, resetIn, limit, window, fields);
	}

	/** A duration as Go's {@code time.Duration.String} prints it. */
	static String goDuration(long nanos) {
		if (nanos == 0) {
			return "0s";
		}
		if (nanos < 1_000) {
			return nanos + "ns";
		}
		if (nanos < 1_000_000) {
			return decimal(nanos, 1_000) + "\u00b5s";
		}
		if (nanos < S) {
			return decimal(nanos, 1_000_000) + "ms";
		}
		StringBuilder text = new StringBuilder();
		long hours = nanos / (3600 * S);
		long minutes = (nanos / (60 * S)) % 60;
		if (hours > 0) {
			text.append(hours).append('h');
		}
		if (hours > 0 || minutes > 0) {
			text.append(minutes).append('m');
		}
		return text.append(decimal(nanos % (60 * S), S)).append('s').toString();
	}

	private static String decimal(long value, long unit) {
		long fraction = value % unit;
		if (fraction == 0) {
			return Long.toString(value / unit);
		}
		String digits = Long.toString(unit + fraction).substring(1).replaceAll("0+$", "");
		return value / unit + "." + digits;
	}

	private static String mutate(SplittableRandom random, String value) {
		StringBuilder text = new StringBuilder(value);
		int edits = random.nextInt(0, 3);
		for (int i = 0; i < edits && !text.isEmpty(); i++) {
			int at = random.nextInt(text.length());
			switch (random.nextInt(3)) {
				case 0 -> text.deleteCharAt(at);
				case 1 -> text.insert(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
				default -> text.setCharAt(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
			}
		}
		return text.toString();
	}

	private static String randomString(SplittableRandom random, int length) {
		StringBuilder text = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
		}
		return text.toString();
	}

}
