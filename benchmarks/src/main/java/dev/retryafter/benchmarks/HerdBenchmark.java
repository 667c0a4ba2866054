package dev.retryafter.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import dev.retryafter.benchmarks.HerdOrigin.Arrival;

/**
 * The thundering herd: N callers start together; the origin answers each one's first request
 * with {@code 503} (or {@code 429}) and {@code Retry-After: 1}, and every later request with
 * {@code 200}. For each client it counts the calls that still failed, the requests each caller
 * sent, the retries that arrived before the instant the server named (must be 0), how late the
 * first retries are after it (p50, p99), and the peak number of retries and late first requests
 * in any 10 ms; it renders them per 10 ms over time.
 *
 * <p>
 * By default the origin answers each first request as it arrives
 * ({@link Arrival#UNSYNCHRONISED}), so the callers' first requests reach it a few
 * milliseconds apart as in production, and a client may already know of one rejection when
 * another caller starts. {@code --arrivals=sync} holds the first requests until the whole
 * herd is in, as earlier versions of this benchmark did.
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.HerdBenchmark}
 * with options {@code --callers=50,200 --statuses=503,429 --arrivals=unsync
 * --clients=ours,ours-no-cooldown,hc5,resilience4j,spring-retry --repeat=3
 * --retry-after=1 --name=herd --out=benchmarks/results --png=docs/herd.png --chart-callers=200}.
 * Each client runs {@code repeat} times per herd, in turns, and the median is reported. The
 * herd of {@code chart-callers} on the first status and arrival is drawn to {@code png}, the
 * others to {@code <out>/<name>-<N>-<status>[-sync].png}.
 */
public final class HerdBenchmark {

	private static final long BUCKET_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private static final long RUN_TIMEOUT_MILLIS = 60_000;

	private HerdBenchmark() {
	}

	/**
	 * One herd: its size, the rejecting status and how first requests are answered.
	 *
	 * @param callers the herd size
	 * @param status the status of each caller's first response
	 * @param arrival how first requests are answered
	 */
	record Herd(int callers, int status, Arrival arrival) {

		String file(String name) {
			return name + "-" + this.callers + "-" + this.status
					+ ((this.arrival == Arrival.SYNCHRONISED) ? "-sync" : "") + ".png";
		}

	}

	/**
	 * What one client did in one herd.
	 *
	 * @param contender the client
	 * @param herd the herd
	 * @param failed callers whose call did not end in 200
	 * @param requests requests the origin received
	 * @param maxPerCaller most requests received from one caller
	 * @param lateFirst first requests that arrived half the server's delay or more after the first
	 * rejection left (held back by the client, or delayed by the machine)
	 * @param held requests the client held back (ours, from its cooldown meter; -1 for the others)
	 * @param retries requests after a caller's first
	 * @param early retries that arrived before the instant the server named
	 * @param lateP50 median lateness of each caller's first retry, ms
	 * @param lateP99 99th percentile lateness, ms
	 * @param lateMax largest lateness, ms
	 * @param peak10ms most retries and late first requests within any 10 ms
	 * @param spreadMs time between the first and the last first request, ms
	 * @param timeline retries and late first requests per 10 ms, from the first rejection
	 * @param gaveUp why calls gave up, where the client says so
	 */
	record Result(Contender contender, Herd herd, int failed, int requests, int maxPerCaller, int lateFirst,
			int held, int retries, int early, double lateP50, double lateP99, double lateMax, int peak10ms,
			double spreadMs, int[] timeline, String gaveUp) {
	}

