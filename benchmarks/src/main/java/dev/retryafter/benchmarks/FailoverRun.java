package dev.retryafter.benchmarks;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One run of the Sentinel failover scenario ({@link SentinelFailover}): a master, a replica and
 * three sentinels, an origin, two sample-app instances sharing cooldowns through Redis behind
 * the sentinels; sharing checked both ways, the master killed (SIGKILL), a {@code 429}
 * recorded through each instance at once, while there is no master, and another once it says
 * it is not connected (or 5 s after the kill); then what the issue asks of a failover is
 * checked: each cooldown recorded meanwhile reaches the other instance, a new {@code 429}
 * through either holds the other, no instance says {@code connected} without a master (nor
 * says it and takes it back) past the probe window, and paced requests take their slots from
 * the fleet's schedule on the promoted master.
 */
final class FailoverRun {

	/** The fleet's partition secret: both instances key their partition digests with it. */
	static final String SECRET = "sentinel-failover-scenario-secret-of-the-fleet";

	/**
	 * How long an instance may still say {@code connected} with no master: the store's probe
	 * (2 s after Lettuce reports a closed connection) and one tick of its watchdog (1 s), as
	 * docs/REDIS.md says.
	 */
	static final Duration PROBE_WINDOW = Duration.ofSeconds(3);

	static final String FALLBACKS = "http.client.retry.store.quota.fallbacks";

	// Longer than every check after it, and at most the default max-duration (60 s).
	private static final int RETRY_AFTER_SECONDS = 60;

	private static final String KEY_PREFIX = "retry-after:retry-after-sample:";

	private static final String PATH = "tenant/call";

	private static final String QUOTA_PATH = "quota/call";

	private static final String QUOTA_TENANT = "Bearer quota";

	private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

	private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration SHARED_TIMEOUT = Duration.ofSeconds(30);

	// How long after the kill an instance may take to say it is not connected: the probe
	// window, and room for a busy machine. One that still says connected then (Lettuce
	// reconnected before the probe expired) has its 429 recorded all the same.
	private static final Duration NOT_CONNECTED_TIMEOUT = PROBE_WINDOW.plusSeconds(2);

	// A check later than this after its 429 would find the cooldown over, held or not.
	private static final Duration LATEST_CHECK = Duration.ofSeconds(RETRY_AFTER_SECONDS - 10);

	/** One check, passed or not, and what was seen. */
	record Check(String name, boolean passed, String detail) {
	}

	/**
	 * What a run measured: times in ms after the master was killed ({@code -1}: never), per
	 * instance (A, B) where there are two.
	 */
	record Result(int run, long promotedMs, long[] disconnectedMs, long[] connectedMs,
			long[] connectedWithoutMasterMs, long[] connectedBeforeDropMs, long[] duringRelayMs,
			long[] duringSharedMs, long[] outageSharedMs, long[] afterSharedMs, int failedCalls,
			List<Check> checks) {

		static Result aborted(int run, Exception ex) {
			long[] none = { -1, -1 };
			return new Result(run, -1, none, none, none, none, none, none, none, none, 0,
					List.of(new Check("the run completed", false, ex.toString())));
		}

		boolean passed() {
			return !this.checks.isEmpty() && this.checks.stream().allMatch(Check::passed);
		}

	}

	// A 429 through one instance: the relay's answer, how long it took, the partition it
	// started (null if none or several appeared), and when it was recorded.
	private record Recorded(int status, long millis, String partition, long nanos, String when) {
	}

	private final int run;

	private final Path jar;

	private final Path logs;

	private final Duration downAfter;

	// What a shutdown hook closes if the harness is stopped mid-run.
	private final Deque<AutoCloseable> open;

	private final List<Check> checks = new ArrayList<>();

	// Each tenant's partition, as the instance that recorded its 429 lists it.
	private final Map<String, String> partitions = new HashMap<>();

	// Relay calls that did not get the answer the scenario expects.
	private int failedCalls;

	private FailoverOrigin origin;

	private String originName;

	FailoverRun(int run, Path jar, Path logs, Duration downAfter, Deque<AutoCloseable> open) {
		this.run = run;
		this.jar = jar;
		this.logs = logs;
		this.downAfter = downAfter;
		this.open = open;
	}

