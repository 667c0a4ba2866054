package dev.retryafter.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fleet sharing one API key: several instances of one application, each in a JVM of its
 * own ({@link FleetInstance}), with uneven load (by default the first has half the callers),
 * call one origin that announces its quota on every answer. The origin is a fixed window
 * ({@code --limit} requests per {@code --window} seconds, {@link DialectOrigin} in the IETF
 * draft's form) or a token bucket ({@code --rate} per second, {@code --burst},
 * {@link TokenBucketOrigin}); {@code fixed-none} and {@code bucket-none} are the same origins
 * without quota fields, answering a refusal with {@code 429} and {@code Retry-After} alone, so
 * that only a pace learned from the refusals can spare them. Run with each instance on its
 * own local store, and with all of them on one Redis ({@code redis-server} started on loopback for the run). The instances are
 * told one start instant; their callers then reach the origin as their threads get going, a
 * few milliseconds apart, and nothing at the origin lines them up. The start falls anywhere in
 * the fixed window, unless {@code --start-in-window-ms=N} puts it N ms after a window's start
 * by the wall clock (each instance's first requests then reach the origin some 250 ms later,
 * its JVM's first HTTP calls): a fleet whose first burst spans a window's end is the case.
 * The quota's own time counts from the start instant with the start's window unspent; on the
 * fixed window the table also gives when the first request reached the origin and the time
 * against the quota's own from there, which differ when a cold fleet's first requests reach
 * only the next window, as any client's would.
 * {@code --warm-up-ms=N} has each instance first call an origin of its own for N ms, with
 * its own store and client of the same kind, so that the run measures JVMs that have made
 * calls before, as a fleet's long-running instances have; by default they are cold.
 * <p>
 * The peers ({@code --clients}, keys of {@link Contender}) run the same fleet, each instance
 * with the peer's own client: they share nothing, so they run once per origin, with no store.
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.FleetBenchmark}
 * with options {@code --callers=6,3,3 --calls-per-caller=10 --origins=fixed,bucket
 * --clients=ours,hc5,resilience4j,spring-retry --stores=local,redis --limit=20 --window=2
 * --rate=50 --burst=50 --bucket-calls-per-caller=42 --out=benchmarks/results}, and
 * {@code --start-in-window-ms} and {@code --warm-up-ms} as above.
 */
public final class FleetBenchmark {

	private static final Pattern LINE = Pattern.compile("FLEET ok=(\\d+) failed=(\\d+) end=(\\d+) held=(\\d+) slots=(\\d+) fallbacks=(\\d+) p50us=(\\d+) p99us=(\\d+) holds=(\\S+)");

	/**
	 * Long enough for every instance's JVM to be up before the calls start: on a busy 2-core
	 * machine 7 s was not, and an instance ready after the start reports nothing.
	 */
	private static final long START_DELAY_MILLIS = 12_000;

	/** The client whose instances keep a store; every other runs with none. */
	private static final String OURS = "ours";

	/** The store column of a peer, which shares nothing. */
	private static final String NO_STORE = "-";

	private FleetBenchmark() {
	}

	/** What the fleet did together against the origin. */
	record Result(String origin, String client, String store, int calls, int sent, int rejected, int succeeded, int failed,
			double seconds, double ownSeconds, long firstArrivalMillis, double ownFromArrivalSeconds, long held,
			long slots, long fallbacks, long p50Micros, long p99Micros) {

		double sentPerSuccess() {
			return QueuedCalls.sentPerSuccess(this.sent, this.succeeded);
		}

		boolean peer() {
			return !this.client.equals(OURS);
		}

	}

