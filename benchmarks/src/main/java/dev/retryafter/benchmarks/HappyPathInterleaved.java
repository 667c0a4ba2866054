package dev.retryafter.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import org.springframework.web.client.RestClient;

/**
 * The happy-path comparison of {@link HappyPathBenchmark}, measured for ratios on a shared,
 * noisy machine: rounds of one batch per variant, in a shuffled order, so that a burst of load
 * from elsewhere hits every variant alike; the ratios are medians of per-round ratios. JMH
 * gives the allocation figures; this gives the steadier ratios.
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.HappyPathInterleaved}
 * with options {@code --rounds=60 --warmup-rounds=20 --batch=10000 --out=benchmarks/results}.
 */
public final class HappyPathInterleaved {

	private static volatile int sink;

	private HappyPathInterleaved() {
	}

	/**
	 * Runs the rounds.
	 * @param args see the class description
	 */
	public static void main(String[] args) {
		run(args, HappyPathClients.create().all(), HappyPathClients.NAMES, "happy-path-interleaved.md");
	}

	/**
	 * Runs the rounds over some clients, the second of which is the one the ratios and
	 * differences are taken against, and writes the table.
	 * @param args the options of the class description
	 * @param clients the variants, (a) first and (b) second
	 * @param names their names, in the same order
	 * @param file the name of the result file
	 */
	static void run(String[] args, List<RestClient> clients, List<String> names, String file) {
		run(args, clients, names, file, HappyPathClients::get);
	}

	/**
	 * Runs the rounds as {@link #run(String[], List, List, String)} does, each operation
	 * being one {@code call} of a client (a request to a loopback origin, say).
	 * @param args the options of the class description
	 * @param clients the variants, (a) first and (b) second
	 * @param names their names, in the same order
	 * @param file the name of the result file
	 * @param call one operation on a client, returning the body it read
	 */
	static void run(String[] args, List<RestClient> clients, List<String> names, String file,
			Function<RestClient, String> call) {
		Options options = Options.parse(args);
		int rounds = options.integer("rounds", 60);
		int warmup = options.integer("warmup-rounds", 20);
		int batch = options.integer("batch", 10_000);
		Path out = Path.of(options.string("out", "benchmarks/results"));
		int variants = clients.size();
		double[][] nsPerOp = new double[variants][rounds];
		Random order = new Random(42);
		List<Integer> indexes = new ArrayList<>();
		for (int variant = 0; variant < variants; variant++) {
			indexes.add(variant);
		}
		for (int round = -warmup; round < rounds; round++) {
			Collections.shuffle(indexes, order);
			for (int variant : indexes) {
				RestClient client = clients.get(variant);
				long start = System.nanoTime();
				int length = 0;
				for (int i = 0; i < batch; i++) {
					length += call.apply(client).length();
				}
				long elapsed = System.nanoTime() - start;
				sink += length;
				if (round >= 0) {
					nsPerOp[variant][round] = (double) elapsed / batch;
				}
			}
		}
		String table = table(nsPerOp, names, rounds, warmup, batch);
		System.out.println(table);
		ResultFiles.write(out.resolve(file), table);
	}

	private static String table(double[][] nsPerOp, List<String> names, int rounds, int warmup, int batch) {
		StringBuilder md = new StringBuilder();
		md.append("| variant | median ns/op | p10 ns/op | p90 ns/op | median of round ratios \u00f7 (a) "
				+ "| median of round ratios \u00f7 (b) | median of round differences \u2212 (b), ns |\n");
		md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (int v = 0; v < nsPerOp.length; v++) {
			double[] sorted = nsPerOp[v].clone();
			Arrays.sort(sorted);
			md.append("| ").append(names.get(v)).append(" | ")
				.append(Stats.format(Stats.percentile(sorted, 50))).append(" | ")
				.append(Stats.format(Stats.percentile(sorted, 10))).append(" | ")
				.append(Stats.format(Stats.percentile(sorted, 90))).append(" | ")
				.append(Stats.format3(medianRatio(nsPerOp[v], nsPerOp[0]))).append(" | ")
				.append(Stats.format3(medianRatio(nsPerOp[v], nsPerOp[1]))).append(" | ")
				.append(Stats.format(medianDifference(nsPerOp[v], nsPerOp[1]))).append(" |\n");
		}
		md.append("\n").append(rounds).append(" rounds (after ").append(warmup).append(" warm-up rounds) of ")
			.append(batch).append(" calls per variant, variants in a shuffled order each round. ")
			.append(ResultFiles.environment()).append(".\n");
		return md.toString();
	}

	private static double medianRatio(double[] values, double[] base) {
		double[] ratios = new double[values.length];
		for (int i = 0; i < values.length; i++) {
			ratios[i] = values[i] / base[i];
		}
		Arrays.sort(ratios);
		return Stats.percentile(ratios, 50);
	}

	private static double medianDifference(double[] values, double[] base) {
		double[] differences = new double[values.length];
		for (int i = 0; i < values.length; i++) {
			differences[i] = values[i] - base[i];
		}
		Arrays.sort(differences);
		return Stats.percentile(differences, 50);
	}

}
