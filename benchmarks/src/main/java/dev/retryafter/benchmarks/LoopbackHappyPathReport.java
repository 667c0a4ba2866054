package dev.retryafter.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * Runs {@link LoopbackHappyPathBenchmark} (JMH's own command-line options, forks included) and
 * writes one markdown row per transport and quota fields: the three variants' mean and median
 * times and allocations side by side, and the ratios of ours to the pass-through interceptor
 * and of the pass-through to the bare client. The ratios use the medians of the iterations,
 * as {@link JmhReport} does (this shared machine throws the odd slow iteration), and the
 * means beside them.
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.LoopbackHappyPathReport
 * --out=benchmarks/results/happy-path-loopback.md -f 1 -wi 3 -i 5 -w 1s -r 2s -prof gc}.
 */
public final class LoopbackHappyPathReport {

	private static final List<String> VARIANTS = List.of("bare", "pass-through", "ours");

	private static final List<String> FIELDS = List.of("none", "ietf", "x-ratelimit");

	private LoopbackHappyPathReport() {
	}

	/**
	 * One variant's time and allocation.
	 * @param mean mean us/op
	 * @param error the 99.9% error of the mean
	 * @param median median us/op over the measured iterations
	 * @param bytes bytes allocated per op, NaN without {@code -prof gc}
	 */
	record Cell(double mean, double error, double median, double bytes) {
	}

	/**
	 * Runs the benchmark and writes the table.
	 * @param args {@code --out=FILE} then JMH's options (without a benchmark pattern)
	 * @throws Exception if JMH fails or the table cannot be written
	 */
	public static void main(String[] args) throws Exception {
		List<String> jmhArgs = new ArrayList<>(List.of(args));
		Path out = Path.of("benchmarks/results/happy-path-loopback.md");
		if (!jmhArgs.isEmpty() && jmhArgs.get(0).startsWith("--out=")) {
			out = Path.of(jmhArgs.remove(0).substring("--out=".length()));
		}
		List<String> options = new ArrayList<>(jmhArgs);
		options.add(0, LoopbackHappyPathBenchmark.class.getSimpleName());
		Collection<RunResult> results = new Runner(new CommandLineOptions(options.toArray(new String[0]))).run();
		// transport and fields -> variant -> cell; JMH runs the fields outermost, the table
		// groups by transport
		Map<String, Map<String, Cell>> rows = new TreeMap<>(Comparator.comparing((String row) -> row.split(" ")[0])
			.thenComparing(LoopbackHappyPathReport::fieldsOrder));
		for (RunResult result : results) {
			BenchmarkParams params = result.getParams();
			String row = params.getParam("transport") + " | " + params.getParam("fields");
			Result<?> primary = result.getPrimaryResult();
			Result<?> bytes = result.getSecondaryResults().get("gc.alloc.rate.norm");
			rows.computeIfAbsent(row, (key) -> new LinkedHashMap<>())
				.put(params.getParam("variant"), new Cell(primary.getScore(), primary.getScoreError(),
						primary.getStatistics().getPercentile(50), (bytes != null) ? bytes.getScore() : Double.NaN));
		}
		String table = table(rows) + "\nJMH options: `" + String.join(" ", jmhArgs) + "`. "
				+ ResultFiles.environment() + ".\n";
		System.out.println(table);
		ResultFiles.write(out, table);
	}

	private static int fieldsOrder(String row) {
		int at = FIELDS.indexOf(row.substring(row.lastIndexOf(' ') + 1));
		return (at < 0) ? FIELDS.size() : at;
	}

	static String table(Map<String, Map<String, Cell>> rows) {
		StringBuilder md = new StringBuilder();
		md.append("| transport | fields | bare us/op | pass-through us/op | ours us/op "
				+ "| **ours \u00f7 pass-through** (medians) | (means) | pass-through \u00f7 bare (medians) "
				+ "| B/op bare, pass-through, ours |\n");
		md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		rows.forEach((row, cells) -> {
			if (!cells.keySet().containsAll(VARIANTS)) {
				return;
			}
			Cell bare = cells.get("bare");
			Cell pass = cells.get("pass-through");
			Cell ours = cells.get("ours");
			md.append("| ").append(row).append(" | ")
				.append(time(bare)).append(" | ")
				.append(time(pass)).append(" | ")
				.append(time(ours)).append(" | **")
				.append(Stats.format3(ours.median() / pass.median())).append("** | ")
				.append(Stats.format3(ours.mean() / pass.mean())).append(" | ")
				.append(Stats.format3(pass.median() / bare.median())).append(" | ")
				.append(bytes(bare)).append(", ").append(bytes(pass)).append(", ").append(bytes(ours)).append(" |\n");
		});
		md.append("\nEach time: the median of the iterations, then the mean \u00b1 its 99.9% error.\n");
		return md.toString();
	}

	private static String time(Cell cell) {
		return Stats.format(cell.median()) + " (" + Stats.format(cell.mean()) + " \u00b1 " + Stats.format(cell.error())
				+ ")";
	}

	private static String bytes(Cell cell) {
		return Double.isNaN(cell.bytes()) ? "-" : String.valueOf(Math.round(cell.bytes()));
	}

}
