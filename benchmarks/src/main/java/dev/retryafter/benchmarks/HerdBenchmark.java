package dev.retryafter.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The thundering herd: N callers get the same {@code 503} with {@code Retry-After: 1} at the
 * same moment, then {@code 200}. For each client it measures the retries that arrive before the
 * instant the server named (must be 0), how late the first retries are after it (p50, p99), and
 * the peak number of retries in any 10 ms window; it renders retries per 10 ms over time.
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.HerdBenchmark}
 * with options {@code --callers=50,200,1000 --clients=ours,ours-no-budget,ours-no-cooldown,hc5,resilience4j,spring-retry
 * --out=benchmarks/results --png=docs/herd.png --chart-callers=200}. The herd of
 * {@code chart-callers} is drawn to {@code png}, the others to {@code <out>/herd-<N>.png}.
 */
public final class HerdBenchmark {

	private static final long BUCKET_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private static final long RUN_TIMEOUT_MILLIS = 60_000;

	private HerdBenchmark() {
	}

	/**
	 * What one client did in one herd.
	 *
	 * @param contender the client
	 * @param callers the herd size
	 * @param retries retries received by the origin
	 * @param early retries that arrived before the instant the server named
	 * @param lateP50 median lateness of each caller's first retry, ms
	 * @param lateP99 99th percentile lateness, ms
	 * @param lateMax largest lateness, ms
	 * @param peak10ms most retries within any 10 ms
	 * @param succeeded callers whose call ended in 200
	 * @param failed callers whose call ended otherwise
	 * @param spreadMs time between the first and the last 503 leaving the origin, ms
	 * @param timeline retries per 10 ms from the first 503
	 * @param gaveUp why calls gave up, where the client says so
	 */
	record Result(Contender contender, int callers, int retries, int early, double lateP50, double lateP99,
			double lateMax, int peak10ms, int succeeded, int failed, double spreadMs, int[] timeline, String gaveUp) {
	}

	/**
	 * Runs the herds.
	 * @param args see the class description
	 * @throws InterruptedException if interrupted
	 */
	public static void main(String[] args) throws InterruptedException {
		System.setProperty("java.awt.headless", "true");
		Options options = Options.parse(args);
		List<Integer> sizes = options.integers("callers", "50,200,1000");
		List<Contender> contenders = Contender
			.select(options.list("clients", "ours,ours-no-budget,ours-no-cooldown,hc5,resilience4j,spring-retry"));
		Path out = Path.of(options.string("out", "benchmarks/results"));
		Path png = Path.of(options.string("png", "docs/herd.png"));
		// 200 by default: on 2 cores the origin sends 200 503s within tens of milliseconds, a
		// real herd; 1000 take it hundreds of milliseconds, and the picture shows the machine.
		int chartSize = options.integer("chart-callers", sizes.contains(200) ? 200 : sizes.get(sizes.size() - 1));
		int retryAfter = options.integer("retry-after", 1);
		System.out.println(ResultFiles.environment());
		for (Contender contender : contenders) {
			run(contender, Math.min(20, chartSize), retryAfter);
		}
		List<Result> results = new ArrayList<>();
		for (int size : sizes) {
			for (Contender contender : contenders) {
				Result result = run(contender, size, retryAfter);
				results.add(result);
				System.out.printf("%-40s N=%4d retries=%4d early=%4d late p50=%6s p99=%6s ms peak/10ms=%4d ok=%d%n",
						contender.label(), size, result.retries(), result.early(), Stats.format(result.lateP50()),
						Stats.format(result.lateP99()), result.peak10ms(), result.succeeded());
			}
		}
		ResultFiles.write(out.resolve("herd.md"), markdown(results, retryAfter));
		ResultFiles.write(out.resolve("herd.csv"), csv(results));
		ResultFiles.write(out.resolve("herd-timeline.csv"), timelineCsv(results));
		for (int size : sizes) {
			Path file = (size == chartSize) ? png : out.resolve("herd-" + size + ".png");
			HerdChart.render(file, size, retryAfter, series(results, size));
			System.out.println("wrote " + file);
		}
	}

	private static Map<String, int[]> series(List<Result> results, int size) {
		Map<String, int[]> series = new LinkedHashMap<>();
		for (Result result : results) {
			if (result.callers() == size) {
				series.put(result.contender().label() + " (peak " + result.peak10ms() + " in any 10 ms, "
						+ result.early() + " early)", result.timeline());
			}
		}
		return series;
	}

	static Result run(Contender contender, int callers, int retryAfterSeconds) throws InterruptedException {
		try (HerdOrigin origin = new HerdOrigin(callers, retryAfterSeconds, RUN_TIMEOUT_MILLIS / 3);
				Caller caller = contender.open(callers)) {
			int[] statuses = new int[callers];
			CountDownLatch go = new CountDownLatch(1);
			List<Thread> threads = new ArrayList<>(callers);
			for (int i = 0; i < callers; i++) {
				int index = i;
				Thread thread = new Thread(null, () -> {
					try {
						go.await();
						statuses[index] = caller.get(origin.uri(index));
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}, "caller-" + i, 512 * 1024);
				thread.setDaemon(true);
				thread.start();
				threads.add(thread);
			}
			go.countDown();
			long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RUN_TIMEOUT_MILLIS);
			for (Thread thread : threads) {
				long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
				if (left > 0) {
					thread.join(left);
				}
				thread.interrupt();
			}
			return measure(contender, callers, origin, statuses, caller.abandonments());
		}
	}

