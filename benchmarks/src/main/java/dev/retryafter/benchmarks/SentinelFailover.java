package dev.retryafter.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The Sentinel failover scenario of the fleet issue, run as a user would run it: two
 * instances of the sample app ({@code java -jar}) with {@code retry-after.store=redis} behind
 * Redis Sentinel, partitioned cooldowns ({@code Authorization}) and one partition secret; a
 * master, one replica and three sentinels ({@code down-after-milliseconds 1000},
 * {@code failover-timeout 3000}) on loopback; the master killed with SIGKILL. Each run starts
 * everything afresh ({@link FailoverRun}) and checks sharing both ways before the failover,
 * the cooldowns recorded while there is no master, sharing both ways after it, what the
 * endpoints say meanwhile, and the fleet's quota slots on the promoted master. The store runs
 * on its production timings and Spring Boot's default command timeout: nothing is set but
 * what the scenario names.
 * <p>
 * Build the jar first ({@code ./mvnw -pl sample-app -am package -DskipTests}), then run
 * {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.SentinelFailover}
 * with options {@code --runs=5 --jar=sample-app/target/sample-app-0.1.0-SNAPSHOT.jar
 * --down-after-ms=1000 --keep-logs=false --out=benchmarks/results} (the sentinels'
 * {@code failover-timeout} is three times {@code down-after}, at least 3 s). Exits with 1 when
 * a run failed; the instances' logs of a failed run are kept (their folder is printed), of
 * every run with {@code --keep-logs=true}.
 */
public final class SentinelFailover {

	private SentinelFailover() {
	}

	/**
	 * Runs the scenario.
	 * @param args see the class description
	 * @throws Exception if something cannot be started
	 */
	public static void main(String[] args) throws Exception {
		Options options = Options.parse(args);
		int runs = options.integer("runs", 5);
		Duration downAfter = Duration.ofMillis(options.integer("down-after-ms", 1000));
		boolean keepLogs = Boolean.parseBoolean(options.string("keep-logs", "false"));
		Path jar = Path.of(options.string("jar", findJar().toString()));
		Path out = Path.of(options.string("out", "benchmarks/results"));
		String boot = bootVersion(jar);
		Path logs = Files.createTempDirectory("sentinel-failover");
		Deque<AutoCloseable> open = new ConcurrentLinkedDeque<>();
		Runtime.getRuntime().addShutdownHook(new Thread(() -> closeAll(open), "sentinel-failover-cleanup"));
		System.out.println(ResultFiles.environment() + "; Spring Boot " + boot + "; " + jar + "; down-after "
				+ downAfter.toMillis() + " ms");
		List<FailoverRun.Result> results = new ArrayList<>();
		for (int run = 1; run <= runs; run++) {
			System.out.println("run " + run + " of " + runs + ", started " + Instant.now() + ", load " + load());
			FailoverRun.Result result;
			try {
				result = new FailoverRun(run, jar, logs, downAfter, open).execute();
			}
			catch (Exception ex) {
				// Everything it started is closed: the next run starts afresh.
				result = FailoverRun.Result.aborted(run, ex);
			}
			results.add(result);
			for (FailoverRun.Check check : result.checks()) {
				System.out.println("  " + (check.passed() ? "pass" : "FAIL") + "  " + check.name() + ": "
						+ check.detail());
			}
			System.out.println("  " + FailoverReport.row(result));
			if (result.passed() && !keepLogs) {
				deleteLogs(logs, run);
			}
		}
		long passed = results.stream().filter(FailoverRun.Result::passed).count();
		String report = FailoverReport.markdown(results, boot, downAfter, load());
		String variant = (downAfter.toMillis() == 1000) ? "" : "-down-after-" + downAfter.toMillis();
		ResultFiles.write(out.resolve("sentinel-failover-boot-" + boot + variant + ".md"), report);
		boolean logsKept = passed < runs || keepLogs;
		System.out.println(passed + " of " + runs + " runs passed" + (logsKept ? "; logs in " + logs : ""));
		if (passed < runs) {
			System.exit(1);
		}
		if (!logsKept) {
			Files.deleteIfExists(logs);
		}
	}

	// The jar the sample app's build leaves, not the plain one.
	private static Path findJar() {
		try (Stream<Path> files = Files.list(Path.of("sample-app", "target"))) {
			return files.filter((file) -> file.toString().endsWith(".jar") && !file.toString().endsWith("-plain.jar"))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException(
						"No sample-app jar: build it with ./mvnw -pl sample-app -am package -DskipTests"));
		}
		catch (IOException ex) {
			throw new IllegalStateException(
					"No sample-app/target: build it with ./mvnw -pl sample-app -am package -DskipTests", ex);
		}
	}

	private static String bootVersion(Path jar) throws IOException {
		try (JarFile file = new JarFile(jar.toFile())) {
			String version = file.getManifest().getMainAttributes().getValue("Spring-Boot-Version");
			return (version != null) ? version : "unknown";
		}
	}

	static String load() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
			return fields[0] + " " + fields[1] + " " + fields[2];
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	private static void deleteLogs(Path logs, int run) throws IOException {
		try (Stream<Path> files = Files.list(logs)) {
			for (Path file : files.filter((file) -> file.getFileName().toString().startsWith("run-" + run + "-"))
				.sorted(Comparator.reverseOrder())
				.toList()) {
				Files.deleteIfExists(file);
			}
		}
	}

	private static void closeAll(Deque<AutoCloseable> open) {
		for (AutoCloseable resource = open.poll(); resource != null; resource = open.poll()) {
			try {
				resource.close();
			}
			catch (Exception ex) {
				// stopping anyway: the next one is still closed
			}
		}
	}

}
