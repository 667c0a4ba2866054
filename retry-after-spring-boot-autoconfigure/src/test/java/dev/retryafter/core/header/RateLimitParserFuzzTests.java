package dev.retryafter.core.header;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
 * Property-style tests for {@link RateLimitParser}: per seed, thousands of well-formed fields
 * written in every way RFC 9651 allows (names as Strings or Tokens, parameters in any order,
 * unknown parameters of every kind, optional whitespace) must read exactly as generated; the
 * same fields mutated and random characters must never throw, and any reading they give must
 * be possible; the legacy fields must follow the documented delta-or-Unix-time rule. A
 * failure names its seed and case, so it can be replayed.
 */
class RateLimitParserFuzzTests {

	private static final int CASES_PER_SEED = 2_500;

	private static final Set<RateLimitFields> BOTH = Set.of(RateLimitFields.IETF, RateLimitFields.X_RATELIMIT);

	private static final String ALPHABET = "\"\\;=,:?*-._/ \t09azAZ()@%!é\u0000\u2003\n=q=r=t=w=pk";

	private static final String[] UNKNOWN_VALUES = { "?1", "?0", "12", "-3", "0.5", "12.125", "tok/en:x",
			"\"text\"", ":AAEC:", "*star" };

	static Stream<Long> seeds() {
		return LongStream.range(0, 12).mapToObj((i) -> 0x9651_0000L + i);
	}

	@ParameterizedTest
	@MethodSource("seeds")
	void wellFormedFieldsReadExactlyAsWritten(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		List<String> mismatches = new ArrayList<>();
		for (int i = 0; i < CASES_PER_SEED; i++) {
			Generated generated = generate(random);
			RateLimitReading actual = withoutPartitionKey(
					RateLimitParser.parse(generated.lines()::get, BOTH, Instant.EPOCH));
			if (!generated.expected().equals(actual)) {
				mismatches.add("seed " + seed + " case " + i + ": " + generated.lines() + " -> " + actual
						+ ", expected " + generated.expected());
			}
		}
		assertThat(mismatches).isEmpty();
	}

	@ParameterizedTest
	@MethodSource("seeds")
	void mutatedAndRandomFieldsNeverThrowAndReadOnlyPossibleQuotas(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		int read = 0;
		for (int i = 0; i < CASES_PER_SEED; i++) {
			Map<String, List<String>> lines = new HashMap<>();
			if (random.nextInt(4) == 0) {
				lines.put("ratelimit", List.of(randomString(random, random.nextInt(60))));
				lines.put("ratelimit-policy", List.of(randomString(random, random.nextInt(60))));
			}
			else {
				generate(random).lines()
					.forEach((name, values) -> lines.put(name, List.of(mutate(random, values.get(0)))));
			}
			RateLimitReading reading = RateLimitParser.parse(lines::get, BOTH, Instant.EPOCH);
			if (reading != null) {
				read++;
				assertThat(reading.resetIn()).isLessThanOrEqualTo(RateLimitParser.MAX_RESET);
				assertThat(reading.window()).isLessThanOrEqualTo(RateLimitParser.MAX_RESET);
				assertThat(reading.quota() == 0 || reading.remaining() <= reading.quota()).isTrue();
				assertThat(reading.hasRate() || (reading.quota() == 0 && reading.window().isZero())).isTrue();
				assertThat(reading.policy().chars().allMatch((c) -> c >= 0x20 && c <= 0x7E)).isTrue();
			}
		}
		// Some mutations keep a valid field: the checks above must have run.
		assertThat(read).isGreaterThan(CASES_PER_SEED / 10);
	}

	@ParameterizedTest
	@MethodSource("seeds")
	void legacyResetsAreDeltasBelowTheThresholdAndUnixTimesFromIt(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		Instant receivedAt = Instant.ofEpochSecond(1_700_000_000L + random.nextLong(1_000_000_000L),
				random.nextInt(1_000_000_000));
		List<String> mismatches = new ArrayList<>();
		for (int i = 0; i < CASES_PER_SEED; i++) {
			String reset = switch (random.nextInt(6)) {
				case 0 -> Long.toString(random.nextLong(0, 100_000));
				case 1 -> Long.toString(receivedAt.getEpochSecond() + random.nextLong(-100_000, 100_000));
				case 2 -> Long.toString(receivedAt.toEpochMilli() + random.nextLong(0, 100_000));
				case 3 -> new BigInteger(random.nextInt(1, 80), new java.util.Random(random.nextLong())).toString();
				case 4 -> Long.toString(RateLimitParser.EPOCH_THRESHOLD + random.nextLong(-10, 10));
				default -> randomString(random, random.nextInt(8));
			};
			long remaining = random.nextLong(0, 100);
			long limit = random.nextLong(0, 100);
			Map<String, List<String>> lines = Map.of("x-ratelimit-limit", List.of(Long.toString(limit)),
					"x-ratelimit-remaining", List.of(Long.toString(remaining)), "x-ratelimit-reset", List.of(reset));
			RateLimitReading actual = RateLimitParser.parse(lines::get, BOTH, receivedAt);
			RateLimitReading expected = legacyReference(limit, remaining, reset, receivedAt);
			if (!java.util.Objects.equals(actual, expected)) {
				mismatches.add("seed " + seed + " case " + i + ": " + lines + " -> " + actual + ", expected " + expected);
			}
		}
		assertThat(mismatches).isEmpty();
	}