	Result execute() throws Exception {
		try (SentinelGroup group = opened(SentinelGroup.start(this.downAfter));
				FailoverOrigin origin = opened(new FailoverOrigin(RETRY_AFTER_SECONDS))) {
			this.origin = origin;
			this.originName = origin.root().toString();
			List<String> arguments = arguments(group, origin);
			try (SampleAppProcess a = opened(SampleAppProcess.start("A", this.jar, arguments, log("a")));
					SampleAppProcess b = opened(SampleAppProcess.start("B", this.jar, arguments, log("b")))) {
				a.awaitConnected(START_TIMEOUT);
				b.awaitConnected(START_TIMEOUT);
				try (FailoverMonitor monitor = opened(new FailoverMonitor(List.of(a, b), group, this.originName))) {
					return failover(group, List.of(a, b), monitor);
				}
			}
		}
		finally {
			this.open.clear();
		}
	}

	private Result failover(SentinelGroup group, List<SampleAppProcess> instances, FailoverMonitor monitor)
			throws Exception {
		SampleAppProcess a = instances.get(0);
		SampleAppProcess b = instances.get(1);
		shares("before: A's 429 holds B", a, b, 1, "Bearer before-a", monitor);
		shares("before: B's 429 holds A", b, a, 0, "Bearer before-b", monitor);
		quotaSlots("before: paced requests take fleet slots", instances, group, group.master());

		long killed = System.nanoTime();
		group.master().kill();
		// While there is no master: kept by each instance, published once it reaches the new one.
		Recorded duringA = record(a, "Bearer during-a");
		Recorded duringB = record(b, "Bearer during-b");
		this.checks.add(new Check("during: the 429s answered while there is no master",
				duringA.status() == 429 && duringB.status() == 429 && duringA.partition() != null
						&& duringB.partition() != null,
				"A " + duringA.status() + " in " + duringA.millis() + " ms, B " + duringB.status() + " in "
						+ duringB.millis() + " ms"));
		// And once each says it is not connected: kept in its write queue until it is again.
		Recorded outageA = recordWhileNotConnected(a, 0, "Bearer outage-a", killed, monitor);
		Recorded outageB = recordWhileNotConnected(b, 1, "Bearer outage-b", killed, monitor);
		// Past the probe window: what an instance says then is no longer what it said before.
		FailoverMonitor.Sample back = monitor.await(killed + PROBE_WINDOW.toNanos(), (sample) -> sample.promoted()
				&& sample.readings().stream().allMatch(FailoverMonitor.Reading::connected), FAILOVER_TIMEOUT);
		this.checks.add(new Check("failover: both say connected, with a master, past the probe window",
				back != null, (back != null) ? "at " + millis(back.readings().get(1).nanos() - killed) + " ms"
						: "not within " + FAILOVER_TIMEOUT.toSeconds() + " s"));

		long[] duringShared = { reaches("(a) A's 429 during the failover holds B", b, 1, "Bearer during-a", duringA,
				killed, monitor),
				reaches("(a) B's 429 during the failover holds A", a, 0, "Bearer during-b", duringB, killed,
						monitor) };
		long[] outageShared = { reaches("(a) A's 429 " + outageA.when() + " holds B", b, 1, "Bearer outage-a",
				outageA, killed, monitor),
				reaches("(a) B's 429 " + outageB.when() + " holds A", a, 0, "Bearer outage-b", outageB, killed,
						monitor) };
		long[] afterShared = { shares("(b) after: A's 429 holds B", a, b, 1, "Bearer after-a", monitor),
				shares("(b) after: B's 429 holds A", b, a, 0, "Bearer after-b", monitor) };
		quotaSlots("after: paced requests take fleet slots on the promoted master", instances, group,
				group.replica());

		FailoverTimeline timeline = new FailoverTimeline(monitor.samples(), killed);
		long[] disconnected = new long[2];
		long[] connected = new long[2];
		long[] withoutMaster = new long[2];
		long[] beforeDrop = new long[2];
		for (int i = 0; i < 2; i++) {
			String name = instances.get(i).name();
			disconnected[i] = timeline.firstNotConnected(i);
			connected[i] = timeline.connectedForGood(i);
			withoutMaster[i] = timeline.lastConnectedWithoutMaster(i);
			beforeDrop[i] = timeline.lastConnectedBeforeDrop(i);
			this.checks.add(new Check("(c) " + name + " not connected with no master past " + PROBE_WINDOW.toMillis()
					+ " ms", withoutMaster[i] <= PROBE_WINDOW.toMillis(),
					"last said connected with no master at " + withoutMaster[i] + " ms"));
			this.checks.add(new Check("(c) " + name + " took back no 'connected' said past " + PROBE_WINDOW.toMillis()
					+ " ms", beforeDrop[i] <= PROBE_WINDOW.toMillis(),
					"last said connected before saying it was not at " + beforeDrop[i] + " ms"));
		}
		return new Result(this.run, timeline.promoted(), disconnected, connected, withoutMaster, beforeDrop,
				new long[] { duringA.millis(), duringB.millis() }, duringShared, outageShared, afterShared,
				this.failedCalls,
				List.copyOf(this.checks));
	}

