package dev.retryafter.core.header;

import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.retryafter.core.header.RetryAfter.Delay;
import dev.retryafter.core.header.RetryAfter.Form;
import dev.retryafter.core.header.RetryAfter.Invalid;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property-style tests for {@link RetryAfterParser}: random and mutated field values are
 * parsed and compared with an independent, deliberately naive reference built from regular
 * expressions and {@code java.time} (fine in a test; too lenient and slow for the parser).
 */
class RetryAfterParserFuzzTests {

	private static final int CASES = 100_000;

	private static final String DAY = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun)";

	private static final String MONTH = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";

	private static final String TIME = "([0-9]{2}):([0-9]{2}):([0-9]{2})";

	private static final String LONG_DAY = "(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";

	private static final Pattern IMF_FIXDATE = Pattern
		.compile(DAY + ", ([0-9]{2}) " + MONTH + " ([0-9]{4}) " + TIME + " GMT");

	private static final Pattern RFC_850 = Pattern
		.compile(LONG_DAY + ", ([0-9]{2})-" + MONTH + "-([0-9]{2}) " + TIME + " GMT");

	private static final Pattern ASCTIME = Pattern
		.compile(DAY + " " + MONTH + " ([0-9]{2}| [0-9]) " + TIME + " ([0-9]{4})");

	private static final List<String> MONTHS = Arrays.asList("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug",
			"Sep", "Oct", "Nov", "Dec");

	/** Characters mutations draw from: the grammar's own, look-alikes and troublemakers. */
	private static final String ALPHABET = "0123456789012345678906 \t ,,:::--+.eExGMTUC"
			+ "SunMonTueWedThuFriSatJanFebSepNovDecday٣１\u00A0\u2003\n\r\u0000/;\"'é";

	private enum Kind {

		SECONDS, DATE, EMPTY, MALFORMED, IMPOSSIBLE

	}

	@Test
	void shouldAgreeWithTheReferenceOnRandomAndMutatedValues() {
		SplittableRandom random = new SplittableRandom(10_2_3);
		Map<Kind, Integer> kinds = new EnumMap<>(Kind.class);
		List<String> mismatches = new ArrayList<>();
		for (int i = 0; i < CASES; i++) {
			// 1970 to 2200
			Instant receivedAt = Instant.ofEpochSecond(random.nextLong(0, 7_289_654_400L),
					random.nextInt(1_000_000_000));
			String value = mutate(random, seedValue(random, receivedAt));
			RetryAfter actual = RetryAfterParser.parse(List.of(value), receivedAt, null, DateReference.LOCAL_CLOCK);
			RetryAfter expected = reference(value, receivedAt);
			if (!actual.equals(expected)) {
				mismatches.add(escape(value) + " at " + receivedAt + ": " + actual + ", reference " + expected);
			}
			kinds.merge(kindOf(expected), 1, Integer::sum);
		}
		assertThat(mismatches).isEmpty();
		// The generator must reach every outcome often, or agreeing would prove little.
		assertThat(kinds).allSatisfy((kind, count) -> assertThat(count).as("%s", kind).isGreaterThan(1_000))
			.containsOnlyKeys(Kind.values());
	}

	@Test
	void shouldNeverThrowOnRandomCharacters() {
		SplittableRandom random = new SplittableRandom(9110);
		List<String> mismatches = new ArrayList<>();
		for (int i = 0; i < CASES; i++) {
			char[] chars = new char[random.nextInt(48)];
			boolean bytesOnly = random.nextBoolean();
			for (int j = 0; j < chars.length; j++) {
				chars[j] = (char) random.nextInt(bytesOnly ? 256 : 65_536);
			}
			String value = new String(chars);
			List<String> lines = random.nextInt(10) == 0 ? List.of(value, value) : List.of(value);
			Instant receivedAt = Instant
				.ofEpochSecond(random.nextLong(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()));
			RetryAfter actual = RetryAfterParser.parse(lines, receivedAt, random.nextBoolean() ? value : null,
					DateReference.SERVER_DATE);
			RetryAfter expected = (lines.size() > 1) ? new Invalid(RetryAfterParser.MULTIPLE_FIELD_LINES)
					: reference(value, Instant.EPOCH);
			// Random characters name no date, so the receive instant cannot matter.
			if (!actual.equals(expected)) {
				mismatches.add(escape(value) + ": " + actual + ", reference " + expected);
			}
		}
		assertThat(mismatches).isEmpty();
	}

	private static String seedValue(SplittableRandom random, Instant receivedAt) {
		LocalDateTime near = LocalDateTime.ofEpochSecond(
				receivedAt.getEpochSecond() + random.nextLong(-3_000_000_000L, 3_000_000_000L), 0, ZoneOffset.UTC);
		return switch (random.nextInt(7)) {
			case 0 -> Long.toString(random.nextLong(0, 100_000));
			case 1 -> "0".repeat(random.nextInt(3)) + randomDigits(random);
			case 2 -> HttpDateTests.imfFixdate(near);
			case 3 -> HttpDateTests.rfc850(near);
			case 4 -> HttpDateTests.asctime(near);
			case 5 -> randomDateLike(random);
			default -> randomString(random, random.nextInt(40));
		};
	}

	private static BigInteger randomDigits(SplittableRandom random) {
		return new BigInteger(random.nextInt(1, 80), new Random(random.nextLong()));
	}

	// Grammar-shaped values with random numbers: mostly impossible or far away dates.
	private static String randomDateLike(SplittableRandom random) {
		String numbers = String.format("%02d %s %04d %02d:%02d:%02d", random.nextInt(100),
				MONTHS.get(random.nextInt(12)), random.nextInt(10_000), random.nextInt(100), random.nextInt(100),
				random.nextInt(100));
		if (random.nextBoolean()) {
			return "Mon, " + numbers + " GMT";
		}
		// "dd-Mon-yy hh:mm:ss": the year keeps only its last two digits
		return "Sunday, " + numbers.replace(' ', '-').substring(0, 7) + numbers.substring(9) + " GMT";
	}

	private static String mutate(SplittableRandom random, String value) {
		StringBuilder text = new StringBuilder(value);
		int mutations = random.nextInt(4);
		for (int m = 0; m < mutations; m++) {
			int at = text.length() == 0 ? 0 : random.nextInt(text.length());
			switch (random.nextInt(8)) {
				case 0 -> {
					if (text.length() > 0) {
						text.setCharAt(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
					}
				}
				case 1 -> {
					if (text.length() > 0) {
						text.deleteCharAt(at);
					}
				}
				case 2 -> text.insert(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
				case 3 -> text.setLength(at);
				case 4 -> text.append(random.nextBoolean() ? ", " : ",").append(value);
				case 5 -> text.insert(0, random.nextBoolean() ? " " : "\t").append(random.nextBoolean() ? "\t" : " ");
				case 6 -> {
					if (text.length() > 0) {
						char c = text.charAt(at);
						text.setCharAt(at,
								Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c));
					}
				}
				default -> {
					if (text.length() > 0) {
						text.setCharAt(at, (char) ('0' + random.nextInt(10)));
					}
				}
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

	/** What RFC 9110 sections 10.2.3 and 5.6.7 say the parser must return. */
	private static RetryAfter reference(String raw, Instant receivedAt) {
		String value = raw.replaceAll("^[ \t]+|[ \t]+$", "");
		if (value.isEmpty()) {
			return new Invalid(RetryAfterParser.EMPTY_VALUE);
		}
		if (value.matches("[0-9]+")) {
			BigInteger seconds = new BigInteger(value).min(BigInteger.valueOf(RetryAfter.MAX_DELAY.getSeconds()));
			return new Delay(Duration.ofSeconds(seconds.longValueExact()), Form.SECONDS);
		}
		Matcher imf = IMF_FIXDATE.matcher(value);
		Matcher rfc850 = RFC_850.matcher(value);
		Matcher asctime = ASCTIME.matcher(value);
		int year;
		int month;
		int day;
		int[] time;
		if (imf.matches()) {
			day = Integer.parseInt(imf.group(2));
			month = MONTHS.indexOf(imf.group(3)) + 1;
			year = Integer.parseInt(imf.group(4));
			time = timeOfDay(imf, 5);
		}
		else if (rfc850.matches()) {
			day = Integer.parseInt(rfc850.group(2));
			month = MONTHS.indexOf(rfc850.group(3)) + 1;
			time = timeOfDay(rfc850, 5);
			year = twoDigitYear(Integer.parseInt(rfc850.group(4)), month, day, time, receivedAt);
		}
		else if (asctime.matches()) {
			month = MONTHS.indexOf(asctime.group(2)) + 1;
			day = Integer.parseInt(asctime.group(3).trim());
			time = timeOfDay(asctime, 4);
			year = Integer.parseInt(asctime.group(7));
		}
		else {
			return new Invalid(RetryAfterParser.NOT_DELAY_OR_DATE);
		}
		LocalDate date;
		try {
			date = LocalDate.of(year, month, day);
		}
		catch (DateTimeException ex) {
			return new Invalid(RetryAfterParser.IMPOSSIBLE_DATE);
		}
		if (time[0] > 23 || time[1] > 59 || time[2] > 60) {
			return new Invalid(RetryAfterParser.IMPOSSIBLE_DATE);
		}
		Instant instant = date.atTime(time[0], time[1], Math.min(time[2], 59))
			.toInstant(ZoneOffset.UTC)
			.plusSeconds(time[2] == 60 ? 1 : 0);
		Duration delay = Duration.between(receivedAt, instant);
		delay = delay.isNegative() ? Duration.ZERO : delay;
		return new Delay(delay.compareTo(RetryAfter.MAX_DELAY) > 0 ? RetryAfter.MAX_DELAY : delay, Form.DATE);
	}

	private static int[] timeOfDay(Matcher matcher, int group) {
		return new int[] { Integer.parseInt(matcher.group(group)), Integer.parseInt(matcher.group(group + 1)),
				Integer.parseInt(matcher.group(group + 2)) };
	}

	// RFC 9110 5.6.7, compared as digit strings the way the date reads, as RFC 850's example does.
	private static int twoDigitYear(int yy, int month, int day, int[] time, Instant receivedAt) {
		LocalDateTime received = LocalDateTime.ofInstant(receivedAt, ZoneOffset.UTC);
		int candidate = received.getYear() / 100 * 100 + yy;
		String format = "%04d%02d%02d%02d%02d%02d";
		String written = String.format(format, candidate, month, day, time[0], time[1], time[2]);
		String limit = String.format(format, received.getYear() + 50, received.getMonthValue(),
				received.getDayOfMonth(), received.getHour(), received.getMinute(), received.getSecond());
		return written.compareTo(limit) > 0 ? candidate - 100 : candidate;
	}

	private static Kind kindOf(RetryAfter result) {
		if (result instanceof Delay delay) {
			return delay.form() == Form.SECONDS ? Kind.SECONDS : Kind.DATE;
		}
		String why = ((Invalid) result).why();
		if (why.equals(RetryAfterParser.EMPTY_VALUE)) {
			return Kind.EMPTY;
		}
		return why.equals(RetryAfterParser.IMPOSSIBLE_DATE) ? Kind.IMPOSSIBLE : Kind.MALFORMED;
	}

	private static String escape(String value) {
		StringBuilder text = new StringBuilder("\"");
		for (char c : value.toCharArray()) {
			text.append((c < 0x20 || c > 0x7e) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
		}
		return text.append('"').toString();
	}

}
