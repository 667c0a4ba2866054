package dev.retryafter.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

/**
 * Two tenants on one origin, told apart by their {@code Authorization} header. Tenant A is
 * rate-limited ({@code 429} with {@code Retry-After: 3} beyond 5 requests/s) and keeps sending
 * for as long as tenant B works; tenant B is never limited and makes a fixed number of calls.
 * A tenant's {@code 429} is about that tenant's rate: a client that holds back the other
 * tenant's requests because of it makes B pay for A. For each client it reports tenant B's call
 * durations (p50, p99) and failed calls, and the same for tenant B alone on the origin.
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.TenantsBenchmark}
 * with options {@code --a-callers=5 --a-rate=5 --retry-after=3 --b-callers=5 --b-requests=100
 * --latency-ms=20 --repeat=3 --clients=ours,ours-partition,hc5,resilience4j,spring-retry
 * --alone=ours,ours-partition --out=benchmarks/results}. Each client runs {@code repeat}
 * times, in turns, and the median is reported; B's work is cut off after 20 s, and its
 * unfinished calls count as failed.
 */
public final class TenantsBenchmark {

	/**
	 * Tenant B alone needs about 2 s; held behind tenant A's cooldown, each of its calls waits
	 * about 3 s, and its 500 calls would take minutes. The cut-off bounds that run.
	 */
	private static final long CUT_OFF_MILLIS = 20_000;

	private TenantsBenchmark() {
	}

	/**
	 * What one client did.
	 *
	 * @param contender the client
	 * @param withA whether tenant A was sending
	 * @param callsB tenant B's calls
	 * @param failedB tenant B's calls that did not end in {@code 200}, unfinished ones included
	 * @param unfinishedB tenant B's calls not finished by the cut-off
	 * @param p50B median duration of tenant B's calls, ms
	 * @param p99B 99th percentile, ms
	 * @param maxB longest, ms
	 * @param requestsA requests tenant A sent meanwhile
	 * @param rejectedA {@code 429}s tenant A received
	 * @param seconds time tenant B took for all its calls
	 * @param gaveUp why calls gave up, where the client says so (both tenants)
	 */
	record Result(Contender contender, boolean withA, int callsB, int failedB, int unfinishedB, double p50B,
			double p99B,
			double maxB, int requestsA, int rejectedA, double seconds, String gaveUp) {
	}

	/**
	 * Runs the tenants for each client.
	 * @param args see the class description
	 * @throws InterruptedException if interrupted
	 */
	public static void main(String[] args) throws InterruptedException {
		Options options = Options.parse(args);
		Setup setup = new Setup(options.integer("a-callers", 5), options.integer("a-rate", 5),
				options.integer("retry-after", 3), options.integer("b-callers", 5), options.integer("b-requests", 100),
				options.integer("latency-ms", 20));
		int repeat = options.integer("repeat", 3);
		List<Contender> contenders = Contender
			.select(options.list("clients", "ours,ours-partition,hc5,resilience4j,spring-retry"));
		List<Contender> alone = Contender.select(options.list("alone", "ours,ours-partition"));
		Path out = Path.of(options.string("out", "benchmarks/results"));
		System.out.println(ResultFiles.environment());
		// Warm-up, not reported: the JIT compiles each client's request path first.
		Setup warmUp = new Setup(setup.callersA(), setup.rateA(), setup.retryAfter(), setup.callersB(), 10,
				setup.latency());
		for (Contender contender : contenders) {
			run(contender, warmUp, false);
		}
		Map<String, List<Result>> runs = new LinkedHashMap<>();
		for (int rep = 0; rep < repeat; rep++) {
			for (Contender contender : contenders) {
				record(runs, run(contender, setup, true));
			}
			for (Contender contender : alone) {
				record(runs, run(contender, setup, false));
			}
		}
		List<Result> results = new ArrayList<>();
		runs.values().forEach((reps) -> results.add(median(reps)));
		String description = "Two tenants on one origin, told apart by `Authorization`. Tenant A: " + setup.callersA()
				+ " callers sending one call after the other for as long as tenant B works, rate-limited to "
				+ setup.rateA() + " requests/s (burst " + setup.rateA() + "), beyond it `429` with `Retry-After: "
				+ setup.retryAfter() + "` at once. Tenant B: " + setup.callersB() + " callers x "
				+ setup.requestsB() + " calls, never limited. Every `200` takes " + setup.latency() + " ms. "
				+ "Median of " + repeat + " runs; tenant B's work is cut off after " + (CUT_OFF_MILLIS / 1000)
				+ " s and its unfinished calls count as failed.";
		ResultFiles.write(out.resolve("tenants.md"), markdown(results, description));
		ResultFiles.write(out.resolve("tenants.csv"), csv(results));
	}

	private static void record(Map<String, List<Result>> runs, Result r) {
		runs.computeIfAbsent(r.contender().key() + "/" + r.withA(), (key) -> new ArrayList<>()).add(r);
		System.out.printf(
				"%-58s %-12s B: failed=%d unfinished=%d p50=%s p99=%s max=%s ms time=%.1f s; A: requests=%d "
						+ "429s=%d %s%n",
				r.contender().label(), r.withA() ? "with A" : "B alone", r.failedB(), r.unfinishedB(),
				Stats.format(r.p50B()),
				Stats.format(r.p99B()), Stats.format(r.maxB()), r.seconds(), r.requestsA(), r.rejectedA(),
				r.gaveUp());
	}