	/**
	 * Runs the herds.
	 * @param args see the class description
	 * @throws InterruptedException if interrupted
	 */
	public static void main(String[] args) throws InterruptedException {
		System.setProperty("java.awt.headless", "true");
		Options options = Options.parse(args);
		List<Integer> sizes = options.integers("callers", "50,200");
		List<Integer> statuses = options.integers("statuses", "503,429");
		List<Arrival> arrivals = options.list("arrivals", "unsync").stream().map(Arrival::of).toList();
		List<Contender> contenders = Contender
			.select(options.list("clients", "ours,ours-no-cooldown,hc5,resilience4j,spring-retry"));
		String name = options.string("name", "herd");
		Path out = Path.of(options.string("out", "benchmarks/results"));
		Path png = Path.of(options.string("png", "docs/herd.png"));
		int chartSize = options.integer("chart-callers", sizes.contains(200) ? 200 : sizes.get(sizes.size() - 1));
		int retryAfter = options.integer("retry-after", 1);
		int repeat = options.integer("repeat", 3);
		System.out.println(ResultFiles.environment());
		for (Contender contender : contenders) {
			run(contender, new Herd(Math.min(20, chartSize), statuses.get(0), arrivals.get(0)), retryAfter);
		}
		List<Result> results = new ArrayList<>();
		List<Herd> herds = new ArrayList<>();
		for (Arrival arrival : arrivals) {
			for (int status : statuses) {
				for (int size : sizes) {
					Herd herd = new Herd(size, status, arrival);
					herds.add(herd);
					results.addAll(runHerd(herd, contenders, repeat, retryAfter));
				}
			}
		}
		ResultFiles.write(out.resolve(name + ".md"), markdown(results, herds, retryAfter, repeat));
		ResultFiles.write(out.resolve(name + ".csv"), csv(results));
		ResultFiles.write(out.resolve(name + "-timeline.csv"), timelineCsv(results));
		for (Herd herd : herds) {
			boolean main = herd.callers() == chartSize && herd.status() == statuses.get(0)
					&& herd.arrival() == arrivals.get(0);
			Path file = main ? png : out.resolve(herd.file(name));
			HerdChart.render(file, herd.callers(), herd.status(), herd.arrival().key(), retryAfter, repeat,
					series(results, herd));
			System.out.println("wrote " + file);
		}
	}

	private static List<Result> runHerd(Herd herd, List<Contender> contenders, int repeat, int retryAfter)
			throws InterruptedException {
		// Repetitions go round the clients, so a burst of load from elsewhere does not land on
		// one client's runs only.
		Map<Contender, List<Result>> runs = new LinkedHashMap<>();
		for (int rep = 0; rep < repeat; rep++) {
			for (Contender contender : contenders) {
				Result r = run(contender, herd, retryAfter);
				runs.computeIfAbsent(contender, (key) -> new ArrayList<>()).add(r);
				System.out.printf(
						"%-58s N=%4d %d %-6s failed=%4d requests=%4d max/caller=%d late first=%4d held=%4d "
								+ "early=%4d late p50=%6s p99=%6s ms peak/10ms=%4d %s%n",
						r.contender().label(), herd.callers(), herd.status(), herd.arrival().key(), r.failed(),
						r.requests(), r.maxPerCaller(), r.lateFirst(), r.held(), r.early(), Stats.format(r.lateP50()),
						Stats.format(r.lateP99()), r.peak10ms(), r.gaveUp());
			}
		}
		List<Result> results = new ArrayList<>();
		runs.values().forEach((reps) -> results.add(median(reps)));
		return results;
	}

	/**
	 * Summarises repeated runs: the median of each measure, except retries sent early (the
	 * total of all runs: one is too many), the largest lateness and the most requests from one
	 * caller (the largest of all runs); the timeline and the reasons are those of the run with
	 * the median peak.
	 */
	static Result median(List<Result> reps) {
		List<Result> byPeak = new ArrayList<>(reps);
		byPeak.sort(Comparator.comparingInt(Result::peak10ms));
		Result middle = byPeak.get(byPeak.size() / 2);
		return new Result(middle.contender(), middle.herd(), (int) median(reps, Result::failed),
				(int) median(reps, Result::requests), reps.stream().mapToInt(Result::maxPerCaller).max().orElse(0),
				(int) median(reps, Result::lateFirst), (int) median(reps, Result::held),
				(int) median(reps, Result::retries),
				reps.stream().mapToInt(Result::early).sum(), median(reps, Result::lateP50),
				median(reps, Result::lateP99), reps.stream().mapToDouble(Result::lateMax).max().orElse(Double.NaN),
				middle.peak10ms(), median(reps, Result::spreadMs), middle.timeline(), middle.gaveUp());
	}

	private static double median(List<Result> reps, ToDoubleFunction<Result> measure) {
		double[] values = reps.stream().mapToDouble(measure).sorted().toArray();
		return Stats.percentile(values, 50);
	}