	/** The documented rule, written the slow and obvious way. */
	private static RateLimitReading legacyReference(long limit, long remaining, String reset, Instant receivedAt) {
		reset = reset.replaceAll("^[ \t]+|[ \t]+$", "");
		if (!reset.matches("[0-9]{1,18}") || remaining > limit) {
			return null;
		}
		BigInteger value = new BigInteger(reset);
		BigInteger resetIn = (value.compareTo(BigInteger.valueOf(1_000_000_000L)) >= 0)
				? value.subtract(BigInteger.valueOf(receivedAt.getEpochSecond())).max(BigInteger.ZERO) : value;
		if (resetIn.compareTo(BigInteger.valueOf(86_400)) > 0) {
			return null;
		}
		long seconds = resetIn.longValueExact();
		return new RateLimitReading("", remaining, Duration.ofSeconds(seconds), limit,
				Duration.ofSeconds((limit > 0) ? Math.max(1, seconds) : 0), RateLimitFields.X_RATELIMIT);
	}

	/** Well-formed fields with the reading they must give. */
	record Generated(Map<String, List<String>> lines, RateLimitReading expected) {
	}

	private static Generated generate(SplittableRandom random) {
		int count = random.nextInt(1, 4);
		List<String> items = new ArrayList<>();
		List<String> policies = new ArrayList<>();
		RateLimitReading tightest = null;
		for (int k = 0; k < count; k++) {
			String name = "p" + k + (random.nextBoolean() ? "" : "-x.y");
			long quota = random.nextLong(1, 1_000);
			long window = random.nextLong(1, 3_600);
			long remaining = random.nextLong(0, quota + 1);
			long reset = random.nextLong(0, window + 1);
			boolean withPolicy = random.nextInt(4) != 0;
			if (withPolicy) {
				List<String> params = new ArrayList<>(List.of("q=" + quota, "w=" + window));
				if (random.nextBoolean()) {
					params.add("qu=\"requests\"");
				}
				if (random.nextBoolean()) {
					params.add("pk=:" + "cHJvZmlsZQ==".substring(0, random.nextInt(13)) + ":");
				}
				addUnknown(random, params);
				policies.add(item(random, name, params));
			}
			List<String> params = new ArrayList<>(List.of("r=" + remaining, "t=" + reset));
			if (random.nextBoolean()) {
				params.add("pk=:" + "cHJvZmlsZQ==".substring(0, random.nextInt(13)) + ":");
			}
			addUnknown(random, params);
			items.add(item(random, name, params));
			RateLimitReading reading = new RateLimitReading(name, remaining, Duration.ofSeconds(reset),
					withPolicy ? quota : 0, Duration.ofSeconds(withPolicy ? window : 0), RateLimitFields.IETF);
			if (tightest == null || remaining < tightest.remaining()
					|| (remaining == tightest.remaining() && reading.resetIn().compareTo(tightest.resetIn()) > 0)) {
				tightest = reading;
			}
		}
		Map<String, List<String>> lines = new HashMap<>();
		lines.put("ratelimit", List.of(join(random, items)));
		if (!policies.isEmpty()) {
			lines.put("ratelimit-policy", List.of(join(random, policies)));
		}
		return new Generated(lines, tightest);
	}

	private static void addUnknown(SplittableRandom random, List<String> params) {
		int unknown = random.nextInt(3);
		for (int u = 0; u < unknown; u++) {
			String key = "x" + u + (random.nextBoolean() ? "*_-." : "");
			params.add(random.nextInt(4) == 0 ? key : key + "=" + UNKNOWN_VALUES[random.nextInt(UNKNOWN_VALUES.length)]);
		}
		java.util.Collections.shuffle(params, new java.util.Random(random.nextLong()));
	}

	private static String item(SplittableRandom random, String name, List<String> params) {
		StringBuilder item = new StringBuilder(random.nextBoolean() ? "\"" + name + "\"" : name);
		for (String param : params) {
			item.append(';').append(" ".repeat(random.nextInt(2))).append(param);
		}
		return item.toString();
	}

	private static String join(SplittableRandom random, List<String> members) {
		StringBuilder list = new StringBuilder(" ".repeat(random.nextInt(2)));
		for (int i = 0; i < members.size(); i++) {
			if (i > 0) {
				list.append(random.nextBoolean() ? "\t" : "").append(',').append(" ".repeat(random.nextInt(3)));
			}
			list.append(members.get(i));
		}
		return list.append(" ".repeat(random.nextInt(2))).toString();
	}

	private static String mutate(SplittableRandom random, String value) {
		StringBuilder text = new StringBuilder(value);
		int mutations = random.nextInt(1, 4);
		for (int m = 0; m < mutations && text.length() > 0; m++) {
			int at = random.nextInt(text.length());
			switch (random.nextInt(4)) {
				case 0 -> text.setCharAt(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
				case 1 -> text.deleteCharAt(at);
				case 2 -> text.insert(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
				default -> text.setLength(at);
			}
		}
		return text.toString();
	}

	private static String randomString(SplittableRandom random, int length) {
		StringBuilder text = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			text.append(random.nextInt(3) == 0 ? (char) random.nextInt(65_536)
					: ALPHABET.charAt(random.nextInt(ALPHABET.length())));
		}
		return text.toString();
	}

	// The generator does not model the partition key's digest (RateLimitParserTests does).
	private static RateLimitReading withoutPartitionKey(RateLimitReading reading) {
		return (reading == null) ? null : new RateLimitReading(reading.policy(), reading.remaining(),
				reading.resetIn(), reading.quota(), reading.window(), reading.fields());
	}

}
