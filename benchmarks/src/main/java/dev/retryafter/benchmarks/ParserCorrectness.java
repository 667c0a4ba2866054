package dev.retryafter.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Which of the four parsers reads each tricky {@code Retry-After} value right. Prints a
 * markdown table and writes it to {@code <out>/parser-correctness.md}.
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.ParserCorrectness}
 * (option {@code --out=benchmarks/results}).
 */
public final class ParserCorrectness {

	/** The response is taken as received at this instant, so every result is reproducible. */
	static final Instant RECEIVED_AT = Instant.parse("2026-06-01T00:00:00Z");

	private ParserCorrectness() {
	}

	/**
	 * One tricky value and what it means under RFC 9110 and this library's reading of it.
	 *
	 * @param what what the case checks
	 * @param value the field value
	 * @param expected the right reading
	 */
	record Case(String what, String value, Verdict expected) {
	}

	static List<Case> cases() {
		return List.of(new Case("delay-seconds", "120", seconds(120)),
				new Case("leading zeros", "0003", seconds(3)),
				new Case("IMF-fixdate", "Mon, 01 Jun 2026 00:02:00 GMT", seconds(120)),
				new Case("RFC 850 date", "Monday, 01-Jun-26 00:02:00 GMT", seconds(120)),
				new Case("asctime, space-padded day", "Mon Jun  1 00:02:00 2026", seconds(120)),
				new Case("asctime, RFC example (past)", "Sun Nov  6 08:49:37 1994", seconds(0)),
				new Case("leap second 23:59:60", "Tue, 30 Jun 2026 23:59:60 GMT",
						until("2026-07-01T00:00:00Z")),
				new Case("31 Feb (weekday of 28 Feb)", "Sun, 31 Feb 2027 00:00:00 GMT", Verdict.invalid()),
				new Case("hour 24", "Mon, 01 Jun 2026 24:00:00 GMT", Verdict.invalid()),
				new Case("RFC 850 year 70 means 2070", "Monday, 08-Sep-70 12:00:00 GMT",
						until("2070-09-08T12:00:00Z")),
				new Case("RFC 850 year 94 means 1994", "Sunday, 06-Nov-94 08:49:37 GMT", seconds(0)),
				new Case("huge: '9' x 5000", "9".repeat(5000), Verdict.delay(Verdict.SATURATED)),
				new Case("sign", "-1", Verdict.invalid()), new Case("fraction", "1.5", Verdict.invalid()),
				new Case("list", "1, 2", Verdict.invalid()),
				new Case("non-ASCII digit (Arabic-Indic 3)", "\u0663", Verdict.invalid()));
	}

	private static Verdict seconds(long seconds) {
		return Verdict.delay(Duration.ofSeconds(seconds));
	}

	private static Verdict until(String instant) {
		return Verdict.delay(Duration.between(RECEIVED_AT, Instant.parse(instant)));
	}

	/**
	 * Runs the comparison.
	 * @param args {@code --out=DIR}
	 */
	public static void main(String[] args) {
		Options options = Options.parse(args);
		Path out = Path.of(options.string("out", "benchmarks/results"));
		String table = table();
		System.out.println(table);
		ResultFiles.write(out.resolve("parser-correctness.md"), table);
	}

	static String table() {
		StringBuilder md = new StringBuilder();
		md.append("Response received at ").append(RECEIVED_AT).append(". A cell shows what the parser read; ")
			.append("\u2714 = right, \u2718 = wrong.\n\n");
		md.append("| case | value | expected |");
		for (RetryAfterPeers peer : RetryAfterPeers.values()) {
			md.append(' ').append(peer.label()).append(" |");
		}
		md.append("\n| --- | --- | --- |");
		md.append(" --- |".repeat(RetryAfterPeers.values().length));
		md.append('\n');
		Map<RetryAfterPeers, Integer> right = new EnumMap<>(RetryAfterPeers.class);
		List<Case> cases = cases();
		for (Case c : cases) {
			md.append("| ").append(c.what()).append(" | `").append(shown(c.value())).append("` | ")
				.append(c.expected()).append(" |");
			for (RetryAfterPeers peer : RetryAfterPeers.values()) {
				Verdict verdict = peer.read(c.value(), RECEIVED_AT);
				boolean ok = verdict.matches(c.expected());
				right.merge(peer, ok ? 1 : 0, Integer::sum);
				md.append(' ').append(verdict).append(ok ? " \u2714" : " \u2718").append(" |");
			}
			md.append('\n');
		}
		md.append("| **right** | | |");
		for (RetryAfterPeers peer : RetryAfterPeers.values()) {
			md.append(" **").append(right.get(peer)).append('/').append(cases.size()).append("** |");
		}
		md.append('\n');
		return md.toString();
	}

	private static String shown(String value) {
		if (value.length() > 40) {
			return value.substring(0, 12) + "\u2026 (" + value.length() + " chars)";
		}
		return value.replace("  ", "\u00a0\u00a0");
	}

}