	/**
	 * A 429 through {@code from}, then: {@code to} lists its partition, and {@code to}'s next
	 * request for that tenant is refused unsent (the origin sees one request of the tenant).
	 * @return ms from the 429 to {@code to} listing it, or -1
	 */
	private long shares(String name, SampleAppProcess from, SampleAppProcess to, int toIndex, String tenant,
			FailoverMonitor monitor) throws IOException, InterruptedException {
		Recorded recorded = record(from, tenant);
		long seen = reaches(name, to, toIndex, tenant, recorded, recorded.nanos(), monitor);
		return (seen >= 0) ? seen : -1;
	}

	/**
	 * Whether a recorded 429 reaches {@code to}: it lists the partition, and refuses the
	 * tenant's next request unsent.
	 * @return ms from {@code sinceNanos} to {@code to} listing it, or -1
	 */
	private long reaches(String name, SampleAppProcess to, int toIndex, String tenant, Recorded recorded,
			long sinceNanos, FailoverMonitor monitor) throws IOException, InterruptedException {
		if (recorded.status() != 429 || recorded.partition() == null) {
			this.checks.add(new Check(name, false, "the 429 was not recorded: relay answered " + recorded.status()
					+ ", partition " + recorded.partition()));
			return -1;
		}
		if (System.nanoTime() - recorded.nanos() > LATEST_CHECK.toNanos()) {
			this.checks.add(new Check(name, false, "not checked: its cooldown was nearly over"));
			return -1;
		}
		long seenNanos = monitor.awaitPartition(toIndex, recorded.partition(), recorded.nanos(), SHARED_TIMEOUT);
		// Asked even when it was not listed: an instance that sends it shows at the origin.
		HttpResponse<String> next = to.relay(PATH, tenant);
		int arrivals = this.origin.arrivals(tenant);
		boolean refused = next.statusCode() == 502 && next.body().contains("\"reason\":\"cooldown\"");
		if (!refused) {
			this.failedCalls++;
		}
		long seen = (seenNanos >= 0) ? millis(seenNanos - sinceNanos) : -1;
		this.checks.add(new Check(name, seenNanos >= 0 && refused && arrivals == 1,
				((seenNanos >= 0) ? "listed by " + to.name() + " after " + seen + " ms"
						: "not listed by " + to.name() + " within " + SHARED_TIMEOUT.toSeconds() + " s")
						+ "; its next request answered " + next.statusCode() + ", origin saw " + arrivals
						+ " request(s) of the tenant"));
		return seen;
	}

	/**
	 * A 429 through an instance once it says it is not connected: what it records then waits
	 * in its write queue, not in the client's. Recorded all the same if it still says
	 * connected {@link #NOT_CONNECTED_TIMEOUT} after the kill.
	 */
	private Recorded recordWhileNotConnected(SampleAppProcess from, int index, String tenant, long killed,
			FailoverMonitor monitor) throws IOException, InterruptedException {
		Duration left = Duration.ofNanos(Math.max(0, killed + NOT_CONNECTED_TIMEOUT.toNanos() - System.nanoTime()));
		boolean said = monitor.await(killed, (sample) -> !sample.readings().get(index).connected(), left) != null;
		Recorded recorded = record(from, tenant);
		return new Recorded(recorded.status(), recorded.millis(), recorded.partition(), recorded.nanos(),
				said ? "once it said not connected" : "at " + millis(recorded.nanos() - killed)
						+ " ms (it had not said not connected)");
	}

