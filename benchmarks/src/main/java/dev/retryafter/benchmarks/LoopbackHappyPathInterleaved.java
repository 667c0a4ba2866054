package dev.retryafter.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * {@link LoopbackHappyPathBenchmark}'s three variants in one JVM, measured for ratios on a
 * shared, noisy machine: in each round the variants take turns call by call, in a new
 * shuffled order for each turn, so that a burst of load from elsewhere hits every variant
 * alike; the ratios are medians of per-round ratios. Beside the wall time it reads the
 * calling thread's CPU time per call, which the origin's threads and the scheduler do not
 * blur: what the interceptor itself costs on a real exchange, and the bytes that thread
 * allocates per call (JMH's B/op counts the origin's threads in the same JVM too). {@code --extra-variants} adds
 * variants of {@link LoopbackHappyPathBenchmark#variant} (a second {@code pass-through} shows
 * the harness's own spread), each reported against the pass-through on standard output. The three share one origin and the JDK's client;
 * each has its HttpClient 5 connection pool, as in the JMH benchmark.
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.LoopbackHappyPathInterleaved}
 * with options {@code --transports=hc5,jdk,memory --fields=none,ietf,x-ratelimit --rounds=40
 * --warmup-rounds=50 --batch=200 --memory-batch=10000 --out=benchmarks/results}.
 */
public final class LoopbackHappyPathInterleaved {

	private static final List<String> VARIANTS = List.of("bare", "pass-through", "ours");

	/** Variants measured beside the three, each reported against the pass-through. */
	private static List<String> extraVariants = List.of();

	private static volatile int sink;

	private LoopbackHappyPathInterleaved() {
	}

	/**
	 * Runs the rounds for each transport and fields, and writes the table.
	 * @param args see the class description
	 * @throws Exception if a client fails to close
	 */
	public static void main(String[] args) throws Exception {
		Options options = Options.parse(args);
		List<String> transports = options.list("transports", "hc5,jdk,memory");
		List<String> fields = options.list("fields", "none,ietf,x-ratelimit");
		int rounds = options.integer("rounds", 40);
		// Fifty: after ten, the quota path was still being compiled while the rounds were measured.
		int warmup = options.integer("warmup-rounds", 50);
		int batch = options.integer("batch", 200);
		// Without the exchange a call is a few hundred times shorter.
		int memoryBatch = options.integer("memory-batch", 10_000);
		Path out = Path.of(options.string("out", "benchmarks/results"));
		extraVariants = options.list("extra-variants", "");
		StringBuilder md = new StringBuilder();
		md.append("| transport | fields | bare us/op | pass-through us/op | ours us/op "
				+ "| **ours \u00f7 pass-through** | middle half of the rounds | ours \u2212 pass-through, us "
				+ "| pass-through \u00f7 bare | pass-through, calling thread's CPU us/op "
				+ "| ours \u2212 pass-through, calling thread's CPU us "
				+ "| calling thread's allocation per call, B: pass-through \u2192 ours |\n");
		md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
		for (String transport : transports) {
			for (String field : fields) {
				md.append(row(transport, field, rounds, warmup, "memory".equals(transport) ? memoryBatch : batch));
				System.out.print(md.substring(md.lastIndexOf("| " + transport + " | " + field + " |")));
			}
		}
		md.append("\n").append(rounds).append(" rounds (after ").append(warmup).append(" warm-up rounds) of ")
			.append(batch).append(" calls (in memory ").append(memoryBatch).append(") per variant, the variants taking turns call by call in a new shuffled order each turn; times are medians of ")
			.append("the rounds, ratios and differences medians of the per-round ones. ")
			.append(ResultFiles.environment()).append(".\n");
		System.out.println(md);
		ResultFiles.write(out.resolve("happy-path-loopback-interleaved.md"), md.toString());
	}