	/**
	 * The workload.
	 *
	 * @param callersA tenant A's caller threads
	 * @param rateA tenant A's limit, requests per second (and burst)
	 * @param retryAfter the {@code Retry-After} of tenant A's {@code 429}s, seconds
	 * @param callersB tenant B's caller threads
	 * @param requestsB calls per tenant B caller
	 * @param latency time the origin takes for a {@code 200}, ms
	 */
	record Setup(int callersA, int rateA, int retryAfter, int callersB, int requestsB, int latency) {
	}

	static Result run(Contender contender, Setup setup, boolean withA) throws InterruptedException {
		try (TenantOrigin origin = new TenantOrigin(setup.rateA(), setup.rateA(), setup.retryAfter(),
				setup.latency()); Caller caller = contender.open(setup.callersA() + setup.callersB())) {
			List<Thread> tenantA = new ArrayList<>();
			if (withA) {
				AtomicInteger next = new AtomicInteger();
				for (int t = 0; t < setup.callersA(); t++) {
					Thread thread = new Thread(() -> {
						try {
							while (!Thread.currentThread().isInterrupted()) {
								caller.get(origin.uri(next.getAndIncrement()), TenantOrigin.TENANT_A);
							}
						}
						catch (RuntimeException ex) {
							// interrupted in a peer's back-off sleep at the end of the run
						}
					}, "tenant-a-" + t);
					thread.setDaemon(true);
					tenantA.add(thread);
				}
				tenantA.forEach(Thread::start);
			}
			Workers workers = new Workers();
			Workers.Group b = workers.add(setup.callersB(), setup.requestsB(),
					(call) -> caller.get(origin.uri(call), TenantOrigin.TENANT_B));
			double seconds = workers.run(CUT_OFF_MILLIS);
			for (Thread thread : tenantA) {
				thread.interrupt();
			}
			for (Thread thread : tenantA) {
				thread.join(TimeUnit.SECONDS.toMillis(10));
			}
			double[] durations = b.sortedMillis((call) -> true);
			return new Result(contender, withA, b.calls(), b.failed(), b.calls() - durations.length,
					Stats.percentile(durations, 50),
					Stats.percentile(durations, 99), Stats.percentile(durations, 100), origin.requestsA(),
					origin.rejectedA(), seconds, caller.abandonments());
		}
	}

	private static Result median(List<Result> reps) {
		Result first = reps.get(0);
		return new Result(first.contender(), first.withA(), first.callsB(), (int) median(reps, Result::failedB),
				(int) median(reps, Result::unfinishedB), median(reps, Result::p50B), median(reps, Result::p99B),
				median(reps, Result::maxB), (int) median(reps, Result::requestsA),
				(int) median(reps, Result::rejectedA),
				median(reps, Result::seconds), reps.get(reps.size() / 2).gaveUp());
	}

	private static double median(List<Result> reps, ToDoubleFunction<Result> measure) {
		return Stats.percentile(reps.stream().mapToDouble(measure).sorted().toArray(), 50);
	}

	static String markdown(List<Result> results, String description) {
		StringBuilder md = new StringBuilder();
		md.append(description).append(' ').append(ResultFiles.environment()).append(".\n\n");
		md.append("| client | tenant A | B calls | B calls failed | of them unfinished | B p50 ms | B p99 ms "
				+ "| B max ms | B time s | A requests | A 429s | ours: why calls gave up (A and B) |\n");
		md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
		for (Result r : results) {
			md.append("| ").append(r.contender().label()).append(" | ").append(r.withA() ? "sending" : "absent")
				.append(" | ").append(r.callsB()).append(" | ").append(r.failedB()).append(" | ")
				.append(r.unfinishedB()).append(" | ").append(Stats.format(r.p50B())).append(" | ")
				.append(Stats.format(r.p99B())).append(" | ").append(Stats.format(r.maxB())).append(" | ")
				.append(Stats.format(r.seconds())).append(" | ")
				.append(r.withA() ? Integer.toString(r.requestsA()) : "-").append(" | ")
				.append(r.withA() ? Integer.toString(r.rejectedA()) : "-").append(" | ")
				.append(r.gaveUp().isEmpty() ? "-" : r.gaveUp()).append(" |\n");
		}
		return md.toString();
	}

	private static String csv(List<Result> results) {
		StringBuilder csv = new StringBuilder("client,tenant_a,b_calls,b_failed,b_unfinished,b_p50_ms,b_p99_ms,"
				+ "b_max_ms,b_seconds,a_requests,a_rejected_429,gave_up\n");
		for (Result r : results) {
			csv.append(r.contender().key()).append(',').append(r.withA() ? "sending" : "absent").append(',')
				.append(r.callsB()).append(',').append(r.failedB()).append(',').append(r.unfinishedB()).append(',')
				.append(Stats.format(r.p50B()))
				.append(',').append(Stats.format(r.p99B())).append(',').append(Stats.format(r.maxB())).append(',')
				.append(Stats.format(r.seconds())).append(',').append(r.requestsA()).append(',')
				.append(r.rejectedA()).append(",\"").append(r.gaveUp()).append("\"\n");
		}
		return csv.toString();
	}

}