	private static Result measure(Contender contender, int callers, HerdOrigin origin, int[] statuses,
			String gaveUp) {
		long[] rejectedAt = origin.rejectedAt();
		long[][] retries = origin.retries();
		long after = TimeUnit.SECONDS.toNanos(origin.retryAfterSeconds());
		long start = Arrays.stream(rejectedAt).filter((t) -> t != 0).min().orElse(0);
		long[] firstRetry = new long[callers];
		long[] arrivals = new long[retries.length];
		int early = 0;
		long last = start;
		for (int i = 0; i < retries.length; i++) {
			int caller = (int) retries[i][0];
			long arrived = retries[i][1];
			arrivals[i] = arrived;
			if (rejectedAt[caller] != 0 && arrived < rejectedAt[caller] + after) {
				early++;
			}
			if (firstRetry[caller] == 0 || arrived < firstRetry[caller]) {
				firstRetry[caller] = arrived;
			}
			last = Math.max(last, arrived);
		}
		double[] lateness = new double[callers];
		int withRetry = 0;
		for (int caller = 0; caller < callers; caller++) {
			if (firstRetry[caller] != 0 && rejectedAt[caller] != 0) {
				lateness[withRetry++] = (firstRetry[caller] - rejectedAt[caller] - after) / 1e6;
			}
		}
		double[] sorted = Arrays.copyOf(lateness, withRetry);
		Arrays.sort(sorted);
		int[] timeline = new int[(int) ((last - start) / BUCKET_NANOS) + 1];
		for (long arrived : arrivals) {
			timeline[(int) ((arrived - start) / BUCKET_NANOS)]++;
		}
		int succeeded = (int) Arrays.stream(statuses).filter((status) -> status == 200).count();
		double spreadMs = (Arrays.stream(rejectedAt).max().orElse(0) - start) / 1e6;
		return new Result(contender, callers, retries.length, early, Stats.percentile(sorted, 50),
				Stats.percentile(sorted, 99), (withRetry > 0) ? sorted[withRetry - 1] : Double.NaN,
				Stats.peakInWindow(arrivals, BUCKET_NANOS), succeeded, callers - succeeded, spreadMs, timeline, gaveUp);
	}

	static String markdown(List<Result> results, int retryAfter) {
		StringBuilder md = new StringBuilder();
		md.append("Each of N callers gets `503` with `Retry-After: ").append(retryAfter)
			.append("` at the same moment, then `200`. ")
			.append("Early = retries that reached the origin before the instant the server named ")
			.append("(the 503's send time + ").append(retryAfter).append(" s). Lateness = first retry's ")
			.append("arrival minus that instant. Peak = most retries in any 10 ms. Spread = time the origin ")
			.append("took to send all N 503s (the 'same moment', on this machine). ")
			.append(ResultFiles.environment()).append(".\n\n");
		md.append("| client | N | retries | early | late p50 ms | late p99 ms | late max ms | peak / 10 ms | ended 200 | 503 spread ms | ours: why calls gave up |\n");
		md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
		for (Result r : results) {
			md.append("| ").append(r.contender().label()).append(" | ").append(r.callers()).append(" | ")
				.append(r.retries()).append(" | ").append(r.early()).append(" | ").append(Stats.format(r.lateP50()))
				.append(" | ").append(Stats.format(r.lateP99())).append(" | ").append(Stats.format(r.lateMax()))
				.append(" | ").append(r.peak10ms()).append(" | ").append(r.succeeded()).append(" | ")
				.append(Stats.format(r.spreadMs())).append(" | ").append(r.gaveUp().isEmpty() ? "-" : r.gaveUp())
				.append(" |\n");
		}
		return md.toString();
	}

	private static String csv(List<Result> results) {
		StringBuilder csv = new StringBuilder(
				"client,callers,retries,early,late_p50_ms,late_p99_ms,late_max_ms,peak_per_10ms,succeeded,failed,spread_503_ms\n");
		for (Result r : results) {
			csv.append(r.contender().key()).append(',').append(r.callers()).append(',').append(r.retries()).append(',')
				.append(r.early()).append(',').append(Stats.format(r.lateP50())).append(',')
				.append(Stats.format(r.lateP99())).append(',').append(Stats.format(r.lateMax())).append(',')
				.append(r.peak10ms()).append(',').append(r.succeeded()).append(',').append(r.failed()).append(',')
				.append(Stats.format(r.spreadMs())).append('\n');
		}
		return csv.toString();
	}

	private static String timelineCsv(List<Result> results) {
		StringBuilder csv = new StringBuilder("client,callers,ms_from_first_503,retries\n");
		for (Result r : results) {
			int[] timeline = r.timeline();
			for (int bucket = 0; bucket < timeline.length; bucket++) {
				if (timeline[bucket] != 0) {
					csv.append(r.contender().key()).append(',').append(r.callers()).append(',').append(bucket * 10)
						.append(',').append(timeline[bucket]).append('\n');
				}
			}
		}
		return csv.toString();
	}

}