	private Recorded record(SampleAppProcess from, String tenant) throws IOException, InterruptedException {
		Set<String> known = from.partitions(this.originName);
		this.origin.rejectNext(tenant);
		long start = System.nanoTime();
		HttpResponse<String> response = from.relay(PATH, tenant);
		long millis = millis(System.nanoTime() - start);
		if (response.statusCode() != 429) {
			this.failedCalls++;
		}
		Set<String> fresh = new HashSet<>(from.partitions(this.originName));
		fresh.removeAll(known);
		fresh.removeAll(this.partitions.values());
		String partition = (fresh.size() == 1) ? fresh.iterator().next() : null;
		if (partition != null) {
			this.partitions.put(tenant, partition);
		}
		return new Recorded(response.statusCode(), millis, partition, start, "");
	}

	/**
	 * Paced requests through each instance, against an origin whose quota is near its end: the
	 * fleet's slot is taken on {@code master} (its key is there again after it was deleted),
	 * no request takes a local share instead ({@code quota.fallbacks} unchanged), and the
	 * script was cached there (no {@code NOSCRIPT} answered): the store loads it on a promoted
	 * master before a request needs it.
	 */
	private void quotaSlots(String name, List<SampleAppProcess> instances, SentinelGroup group,
			RedisProcess master) throws IOException, InterruptedException {
		String pattern = KEY_PREFIX + "quota:*";
		for (String key : lines(group.cli(master, "KEYS", pattern))) {
			group.cli(master, "DEL", key);
		}
		long noScript = stat(group.cli(master, "INFO", "errorstats"), "errorstat_NOSCRIPT:count=");
		double fallbacks = 0;
		List<Integer> statuses = new ArrayList<>();
		for (SampleAppProcess instance : instances) {
			double before = instance.counter(FALLBACKS);
			// The first answer (again) tells the quota; the second request is paced by it.
			statuses.add(instance.relay(QUOTA_PATH, QUOTA_TENANT).statusCode());
			statuses.add(instance.relay(QUOTA_PATH, QUOTA_TENANT).statusCode());
			fallbacks += instance.counter(FALLBACKS) - before;
		}
		this.failedCalls += (int) statuses.stream().filter((status) -> status != 200).count();
		List<String> keys = lines(group.cli(master, "KEYS", pattern));
		String tat = keys.isEmpty() ? "" : group.cli(master, "HGET", keys.get(0), "tat").strip();
		long noScriptAfter = stat(group.cli(master, "INFO", "errorstats"), "errorstat_NOSCRIPT:count=");
		long loads = stat(group.cli(master, "INFO", "commandstats"), "cmdstat_script|load:calls=");
		boolean passed = statuses.stream().allMatch((status) -> status == 200) && fallbacks == 0 && !tat.isEmpty()
				&& noScriptAfter == noScript;
		this.checks.add(new Check(name, passed, "answers " + statuses + ", fallbacks " + (long) fallbacks
				+ ", fleet key " + (tat.isEmpty() ? "absent" : "with a TAT") + " on port " + master.port()
				+ ", NOSCRIPT answers " + (noScriptAfter - noScript) + ", SCRIPT LOAD calls there " + loads));
	}

	private List<String> arguments(SentinelGroup group, FailoverOrigin origin) {
		return List.of("--sample.upstream-url=" + origin.root(), "--retry-after.store=redis",
				"--spring.data.redis.sentinel.master=" + SentinelGroup.MASTER_NAME,
				"--spring.data.redis.sentinel.nodes=" + group.nodes(), "--retry-after.cooldown.partition-headers=Authorization",
				"--retry-after.cooldown.partition-secret=" + SECRET);
	}

	private Path log(String instance) {
		return this.logs.resolve("run-" + this.run + "-" + instance + ".log");
	}

	private <T extends AutoCloseable> T opened(T resource) {
		this.open.push(resource);
		return resource;
	}

	private static List<String> lines(String output) {
		return output.lines().map(String::strip).filter((line) -> !line.isEmpty()).toList();
	}

	// A number after a prefix in INFO's output, 0 when the line is missing.
	private static long stat(String info, String prefix) {
		for (String line : lines(info)) {
			if (line.startsWith(prefix)) {
				String rest = line.substring(prefix.length());
				int end = rest.indexOf(',');
				return Long.parseLong((end >= 0) ? rest.substring(0, end) : rest);
			}
		}
		return 0;
	}

	private static long millis(long nanos) {
		return Duration.ofNanos(nanos).toMillis();
	}

}