	private static String row(String transport, String fields, int rounds, int warmup, int batch) throws Exception {
		List<LoopbackHappyPathBenchmark> variants = new ArrayList<>();
		LoopbackHappyPathBenchmark first = new LoopbackHappyPathBenchmark();
		first.fields = fields;
		first.remaining = 1_000_000_000L;
		first.window = 60;
		// One origin and one JDK client for the three: with one each, where the scheduler put
		// their threads on the two cores moved one variant against another by up to 2x.
		LoopbackServer origin = "memory".equals(transport) ? null : new LoopbackServer(first::answer);
		HttpClient jdkClient = HttpClient.newHttpClient();
		try {
			List<String> all = new ArrayList<>(VARIANTS);
			all.addAll(extraVariants);
			for (String variant : all) {
				LoopbackHappyPathBenchmark state = new LoopbackHappyPathBenchmark();
				state.variant = variant;
				state.transport = transport;
				state.fields = fields;
				state.remaining = 1_000_000_000L;
				state.window = 60;
				state.origin = origin;
				state.jdkClient = jdkClient;
				variants.add(state);
				state.setUp();
			}
			double[][] cpuPerOp = new double[variants.size()][rounds];
			double[][] bytesPerOp = new double[variants.size()][rounds];
			double[][] usPerOp = measure(variants, rounds, warmup, batch, cpuPerOp, bytesPerOp);
			double[] cpuDifferences = new double[rounds];
			for (int i = 0; i < rounds; i++) {
				cpuDifferences[i] = cpuPerOp[2][i] - cpuPerOp[1][i];
			}
			Arrays.sort(cpuDifferences);
			double[] bare = sorted(usPerOp[0]);
			double[] pass = sorted(usPerOp[1]);
			double[] ours = sorted(usPerOp[2]);
			double[] ratios = sorted(ratios(usPerOp[2], usPerOp[1]));
			double[] differences = new double[rounds];
			for (int i = 0; i < rounds; i++) {
				differences[i] = usPerOp[2][i] - usPerOp[1][i];
			}
			Arrays.sort(differences);
			for (int extra = VARIANTS.size(); extra < variants.size(); extra++) {
				double[] extraRatios = sorted(ratios(usPerOp[extra], usPerOp[1]));
				double[] extraCpu = new double[rounds];
				for (int i = 0; i < rounds; i++) {
					extraCpu[i] = cpuPerOp[extra][i] - cpuPerOp[1][i];
				}
				Arrays.sort(extraCpu);
				System.out.println(transport + " " + fields + " " + variants.get(extra).variant + " \u00f7 pass-through: "
						+ Stats.format3(Stats.percentile(extraRatios, 50)) + " (" + Stats.format3(Stats.percentile(extraRatios, 25))
						+ "-" + Stats.format3(Stats.percentile(extraRatios, 75)) + "), calling thread's CPU "
						+ Stats.format(Stats.percentile(extraCpu, 50)) + " us more, allocates "
						+ Math.round(Stats.percentile(sorted(bytesPerOp[extra]), 50)) + " B per call");
			}
			return "| " + transport + " | " + fields + " | " + Stats.format(Stats.percentile(bare, 50)) + " | "
					+ Stats.format(Stats.percentile(pass, 50)) + " | " + Stats.format(Stats.percentile(ours, 50))
					+ " | **" + Stats.format3(Stats.percentile(ratios, 50)) + "** | "
					+ Stats.format3(Stats.percentile(ratios, 25)) + "-" + Stats.format3(Stats.percentile(ratios, 75))
					+ " | " + Stats.format(Stats.percentile(differences, 50)) + " | "
					+ Stats.format3(Stats.percentile(sorted(ratios(usPerOp[1], usPerOp[0])), 50)) + " | "
					+ Stats.format(Stats.percentile(sorted(cpuPerOp[1]), 50)) + " | "
					+ Stats.format(Stats.percentile(cpuDifferences, 50)) + " | "
					+ Math.round(Stats.percentile(sorted(bytesPerOp[1]), 50)) + " \u2192 "
					+ Math.round(Stats.percentile(sorted(bytesPerOp[2]), 50)) + " |\n";
		}
		finally {
			for (LoopbackHappyPathBenchmark state : variants) {
				state.tearDown();
			}
			if (origin != null) {
				origin.close();
			}
		}
	}

	/**
	 * Wall time per call of each variant, per round, and the calling thread's CPU time per
	 * call in {@code cpuPerOp}. Within a round the variants take turns call by call, in a new
	 * shuffled order for each turn, so that whatever else the machine does (the origin's
	 * threads, a collection, another build) falls on every variant alike within milliseconds.
	 */
	private static double[][] measure(List<LoopbackHappyPathBenchmark> variants, int rounds, int warmup, int batch,
			double[][] cpuPerOp, double[][] bytesPerOp) {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		// The calling thread's own allocation: JMH's B/op counts the origin's threads too.
		com.sun.management.ThreadMXBean allocations = (com.sun.management.ThreadMXBean) threads;
		long thread = Thread.currentThread().getId();
		int count = variants.size();
		double[][] usPerOp = new double[count][rounds];
		Random order = new Random(42);
		List<Integer> indexes = new ArrayList<>();
		for (int variant = 0; variant < count; variant++) {
			indexes.add(variant);
		}
		for (int round = -warmup; round < rounds; round++) {
			long[] wall = new long[count];
			long[] cpu = new long[count];
			long[] bytes = new long[count];
			int length = 0;
			for (int i = 0; i < batch; i++) {
				Collections.shuffle(indexes, order);
				for (int variant : indexes) {
					LoopbackHappyPathBenchmark state = variants.get(variant);
					long allocated = allocations.getThreadAllocatedBytes(thread);
					long cpuStart = threads.getCurrentThreadCpuTime();
					long start = System.nanoTime();
					length += state.call().length();
					long end = System.nanoTime();
					cpu[variant] += threads.getCurrentThreadCpuTime() - cpuStart;
					bytes[variant] += allocations.getThreadAllocatedBytes(thread) - allocated;
					wall[variant] += end - start;
				}
			}
			sink += length;
			if (round >= 0) {
				for (int variant = 0; variant < count; variant++) {
					usPerOp[variant][round] = wall[variant] / 1000.0 / batch;
					cpuPerOp[variant][round] = cpu[variant] / 1000.0 / batch;
					bytesPerOp[variant][round] = (double) bytes[variant] / batch;
				}
			}
		}
		return usPerOp;
	}

	private static double[] ratios(double[] values, double[] base) {
		double[] ratios = new double[values.length];
		for (int i = 0; i < values.length; i++) {
			ratios[i] = values[i] / base[i];
		}
		return ratios;
	}

	private static double[] sorted(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted;
	}

}
