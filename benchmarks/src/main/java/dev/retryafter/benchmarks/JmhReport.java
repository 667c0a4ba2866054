package dev.retryafter.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * Runs JMH benchmarks in this JVM (JMH's own command-line options, forks included) and writes a
 * markdown table with mean and median ns/op, B/op and ratios of medians: for the happy path,
 * each variant against (a) and (b); for the parser, each peer against ours on the same form.
 * Medians of the iterations are what the ratios use, as this shared machine throws the odd
 * slow iteration.
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.JmhReport
 * --out=benchmarks/results/happy-path.md HappyPathBenchmark -f 1 -wi 8 -i 5 -w 1s -r 1s -prof gc}.
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
	 * @param error the 99.9% error of the mean
	 * @param median median ns/op over the measured iterations
	 * @param bytes bytes allocated per op, NaN without {@code -prof gc}
	 */
	record Row(String name, double score, double error, double median, double bytes) {
	}

	/**
	 * Runs the benchmarks and writes the table.
	 * @param args {@code --out=FILE} then JMH's options
	 * @throws Exception if JMH fails or the table cannot be written
	 */
	public static void main(String[] args) throws Exception {
		List<String> jmhArgs = new ArrayList<>(List.of(args));
		Path out = Path.of("benchmarks/results/jmh.md");
		if (!jmhArgs.isEmpty() && jmhArgs.get(0).startsWith("--out=")) {
			out = Path.of(jmhArgs.remove(0).substring("--out=".length()));
		}
		Collection<RunResult> results = new Runner(new CommandLineOptions(jmhArgs.toArray(new String[0]))).run();
		Map<String, Row> rows = new LinkedHashMap<>();
		for (RunResult result : results) {
			String benchmark = result.getParams().getBenchmark();
			String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
			Result<?> primary = result.getPrimaryResult();
			Result<?> bytes = result.getSecondaryResults().get("gc.alloc.rate.norm");
			rows.put(method, new Row(method, primary.getScore(), primary.getScoreError(),
					primary.getStatistics().getPercentile(50), (bytes != null) ? bytes.getScore() : Double.NaN));
		}
		boolean parser = rows.keySet().stream().anyMatch((name) -> name.endsWith("_ours"));
		String table = (parser ? parserTable(rows) : happyPathTable(rows)) + "\nJMH options: `"
				+ String.join(" ", jmhArgs) + "`. " + ResultFiles.environment() + ".\n";
		System.out.println(table);
		ResultFiles.write(out, table);
	}

	static String happyPathTable(Map<String, Row> rows) {
		Row a = find(rows, "a_");
		Row b = find(rows, "b_");
		StringBuilder md = new StringBuilder();
		md.append("| variant | mean ns/op | \u00b1 (99.9%) | median ns/op | B/op | median \u00f7 (a) | median \u00f7 (b) | B/op \u2212 (b) |\n");
		md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (Row row : rows.values()) {
			md.append("| ").append(row.name()).append(" | ").append(Stats.format(row.score())).append(" | ")
				.append(Stats.format(row.error())).append(" | ").append(Stats.format(row.median())).append(" | ")
				.append(Stats.format(row.bytes())).append(" | ")
				.append(ratio(row, a)).append(" | ").append(ratio(row, b)).append(" | ")
				.append((b != null) ? Stats.format(row.bytes() - b.bytes()) : "-").append(" |\n");
		}
		return md.toString();
	}

	static String parserTable(Map<String, Row> rows) {
		StringBuilder md = new StringBuilder();
		md.append("| form | parser | mean ns/op | \u00b1 (99.9%) | median ns/op | B/op | median \u00f7 ours |\n");
		md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
		List<Row> ordered = new ArrayList<>(rows.values());
		ordered.sort(Comparator.comparingInt((Row row) -> FORMS.indexOf(row.name().substring(0, row.name().indexOf('_'))))
			.thenComparing((row) -> !row.name().endsWith("_ours"))
			.thenComparing(Row::name));
		for (Row row : ordered) {
			String form = row.name().substring(0, row.name().indexOf('_'));
			Row ours = rows.get(form + "_ours");
			md.append("| ").append(form).append(" | ").append(row.name().substring(form.length() + 1)).append(" | ")
				.append(Stats.format(row.score())).append(" | ").append(Stats.format(row.error())).append(" | ")
				.append(Stats.format(row.median())).append(" | ").append(Stats.format(row.bytes())).append(" | ")
				.append(ratio(row, ours)).append(" |\n");
		}
		return md.toString();
	}

	private static Row find(Map<String, Row> rows, String prefix) {
		return rows.values().stream().filter((row) -> row.name().startsWith(prefix)).findFirst().orElse(null);
	}

	private static String ratio(Row row, Row base) {
		return (base != null) ? Stats.format2(row.median() / base.median()) : "-";
	}

}
