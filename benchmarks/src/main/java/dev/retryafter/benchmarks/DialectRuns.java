package dev.retryafter.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.retryafter.benchmarks.DialectOrigin.Dialect;

/**
 * The per-dialect scenario of {@link RateLimitBenchmark} ({@code --dialects=...}): for each
 * dialect and each client, a fresh {@link DialectOrigin} (a fixed window of {@code limit}
 * requests per {@code window} seconds, in that API's documented form) and {@code calls}
 * sequential GETs from one thread. A run starts at a random point of a window (seeded), as a
 * caller does that knows nothing of the origin's windows. Targets (issue 28): every call
 * succeeds, at most one request rejected in the run, and the time within the quota's own pace
 * ({@code calls} at {@code limit} per {@code window}: 6 s for 12 at 4 per 2 s) plus 3 s. Beside
 * it each run reports the earliest the fixed window could have accepted every request from
 * that run's start (2-4 s there: the first window's allowance is unspent).
 */
final class DialectRuns {

	private static final long RUN_TIMEOUT_MILLIS = 30_000;

	private static final double SLACK_SECONDS = 3.0;

	private DialectRuns() {
	}

	/**
	 * What one client did against one dialect's origin.
	 *
	 * @param dialect the origin's dialect
	 * @param contender the client
	 * @param calls calls made
	 * @param succeeded calls that ended in {@code 200}
	 * @param requests requests the origin received
	 * @param rejected requests it refused ({@code 429}, or {@code 403} for GitHub's 403 form)
	 * @param seconds time to finish all calls
	 * @param pace the quota's own pace, {@code calls x window / limit}, seconds
	 * @param earliest the earliest every request could have been accepted from this run's
	 * start, seconds
	 * @param gaveUp why calls gave up, where the client says so
	 */
	record Result(Dialect dialect, Contender contender, int calls, int succeeded, int requests, int rejected,
			double seconds, double pace, double earliest, String gaveUp) {

		int failed() {
			return this.calls - this.succeeded;
		}

		boolean met() {
			return this.succeeded == this.calls && this.rejected <= 1 && this.seconds <= this.pace + SLACK_SECONDS;
		}

	}

	static void main(Options options) throws InterruptedException {
		List<Dialect> dialects = options.list("dialects", "ietf,github,gitlab,openai,anthropic,discord")
			.stream()
			.map(Dialect::of)
			.toList();
		List<Contender> contenders = Contender.select(options.list("clients", "ours,hc5,resilience4j,spring-retry"));
		int calls = options.integer("calls", 12);
		int limit = options.integer("limit", 4);
		int window = options.integer("window", 2);
		Random phases = new Random(options.integer("seed", 28));
		Path out = Path.of(options.string("out", "benchmarks/results"));
		System.out.println(ResultFiles.environment());
		List<Result> results = new ArrayList<>();
		for (Dialect dialect : dialects) {
			for (Contender contender : contenders) {
				long phase = phases.nextInt(window * 1000);
				Result r = run(dialect, contender, calls, limit, window, phase);
				results.add(r);
				System.out.printf("%-12s %-40s ok=%2d failed=%2d requests=%2d rejected=%2d time=%5.2f s earliest=%4.2f s %s %s%n",
						dialect.key, contender.label(), r.succeeded(), r.failed(), r.requests(), r.rejected(),
						r.seconds(), r.earliest(), r.met() ? "met" : "MISSED", r.gaveUp());
			}
		}
		String setup = calls + " sequential GETs from one thread per client and dialect, each against a fresh origin on "
				+ "127.0.0.1 with a fixed window of " + limit + " requests per " + window
				+ " s (windows on multiples of " + window + " Unix seconds), announced on every answer in that API's "
				+ "documented form; a request over the quota gets that API's refusal. Each run starts at a random "
				+ "point of a window (seed " + options.integer("seed", 28) + "). The quota's own pace is " + calls
				+ " requests at " + limit + " per " + window + " s; \"earliest\" is the least time for all " + calls
				+ " requests to be accepted from that run's start.";
		ResultFiles.write(out.resolve(options.string("name", "rate-limit-dialects") + ".md"), markdown(results, setup));
	}

	static Result run(Dialect dialect, Contender contender, int calls, int limit, int window, long phaseMillis)
			throws InterruptedException {
		try (DialectOrigin origin = new DialectOrigin(dialect, limit, window);
				Caller caller = contender.open(1)) {
			// Start at the drawn point of a window: the caller's start owes nothing to the origin's windows.
			long windowMillis = window * 1000L;
			long now = System.currentTimeMillis();
			long wait = Math.floorMod(phaseMillis - now % windowMillis, windowMillis);
			Thread.sleep(wait);
			long start = System.currentTimeMillis();
			QueuedCalls done = QueuedCalls.run(calls, 1, RUN_TIMEOUT_MILLIS, (thread, i) -> caller.get(origin.uri(i)));
			double pace = (double) calls * window / limit;
			return new Result(dialect, contender, calls, done.succeeded(), origin.requests(), origin.rejected(),
					done.seconds(), pace, origin.earliestSeconds(calls, start), caller.abandonments());
		}
	}

	static String markdown(List<Result> results, String setup) {
		StringBuilder md = new StringBuilder();
		md.append(setup).append(' ').append(ResultFiles.environment()).append(".\n\n");
		md.append("| dialect | client | calls succeeded | calls failed | requests | rejected (429/403) | seconds "
				+ "| earliest s | targets met (pace " + Stats.format2(results.isEmpty() ? 0 : results.get(0).pace())
				+ " s + 3 s) | ours: why calls gave up |\n");
		md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n");
		for (Result r : results) {
			md.append("| ").append(r.dialect().label).append(" | ").append(r.contender().label()).append(" | ")
				.append(r.succeeded()).append(" | ").append(r.failed()).append(" | ").append(r.requests())
				.append(" | ").append(r.rejected()).append(" | ").append(Stats.format2(r.seconds())).append(" | ")
				.append(Stats.format2(r.earliest())).append(" | ").append(r.met() ? "yes" : "no").append(" | ")
				.append(r.gaveUp().isEmpty() ? "-" : r.gaveUp()).append(" |\n");
		}
		return md.toString();
	}

}
