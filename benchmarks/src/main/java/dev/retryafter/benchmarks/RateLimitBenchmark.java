package dev.retryafter.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A rate-limited origin (token bucket, {@code 429} with {@code Retry-After} beyond it) and a
 * fixed amount of work: {@code requests} GETs from {@code threads} threads. For each client it
 * measures the requests sent per success, the {@code 429}s received, how many calls still ended
 * in failure, and the time to finish the work.
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.RateLimitBenchmark}
 * with options {@code --requests=500 --threads=50 --rate=50 --burst=50
 * --clients=ours,ours-no-cooldown,hc5,resilience4j,spring-retry --out=benchmarks/results}.
 * With {@code --fields=none,ietf,x-ratelimit} the same origin also announces its quota
 * ({@link TokenBucketOrigin.Fields}), every client runs against each kind in turn, and the
 * table goes to {@code rate-limit-fields.md} instead.
 * <p>
 * With {@code --dialects=ietf,github,gitlab,openai,anthropic,discord} (and
 * {@code github-403}) it runs the per-dialect scenario instead ({@link DialectRuns}): a
 * fixed-window origin per API, each speaking that API's documented form, 12 sequential calls
 * per client, the peers side by side; options {@code --calls=12 --limit=4 --window=2
 * --seed=28 --clients=ours,hc5,resilience4j,spring-retry --name=rate-limit-dialects}, table in
 * {@code <name>.md}.
 */
public final class RateLimitBenchmark {

	private static final long RUN_TIMEOUT_MILLIS = 180_000;

	private RateLimitBenchmark() {
	}

	/**
	 * What one client did against the limited origin.
	 *
	 * @param contender the client
	 * @param fields the quota fields the origin sent
	 * @param sent requests the origin received
	 * @param rejected {@code 429}s the origin sent
	 * @param succeeded calls that ended in {@code 200}
	 * @param failed calls that ended otherwise (last {@code 429} returned, or an error)
	 * @param seconds time to finish all calls
	 * @param callP50 median call duration (retries and waits included), ms
	 * @param callP99 99th percentile call duration, ms
	 * @param gaveUp why calls gave up, where the client says so
	 */
	record Result(Contender contender, TokenBucketOrigin.Fields fields, int sent, int rejected, int succeeded,
			int failed, double seconds, double callP50, double callP99, String gaveUp) {

		double sentPerSuccess() {
			return QueuedCalls.sentPerSuccess(this.sent, this.succeeded);
		}

	}

	/**
	 * Runs the work once per client.
	 * @param args see the class description
	 * @throws InterruptedException if interrupted
	 */
	public static void main(String[] args) throws InterruptedException {
		Options options = Options.parse(args);
		if (options.string("dialects", null) != null) {
			DialectRuns.main(options);
			return;
		}
		int requests = options.integer("requests", 500);
		int threads = options.integer("threads", 50);
		int rate = options.integer("rate", 50);
		int burst = options.integer("burst", rate);
		List<Contender> contenders = Contender
			.select(options.list("clients", "ours,ours-no-cooldown,hc5,resilience4j,spring-retry"));
		Path out = Path.of(options.string("out", "benchmarks/results"));
		List<TokenBucketOrigin.Fields> kinds = options.list("fields", "none")
			.stream()
			.map(TokenBucketOrigin.Fields::of)
			.toList();
		boolean withFields = !kinds.equals(List.of(TokenBucketOrigin.Fields.NONE));
		System.out.println(ResultFiles.environment());
		List<Result> results = new ArrayList<>();
		for (TokenBucketOrigin.Fields fields : kinds) {
			for (Contender contender : contenders) {
				Result r = run(contender, requests, threads, rate, burst, fields);
				results.add(r);
				System.out.printf("%-40s %-12s sent=%4d 429s=%4d ok=%4d failed=%4d sent/ok=%5s time=%5.1f s call p50=%s p99=%s ms %s%n",
						contender.label(), fields.key, r.sent(), r.rejected(), r.succeeded(), r.failed(),
						Stats.format2(r.sentPerSuccess()), r.seconds(), Stats.format(r.callP50()),
						Stats.format(r.callP99()), r.gaveUp());
			}
		}
		String setup = requests + " GETs from " + threads + " threads; origin: token bucket of " + rate
				+ " requests/s, burst " + burst + ", full at start; beyond it `429` with `Retry-After` = seconds "
				+ "until the next token, rounded up.";
		if (withFields) {
			setup += " Where it announces its quota, it does so on every response: policy `q=" + burst
					+ "` (the burst) per `w=ceil(burst / rate)` s, `r` = whole tokens left, `t` = seconds until "
					+ "the bucket is full again, rounded up; `X-RateLimit-*` carry the same numbers.";
			ResultFiles.write(out.resolve("rate-limit-fields.md"), markdown(results, setup, true));
			return;
		}
		ResultFiles.write(out.resolve("rate-limit.md"), markdown(results, setup, false));
		ResultFiles.write(out.resolve("rate-limit.csv"), csv(results));
	}

	static Result run(Contender contender, int requests, int threads, int rate, int burst,
			TokenBucketOrigin.Fields fields) throws InterruptedException {
		try (TokenBucketOrigin origin = new TokenBucketOrigin(rate, burst, fields);
				Caller caller = contender.open(threads)) {
			QueuedCalls calls = QueuedCalls.run(requests, threads, RUN_TIMEOUT_MILLIS,
					(thread, i) -> caller.get(origin.uri(i)));
			int succeeded = calls.succeeded();
			return new Result(contender, fields, origin.requests(), origin.rejected(), succeeded, requests - succeeded,
					calls.seconds(), calls.percentileMillis(50), calls.percentileMillis(99), caller.abandonments());
		}
	}

	static String markdown(List<Result> results, String setup, boolean withFields) {
		StringBuilder md = new StringBuilder();
		md.append(setup).append(' ').append(ResultFiles.environment()).append(".\n\n");
		md.append(withFields ? "| origin sends " : "").append("| client | sent | 429s received | ended 200 | calls failed | sent per success | time to finish s "
				+ "| call p50 ms | call p99 ms | ours: why calls gave up |\n");
		md.append(withFields ? "| --- " : "").append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
		for (Result r : results) {
			if (withFields) {
				md.append("| ").append(r.fields().label).append(' ');
			}
			md.append("| ").append(r.contender().label()).append(" | ").append(r.sent()).append(" | ")
				.append(r.rejected()).append(" | ").append(r.succeeded()).append(" | ").append(r.failed())
				.append(" | ").append(Stats.format2(r.sentPerSuccess())).append(" | ").append(Stats.format(r.seconds()))
				.append(" | ").append(Stats.format(r.callP50())).append(" | ").append(Stats.format(r.callP99()))
				.append(" | ").append(r.gaveUp().isEmpty() ? "-" : r.gaveUp()).append(" |\n");
		}
		return md.toString();
	}

	private static String csv(List<Result> results) {
		StringBuilder csv = new StringBuilder(
				"client,sent,rejected_429,succeeded,failed,sent_per_success,seconds,call_p50_ms,call_p99_ms\n");
		for (Result r : results) {
			csv.append(r.contender().key()).append(',').append(r.sent()).append(',').append(r.rejected()).append(',')
				.append(r.succeeded()).append(',').append(r.failed()).append(',')
				.append(Stats.format2(r.sentPerSuccess())).append(',').append(Stats.format(r.seconds())).append(',')
				.append(Stats.format(r.callP50())).append(',').append(Stats.format(r.callP99())).append('\n');
		}
		return csv.toString();
	}

}
