package dev.retryafter.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a JMH CSV result file ({@code -rf csv -rff FILE}, with {@code -prof gc}) into a
 * markdown table with ratios: for the happy path, each variant against (a) and (b); for the
 * parser, each peer against ours on the same form.
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.JmhReport
 * --csv=benchmarks/results/jmh-happy-path.csv --out=benchmarks/results/happy-path.md}.
 */
public final class JmhReport {

	private static final List<String> FORMS = List.of("seconds", "imf", "rfc850", "asctime");

	private JmhReport() {
	}

	/**
	 * One benchmark's time and allocation.
	 *
	 * @param name the method name
	 * @param score mean ns/op
	 * @param error the 99.9% error of the score
	 * @param bytes bytes allocated per op, NaN without {@code -prof gc}
	 */
	record Row(String name, double score, double error, double bytes) {
	}

	/**
	 * Writes the table.
	 * @param args {@code --csv=FILE --out=FILE}
	 * @throws IOException if a file cannot be read or written
	 */
	public static void main(String[] args) throws IOException {
		Options options = Options.parse(args);
		Path csv = Path.of(options.string("csv", "benchmarks/results/jmh-happy-path.csv"));
		Path out = Path.of(options.string("out", "benchmarks/results/happy-path.md"));
		Map<String, Row> rows = read(csv);
		boolean parser = rows.keySet().stream().anyMatch((name) -> name.endsWith("_ours"));
		String table = parser ? parserTable(rows) : happyPathTable(rows);
		System.out.println(table);
		ResultFiles.write(out, table);
	}

	static Map<String, Row> read(Path csv) throws IOException {
		Map<String, double[]> scores = new LinkedHashMap<>();
		Map<String, Double> bytes = new LinkedHashMap<>();
		List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
		for (String line : lines.subList(1, lines.size())) {
			List<String> cells = cells(line);
			String benchmark = cells.get(0);
			int secondary = secondaryStart(benchmark);
			String primary = (secondary < 0) ? benchmark : benchmark.substring(0, secondary);
			String method = primary.substring(primary.lastIndexOf('.') + 1);
			double score = Double.parseDouble(cells.get(4));
			double error = cells.get(5).isEmpty() ? Double.NaN : Double.parseDouble(cells.get(5));
			if (secondary < 0) {
				scores.put(method, new double[] { score, error });
			}
			else if (benchmark.endsWith("gc.alloc.rate.norm")) {
				bytes.put(method, score);
			}
		}
		Map<String, Row> rows = new LinkedHashMap<>();
		scores.forEach((method, score) -> rows.put(method,
				new Row(method, score[0], score[1], bytes.getOrDefault(method, Double.NaN))));
		return rows;
	}

	/** Where a secondary result's suffix starts ({@code :gc.alloc.rate.norm}), or -1. */
	private static int secondaryStart(String benchmark) {
		int colon = benchmark.indexOf(':');
		int dot = benchmark.indexOf('\u00b7');
		if (colon < 0 || dot < 0) {
			return Math.max(colon, dot);
		}
		return Math.min(colon, dot);
	}

	private static List<String> cells(String line) {
		List<String> cells = new ArrayList<>();
		StringBuilder cell = new StringBuilder();
		boolean quoted = false;
		for (char c : line.toCharArray()) {
			if (c == '"') {
				quoted = !quoted;
			}
			else if (c == ',' && !quoted) {
				cells.add(cell.toString());
				cell.setLength(0);
			}
			else {
				cell.append(c);
			}
		}
		cells.add(cell.toString());
		return cells;
	}

	static String happyPathTable(Map<String, Row> rows) {
		Row a = find(rows, "a_");
		Row b = find(rows, "b_");
		StringBuilder md = new StringBuilder();
		md.append("| variant | ns/op | \u00b1 (99.9%) | B/op | \u00f7 (a) time | \u00f7 (b) time | B/op \u2212 (b) |\n");
		md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (Row row : rows.values()) {
			md.append("| ").append(row.name()).append(" | ").append(Stats.format(row.score())).append(" | ")
				.append(Stats.format(row.error())).append(" | ").append(Stats.format(row.bytes())).append(" | ")
				.append(ratio(row, a)).append(" | ").append(ratio(row, b)).append(" | ")
				.append((b != null) ? Stats.format(row.bytes() - b.bytes()) : "-").append(" |\n");
		}
		return md.toString();
	}

	static String parserTable(Map<String, Row> rows) {
		StringBuilder md = new StringBuilder();
		md.append("| form | parser | ns/op | \u00b1 (99.9%) | B/op | time \u00f7 ours |\n");
		md.append("| --- | --- | ---: | ---: | ---: | ---: |\n");
		List<Row> ordered = new ArrayList<>(rows.values());
		ordered.sort(Comparator.comparingInt((Row row) -> FORMS.indexOf(row.name().substring(0, row.name().indexOf('_'))))
			.thenComparing((row) -> !row.name().endsWith("_ours"))
			.thenComparing(Row::name));
		for (Row row : ordered) {
			String form = row.name().substring(0, row.name().indexOf('_'));
			Row ours = rows.get(form + "_ours");
			md.append("| ").append(form).append(" | ").append(row.name().substring(form.length() + 1)).append(" | ")
				.append(Stats.format(row.score())).append(" | ").append(Stats.format(row.error())).append(" | ")
				.append(Stats.format(row.bytes())).append(" | ").append(ratio(row, ours)).append(" |\n");
		}
		return md.toString();
	}

	private static Row find(Map<String, Row> rows, String prefix) {
		return rows.values().stream().filter((row) -> row.name().startsWith(prefix)).findFirst().orElse(null);
	}

	private static String ratio(Row row, Row base) {
		return (base != null) ? Stats.format2(row.score() / base.score()) : "-";
	}

}
