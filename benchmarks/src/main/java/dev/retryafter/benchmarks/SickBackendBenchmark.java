package dev.retryafter.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * One sick backend behind a load balancer: every tenth request gets {@code 503} with
 * {@code Retry-After: 5}, the others {@code 200} after 20 ms. A {@code 503} here speaks for one
 * backend, not for the origin: a client that holds back every request to the origin because of
 * it slows down the healthy calls for nothing. For each client it reports the median and 99th
 * percentile duration of all calls and of the healthy calls (those that never met the sick
 * backend), and the calls that failed.
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.SickBackendBenchmark}
 * with options {@code --callers=10 --requests=20 --backends=10 --retry-after=5 --latency-ms=20
 * --repeat=1 --clients=ours,ours-no-cooldown,hc5,resilience4j,spring-retry --out=benchmarks/results}.
 * Each caller makes {@code requests} calls one after the other; a run is cut off after 60 s and
 * its unfinished calls count as failed.
 */
public final class SickBackendBenchmark {

	private static final long CUT_OFF_MILLIS = 60_000;

	private SickBackendBenchmark() {
	}

	/**
	 * What one client did.
	 *
	 * @param contender the client
	 * @param calls calls made
	 * @param failed calls that did not end in {@code 200}, unfinished ones included
	 * @param unfinished calls not finished by the cut-off
	 * @param requests requests the load balancer received
	 * @param rejected {@code 503}s the sick backend sent
	 * @param allP50 median duration of all finished calls, ms
	 * @param allP99 99th percentile, ms
	 * @param healthyP50 median duration of the calls that never met the sick backend, ms
	 * @param healthyP99 99th percentile of those, ms
	 * @param seconds time until the last caller finished
	 * @param gaveUp why calls gave up, where the client says so
	 */
	record Result(Contender contender, int calls, int failed, int unfinished, int requests, int rejected,
			double allP50, double allP99, double healthyP50, double healthyP99, double seconds, String gaveUp) {
	}

	/**
	 * Runs the work for each client.
	 * @param args see the class description
	 * @throws InterruptedException if interrupted
	 */
	public static void main(String[] args) throws InterruptedException {
		Options options = Options.parse(args);
		int callers = options.integer("callers", 10);
		int requests = options.integer("requests", 20);
		int backends = options.integer("backends", 10);
		int retryAfter = options.integer("retry-after", 5);
		int latency = options.integer("latency-ms", 20);
		int repeat = options.integer("repeat", 1);
		List<Contender> contenders = Contender
			.select(options.list("clients", "ours,ours-no-cooldown,hc5,resilience4j,spring-retry"));
		Path out = Path.of(options.string("out", "benchmarks/results"));
		System.out.println(ResultFiles.environment());
		// Warm-up, not reported (a backend in every 1000 sick: none is met).
		for (Contender contender : contenders) {
			run(contender, callers, 5, 1000, retryAfter, latency);
		}
		Map<Contender, List<Result>> runs = new LinkedHashMap<>();
		for (int rep = 0; rep < repeat; rep++) {
			for (Contender contender : contenders) {
				Result r = run(contender, callers, requests, backends, retryAfter, latency);
				runs.computeIfAbsent(contender, (key) -> new ArrayList<>()).add(r);
				System.out.printf(
						"%-58s calls=%d failed=%d unfinished=%d requests=%d 503s=%d all p50=%s p99=%s "
								+ "healthy p50=%s p99=%s ms time=%.1f s %s%n",
						contender.label(), r.calls(), r.failed(), r.unfinished(), r.requests(), r.rejected(),
						Stats.format(r.allP50()), Stats.format(r.allP99()), Stats.format(r.healthyP50()),
						Stats.format(r.healthyP99()), r.seconds(), r.gaveUp());
			}
		}
		List<Result> results = new ArrayList<>();
		runs.values().forEach((reps) -> results.add(median(reps)));
		String setup = "A load balancer over " + backends + " backends, one sick: every " + backends
				+ "th request gets `503` with `Retry-After: " + retryAfter + "` at once, the others `200` after "
				+ latency + " ms. " + callers + " callers x " + requests + " calls, one after the other. "
				+ "Healthy calls: those that never met the sick backend. Median of " + repeat + " run(s); a run is "
				+ "cut off after " + (CUT_OFF_MILLIS / 1000) + " s and its unfinished calls count as failed.";
		ResultFiles.write(out.resolve("sick-backend.md"), markdown(results, setup));
		ResultFiles.write(out.resolve("sick-backend.csv"), csv(results));
	}