	/**
	 * Runs the fleet once per origin and store.
	 * @param args see the class description
	 * @throws Exception if an instance or Redis cannot be started
	 */
	public static void main(String[] args) throws Exception {
		Options options = Options.parse(args);
		List<Integer> callers = options.list("callers", "6,3,3").stream().map(Integer::parseInt).toList();
		int perCaller = options.integer("calls-per-caller", 10);
		int bucketPerCaller = options.integer("bucket-calls-per-caller", 42);
		int limit = options.integer("limit", 20);
		int window = options.integer("window", 2);
		int rate = options.integer("rate", 50);
		int burst = options.integer("burst", rate);
		int startInWindow = options.integer("start-in-window-ms", -1);
		long warmUpMillis = options.integer("warm-up-ms", 0);
		List<String> origins = options.list("origins", "fixed,bucket");
		List<String> clients = clients(options.list("clients", "ours,hc5,resilience4j,spring-retry"));
		List<String> stores = options.list("stores", "local,redis");
		Path out = Path.of(options.string("out", "benchmarks/results"));
		System.out.println(ResultFiles.environment());
		List<Result> results = new ArrayList<>();
		try (RedisProcess redis = new RedisProcess()) {
			if (clients.contains(OURS) && stores.contains("redis")) {
				redis.start();
			}
			for (String origin : origins) {
				for (String client : clients) {
					for (String store : client.equals(OURS) ? stores : List.of(NO_STORE)) {
						Instances instances = new Instances(client, store, callers, redis, warmUpMillis);
						Result result = switch (origin) {
							case "fixed" -> fixed(DialectOrigin.Dialect.IETF, origin, instances, perCaller, limit,
									window, startInWindow);
							case "fixed-none" -> fixed(DialectOrigin.Dialect.NONE, origin, instances, perCaller,
									limit, window, startInWindow);
							case "bucket" -> bucket(TokenBucketOrigin.Fields.IETF, origin, instances,
									bucketPerCaller, rate, burst);
							case "bucket-none" -> bucket(TokenBucketOrigin.Fields.NONE, origin, instances,
									bucketPerCaller, rate, burst);
							default -> throw new IllegalArgumentException("Unknown origin '" + origin
									+ "': fixed, fixed-none, bucket or bucket-none");
						};
						results.add(result);
						System.out.printf("%-11s %-12s %-5s calls=%d sent=%d 429s=%d ok=%d failed=%d sent/ok=%s "
								+ "time=%.1f s (quota's own %.1f s) first-arrival=%d ms own-from-it=%.1f s held=%d "
								+ "fleet-slots=%d fallbacks=%d round-trip p50=%d us p99=%d us%n", result.origin(),
								result.client(), result.store(), result.calls(), result.sent(), result.rejected(),
								result.succeeded(), result.failed(), Stats.format2(result.sentPerSuccess()),
								result.seconds(), result.ownSeconds(), result.firstArrivalMillis(),
								result.ownFromArrivalSeconds(), result.held(), result.slots(), result.fallbacks(),
								result.p50Micros(), result.p99Micros());
					}
				}
			}
		}
		StringBuilder md = new StringBuilder();
		md.append(callers.size()).append(" instances (JVMs) with ").append(callers)
			.append(" callers (ours with default settings on each store; each peer with its own client in every ")
			.append("instance, sharing nothing), one origin announcing its quota with `RateLimit-Policy`/`RateLimit` ")
			.append("on every answer (`-none`: no quota fields, `429` with `Retry-After` alone): fixed window of ").append(limit).append(" per ").append(window)
			.append(" s (").append(perCaller).append(" calls per caller), token bucket of ").append(rate)
			.append("/s, burst ").append(burst).append(" (").append(bucketPerCaller).append(" calls per caller). ")
			.append(ResultFiles.environment()).append(".\n\n");
		md.append("| origin | client | store | calls | sent | 429s | ended 200 | calls failed | sent per success "
				+ "| time s | quota's own time s | time ÷ own | first arrival ms | time ÷ own from the first arrival "
				+ "| requests held | fleet slots | fallbacks | round trip p50 µs | round trip p99 µs |\n");
		md.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
				+ "| ---: | ---: | ---: | ---: | ---: |\n");
		for (Result r : results) {
			md.append("| ").append(r.origin()).append(" | ").append(Contender.ALL.get(r.client()).label())
				.append(" | ").append(r.store()).append(" | ").append(r.calls())
				.append(" | ").append(r.sent()).append(" | ").append(r.rejected()).append(" | ").append(r.succeeded())
				.append(" | ").append(r.failed()).append(" | ").append(Stats.format2(r.sentPerSuccess()))
				.append(" | ").append(Stats.format(r.seconds())).append(" | ").append(Stats.format(r.ownSeconds()))
				.append(" | ").append(Stats.format2(r.seconds() / r.ownSeconds())).append(" | ")
				.append((r.firstArrivalMillis() < 0) ? NO_STORE : Long.toString(r.firstArrivalMillis())).append(" | ")
				.append((r.ownFromArrivalSeconds() <= 0) ? NO_STORE
						: Stats.format2(r.seconds() / r.ownFromArrivalSeconds()))
				.append(" | ")
				// A peer holds nothing and takes no fleet slot: its store columns say so rather than 0.
				.append(r.peer() ? NO_STORE : r.held()).append(" | ").append(r.peer() ? NO_STORE : r.slots())
				.append(" | ").append(r.peer() ? NO_STORE : r.fallbacks()).append(" | ")
				.append(r.peer() ? NO_STORE : r.p50Micros()).append(" | ").append(r.peer() ? NO_STORE : r.p99Micros())
				.append(" |\n");
		}
		ResultFiles.write(out.resolve("fleet.md"), md.toString());
	}

	// The clients to run, checked up front: a typo should not surface minutes into a run. The
	// starter's other variants build their own store, which the store column would misname.
	private static List<String> clients(List<String> keys) {
		for (Contender contender : Contender.select(keys)) {
			if (contender.key().startsWith(OURS) && !contender.key().equals(OURS)) {
				throw new IllegalArgumentException("The fleet runs 'ours' on --stores and the peers; not '"
						+ contender.key() + "'");
			}
		}
		return keys;
	}

	private static Result fixed(DialectOrigin.Dialect dialect, String name, Instances instances, int perCaller,
			int limit, int window, int startInWindow) throws Exception {
		try (DialectOrigin origin = new DialectOrigin(dialect, limit, window)) {
			long startAt = startAt(instances);
			if (startInWindow >= 0) {
				long windowMillis = window * 1000L;
				startAt = (startAt / windowMillis + 1) * windowMillis + startInWindow % windowMillis;
			}
			int calls = calls(instances.callers(), perCaller);
			Fleet fleet = Fleet.run(prefix(origin.uri(0)), instances, perCaller, startAt);
			System.out.println("  accepted/refused per window: " + origin.perWindow() + " (first request "
					+ (origin.firstArrivalMillis() - startAt) + " ms after the start, last "
					+ (origin.lastArrivalMillis() - startAt) + " ms)");
			long first = origin.firstArrivalMillis();
			// The quota's own time had the first requests reached the origin when they did: the
			// same unless they reached only the next window.
			boolean arrived = first >= startAt;
			return result(name, instances, calls, origin.requests(), origin.rejected(), fleet, startAt,
					origin.earliestSeconds(calls, startAt), arrived ? first - startAt : -1,
					arrived ? origin.earliestSeconds(calls, first) + (first - startAt) / 1000.0 : -1);
		}
	}

	private static Result bucket(TokenBucketOrigin.Fields fields, String name, Instances instances, int perCaller,
			int rate, int burst) throws Exception {
		try (TokenBucketOrigin origin = new TokenBucketOrigin(rate, burst, fields)) {
			long startAt = startAt(instances);
			int calls = calls(instances.callers(), perCaller);
			Fleet fleet = Fleet.run(prefix(origin.uri(0)), instances, perCaller, startAt);
			double own = Math.max(0, calls - burst) / (double) rate;
			long first = origin.firstArrivalMillis();
			// The bucket is still full when the first request arrives, so the quota's own time
			// from then is its own time plus the wait for the first request.
			boolean arrived = first >= startAt;
			return result(name, instances, calls, origin.requests(), origin.rejected(), fleet, startAt, own,
					arrived ? first - startAt : -1, arrived ? own + (first - startAt) / 1000.0 : -1);
		}
	}

	// Late enough for every instance's JVM to be up, and warmed up when asked.
	private static long startAt(Instances instances) {
		return System.currentTimeMillis() + START_DELAY_MILLIS + instances.warmUpMillis();
	}

	/** The origin's URI for call 0 without its call number: each instance appends its own. */
	static String prefix(URI first) {
		String uri = first.toString();
		return uri.substring(0, uri.length() - 1);
	}

	private static int calls(List<Integer> callers, int perCaller) {
		return callers.stream().mapToInt(Integer::intValue).sum() * perCaller;
	}

	private static Result result(String origin, Instances instances, int calls, int sent, int rejected, Fleet fleet,
			long startAt, double ownSeconds, long firstArrivalMillis, double ownFromArrivalSeconds) {
		return new Result(origin, instances.client(), instances.store(), calls, sent, rejected, fleet.ok, fleet.failed,
				(fleet.end - startAt) / 1000.0, ownSeconds, firstArrivalMillis, ownFromArrivalSeconds, fleet.held,
				fleet.slots, fleet.fallbacks, fleet.p50Micros, fleet.p99Micros);
	}

	/**
	 * What every instance of one fleet runs.
	 *
	 * @param client the client's key: {@code ours}, or a peer's
	 * @param store {@code local} or {@code redis} for ours, {@code -} for a peer
	 * @param callers each instance's callers
	 * @param redis the fleet's Redis, used by ours on the Redis store
	 * @param warmUpMillis how long each instance calls an origin of its own before the start,
	 * or 0 for a cold JVM
	 */
	private record Instances(String client, String store, List<Integer> callers, RedisProcess redis,
			long warmUpMillis) {

	}

	/** The instances' JVMs, started together and read back. */
	private static final class Fleet {

		int ok;

		int failed;

		long end;

		long held;

		long slots;

		long fallbacks;

		// The slowest instance's.
		long p50Micros;

		long p99Micros;

		static Fleet run(String origin, Instances instances, int perCaller, long startAt) throws Exception {
			String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
			List<Process> processes = new ArrayList<>();
			List<Path> errors = new ArrayList<>();
			List<Integer> callers = instances.callers();
			for (int instanceCallers : callers) {
				List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
						FleetInstance.class.getName(), "--origin=" + origin, "--callers=" + instanceCallers,
						"--calls=" + (instanceCallers * perCaller), "--client=" + instances.client(),
						"--store=" + instances.store(), "--start-at=" + startAt,
						"--warm-up-ms=" + instances.warmUpMillis()));
				if (instances.store().equals("redis")) {
					command.add("--redis-port=" + instances.redis().port());
				}
				Path error = Files.createTempFile("fleet-instance-", ".err");
				errors.add(error);
				processes.add(new ProcessBuilder(command).redirectError(error.toFile()).start());
			}
			try {
				return collect(processes, errors, callers);
			}
			finally {
				// An instance that failed leaves the others calling an origin that is gone.
				processes.forEach(Process::destroyForcibly);
				for (Path error : errors) {
					Files.deleteIfExists(error);
				}
			}
		}

		private static Fleet collect(List<Process> processes, List<Path> errors, List<Integer> callers)
				throws Exception {
			Fleet fleet = new Fleet();
			for (int i = 0; i < processes.size(); i++) {
				Process process = processes.get(i);
				String found = null;
				try (BufferedReader reader = new BufferedReader(
						new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
					for (String line = reader.readLine(); line != null; line = reader.readLine()) {
						if (line.startsWith("FLEET ")) {
							found = line;
						}
					}
				}
				if (!process.waitFor(180, TimeUnit.SECONDS)) {
					process.destroyForcibly();
				}
				Matcher matcher = (found != null) ? LINE.matcher(found) : null;
				if (matcher == null || !matcher.matches()) {
					List<String> lines = Files.readAllLines(errors.get(i), StandardCharsets.UTF_8);
					String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
					throw new IllegalStateException(
							"An instance reported nothing (exit " + process.exitValue() + "); its error output ends:\n" + tail);
				}
				fleet.ok += Integer.parseInt(matcher.group(1));
				int failed = Integer.parseInt(matcher.group(2));
				fleet.failed += failed;
				if (failed > 0) {
					// What failed the calls, when they threw: what to mend.
					Files.readAllLines(errors.get(i), StandardCharsets.UTF_8)
						.stream()
						.filter((line) -> line.startsWith("call "))
						.limit(5)
						.forEach((line) -> System.out.println("  instance of " + callers.size() + ": " + line));
				}
				fleet.end = Math.max(fleet.end, Long.parseLong(matcher.group(3)));
				fleet.held += Long.parseLong(matcher.group(4));
				fleet.slots += Long.parseLong(matcher.group(5));
				fleet.fallbacks += Long.parseLong(matcher.group(6));
				fleet.p50Micros = Math.max(fleet.p50Micros, Long.parseLong(matcher.group(7)));
				fleet.p99Micros = Math.max(fleet.p99Micros, Long.parseLong(matcher.group(8)));
				System.out.println("  instance of " + callers.size() + ": holds (reason:requests:seconds) " + matcher.group(9));
			}
			return fleet;
		}

	}

}