	private static Map<String, int[]> series(List<Result> results, Herd herd) {
		Map<String, int[]> series = new LinkedHashMap<>();
		for (Result result : results) {
			if (result.herd().equals(herd)) {
				series.put(result.contender().label() + " (peak " + result.peak10ms() + " in any 10 ms; early: "
						+ result.early() + " in all runs; calls failed: " + result.failed() + ")", result.timeline());
			}
		}
		return series;
	}

	static Result run(Contender contender, Herd herd, int retryAfterSeconds) throws InterruptedException {
		int callers = herd.callers();
		try (HerdOrigin origin = new HerdOrigin(callers, herd.status(), retryAfterSeconds, herd.arrival(),
				RUN_TIMEOUT_MILLIS / 3); Caller caller = contender.open(callers)) {
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
			// All callers are released together; nothing lines their requests up after that.
			go.countDown();
			long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RUN_TIMEOUT_MILLIS);
			for (Thread thread : threads) {
				long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
				if (left > 0) {
					thread.join(left);
				}
				thread.interrupt();
			}
			return measure(contender, herd, origin, statuses, caller.held(), caller.abandonments());
		}
	}

	private static Result measure(Contender contender, Herd herd, HerdOrigin origin, int[] statuses, int held,
			String gaveUp) {
		int callers = herd.callers();
		long[] rejectedAt = origin.rejectedAt();
		long[] firstArrivedAt = origin.firstArrivedAt();
		long[][] retries = origin.retries();
		long after = TimeUnit.SECONDS.toNanos(origin.retryAfterSeconds());
		long start = Arrays.stream(rejectedAt).filter((t) -> t != 0).min().orElse(0);
		// A first request that arrives half the server's delay or more after the first rejection
		// left comes in with the retries (a client held it back, or the machine delayed it): it
		// loads the origin as a retry does, so the peak counts it.
		long lateFrom = start + after / 2;
		long firstFrom = Arrays.stream(firstArrivedAt).filter((t) -> t != 0).min().orElse(0);
		long firstTo = Arrays.stream(firstArrivedAt).max().orElse(0);
		List<Long> followUps = new ArrayList<>();
		int lateFirst = 0;
		for (long arrived : firstArrivedAt) {
			if (arrived != 0 && arrived >= lateFrom) {
				lateFirst++;
				followUps.add(arrived);
			}
		}
		long[] firstRetry = new long[callers];
		int early = 0;
		for (long[] retry : retries) {
			int caller = (int) retry[0];
			long arrived = retry[1];
			followUps.add(arrived);
			if (rejectedAt[caller] != 0 && arrived < rejectedAt[caller] + after) {
				early++;
			}
			if (firstRetry[caller] == 0 || arrived < firstRetry[caller]) {
				firstRetry[caller] = arrived;
			}
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
		long[] arrivals = followUps.stream().mapToLong(Long::longValue).toArray();
		long last = Arrays.stream(arrivals).max().orElse(start);
		int[] timeline = new int[(int) (Math.max(0, last - start) / BUCKET_NANOS) + 1];
		for (long arrived : arrivals) {
			timeline[(int) (Math.max(0, arrived - start) / BUCKET_NANOS)]++;
		}
		int[] perCaller = origin.requestsPerCaller();
		int succeeded = (int) Arrays.stream(statuses).filter((status) -> status == 200).count();
		return new Result(contender, herd, callers - succeeded, Arrays.stream(perCaller).sum(),
				Arrays.stream(perCaller).max().orElse(0), lateFirst, held, retries.length, early,
				Stats.percentile(sorted, 50), Stats.percentile(sorted, 99),
				(withRetry > 0) ? sorted[withRetry - 1] : Double.NaN, Stats.peakInWindow(arrivals, BUCKET_NANOS),
				(firstTo - firstFrom) / 1e6, timeline, gaveUp);
	}

	static String markdown(List<Result> results, List<Herd> herds, int retryAfter, int repeat) {
		StringBuilder md = new StringBuilder();
		md.append("N callers start together. The origin answers each caller's first request with the status ")
			.append("shown and `Retry-After: ").append(retryAfter).append("`, every later request with `200`; ")
			.append("unsync: each first request is answered as it arrives; sync: first requests are held until ")
			.append("all N are in, then answered together. Each line: median of ").append(repeat)
			.append(" runs (early: total of all runs; max per caller, late max: largest of all runs). ")
			.append("Calls failed = calls that did not end in `200`. Late first = first requests that reached ")
			.append("the origin half the server's delay or more after the first rejection left (held back by the ")
			.append("client, or delayed by the machine). Held = requests ours held back before sending them ")
			.append("(its `http.client.retry.cooldown.held` meter). ")
			.append("Early = retries that reached the origin before the instant the server named (that caller's ")
			.append("rejection's send time + ").append(retryAfter).append(" s). Lateness = first retry's arrival ")
			.append("minus that instant. Peak = most retries and late first requests in any 10 ms. ")
			.append("First-request spread = time between the first and the last first request's arrival. ")
			.append(ResultFiles.environment())
			.append(".\n");
		for (Herd herd : herds) {
			md.append("\n### N = ").append(herd.callers()).append(", ").append(herd.status()).append(", ")
				.append(herd.arrival().key()).append("\n\n");
			md.append("| client | calls failed | requests | max per caller | late first | held | retries | early "
					+ "| late p50 ms | late p99 ms | late max ms | peak / 10 ms | first-request spread ms "
					+ "| ours: why calls gave up |\n");
			md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
					+ "| --- |\n");
			for (Result r : results) {
				if (!r.herd().equals(herd)) {
					continue;
				}
				md.append("| ").append(r.contender().label()).append(" | ").append(r.failed()).append(" | ")
					.append(r.requests()).append(" | ").append(r.maxPerCaller()).append(" | ").append(r.lateFirst())
					.append(" | ").append((r.held() < 0) ? "-" : Integer.toString(r.held())).append(" | ")
					.append(r.retries()).append(" | ").append(r.early()).append(" | ")
					.append(Stats.format(r.lateP50())).append(" | ").append(Stats.format(r.lateP99())).append(" | ")
					.append(Stats.format(r.lateMax())).append(" | ").append(r.peak10ms()).append(" | ")
					.append(Stats.format(r.spreadMs())).append(" | ")
					.append(r.gaveUp().isEmpty() ? "-" : r.gaveUp())
					.append(" |\n");
			}
		}
		return md.toString();
	}

	private static String csv(List<Result> results) {
		StringBuilder csv = new StringBuilder("client,callers,status,arrival,failed,requests,max_per_caller,"
				+ "late_first,held,retries,early,late_p50_ms,late_p99_ms,late_max_ms,peak_per_10ms,"
				+ "first_request_spread_ms,gave_up\n");
		for (Result r : results) {
			csv.append(r.contender().key()).append(',').append(r.herd().callers()).append(',')
				.append(r.herd().status()).append(',').append(r.herd().arrival().key()).append(',')
				.append(r.failed()).append(',').append(r.requests()).append(',').append(r.maxPerCaller()).append(',')
				.append(r.lateFirst()).append(',').append(r.held()).append(',').append(r.retries()).append(',')
				.append(r.early()).append(',')
				.append(Stats.format(r.lateP50())).append(',').append(Stats.format(r.lateP99())).append(',')
				.append(Stats.format(r.lateMax())).append(',').append(r.peak10ms()).append(',')
				.append(Stats.format(r.spreadMs())).append(',').append('"').append(r.gaveUp()).append('"')
				.append('\n');
		}
		return csv.toString();
	}

	private static String timelineCsv(List<Result> results) {
		StringBuilder csv = new StringBuilder(
				"client,callers,status,arrival,ms_from_first_rejection,retries_and_late_first_requests\n");
		for (Result r : results) {
			int[] timeline = r.timeline();
			for (int bucket = 0; bucket < timeline.length; bucket++) {
				if (timeline[bucket] != 0) {
					csv.append(r.contender().key()).append(',').append(r.herd().callers()).append(',')
						.append(r.herd().status()).append(',').append(r.herd().arrival().key()).append(',')
						.append(bucket * 10).append(',').append(timeline[bucket]).append('\n');
				}
			}
		}
		return csv.toString();
	}

}