	static Result run(Contender contender, int callers, int requests, int backends, int retryAfter, int latency)
			throws InterruptedException {
		int calls = callers * requests;
		try (SickBackendOrigin origin = new SickBackendOrigin(calls, backends, retryAfter, latency);
				Caller caller = contender.open(callers)) {
			Workers workers = new Workers();
			Workers.Group group = workers.add(callers, requests, (call) -> caller.get(origin.uri(call)));
			double seconds = workers.run(CUT_OFF_MILLIS);
			double[] all = group.sortedMillis((call) -> true);
			double[] healthy = group.sortedMillis((call) -> !origin.sawSickBackend(call));
			return new Result(contender, calls, group.failed(), calls - all.length, origin.requests(),
					origin.rejected(), Stats.percentile(all, 50), Stats.percentile(all, 99),
					Stats.percentile(healthy, 50), Stats.percentile(healthy, 99), seconds, caller.abandonments());
		}
	}

	private static Result median(List<Result> reps) {
		Result first = reps.get(0);
		return new Result(first.contender(), first.calls(), (int) median(reps, Result::failed),
				(int) median(reps, Result::unfinished), (int) median(reps, Result::requests),
				(int) median(reps, Result::rejected), median(reps, Result::allP50), median(reps, Result::allP99),
				median(reps, Result::healthyP50), median(reps, Result::healthyP99), median(reps, Result::seconds),
				reps.get(reps.size() / 2).gaveUp());
	}

	private static double median(List<Result> reps, ToDoubleFunction<Result> measure) {
		return Stats.percentile(reps.stream().mapToDouble(measure).sorted().toArray(), 50);
	}

	static String markdown(List<Result> results, String setup) {
		StringBuilder md = new StringBuilder();
		md.append(setup).append(' ').append(ResultFiles.environment()).append(".\n\n");
		md.append("| client | calls | calls failed | of them unfinished | requests | 503s | all calls p50 ms "
				+ "| all calls p99 ms | healthy calls p50 ms | healthy calls p99 ms | time s "
				+ "| ours: why calls gave up |\n");
		md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
		for (Result r : results) {
			md.append("| ").append(r.contender().label()).append(" | ").append(r.calls()).append(" | ")
				.append(r.failed()).append(" | ").append(r.unfinished()).append(" | ").append(r.requests())
				.append(" | ").append(r.rejected()).append(" | ").append(Stats.format(r.allP50())).append(" | ")
				.append(Stats.format(r.allP99())).append(" | ").append(Stats.format(r.healthyP50())).append(" | ")
				.append(Stats.format(r.healthyP99())).append(" | ").append(Stats.format(r.seconds())).append(" | ")
				.append(r.gaveUp().isEmpty() ? "-" : r.gaveUp()).append(" |\n");
		}
		return md.toString();
	}

	private static String csv(List<Result> results) {
		StringBuilder csv = new StringBuilder("client,calls,failed,unfinished,requests,rejected_503,all_p50_ms,"
				+ "all_p99_ms,healthy_p50_ms,healthy_p99_ms,seconds,gave_up\n");
		for (Result r : results) {
			csv.append(r.contender().key()).append(',').append(r.calls()).append(',').append(r.failed()).append(',')
				.append(r.unfinished()).append(',').append(r.requests()).append(',').append(r.rejected()).append(',')
				.append(Stats.format(r.allP50())).append(',').append(Stats.format(r.allP99())).append(',')
				.append(Stats.format(r.healthyP50())).append(',').append(Stats.format(r.healthyP99())).append(',')
				.append(Stats.format(r.seconds())).append(",\"").append(r.gaveUp()).append("\"\n");
		}
		return csv.toString();
	}

}
