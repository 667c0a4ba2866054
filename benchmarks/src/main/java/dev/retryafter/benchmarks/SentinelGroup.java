package dev.retryafter.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * A Redis master, one replica and three sentinels on free loopback ports, as the library's
 * Sentinel tests start them: the sentinels call the master down after {@code downAfter} of
 * silence, need two of them to agree, and give a failover three times that (at least 3 s).
 * {@link #start} returns once every sentinel knows the replica and the two other sentinels, so
 * that killing the master ({@link #master()}) fails over to the replica. Every wait is bounded
 * (30 s); closing kills every process.
 */
final class SentinelGroup implements AutoCloseable {

	/** The name the sentinels monitor the master under. */
	static final String MASTER_NAME = "retry-after-failover";

	private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

	private final Path cli = RedisProcess.find("redis-cli");

	private final List<RedisProcess> processes = new ArrayList<>();

	private RedisProcess master;

	private RedisProcess replica;

	private SentinelGroup() {
	}

	static SentinelGroup start(Duration downAfter) throws IOException, InterruptedException {
		SentinelGroup group = new SentinelGroup();
		try {
			group.startAll(downAfter);
			return group;
		}
		catch (IOException | InterruptedException | RuntimeException ex) {
			group.close();
			throw ex;
		}
	}

	private void startAll(Duration downAfter) throws IOException, InterruptedException {
		this.master = started(new RedisProcess());
		this.replica = started(new RedisProcess().configured(null, "--replicaof", "127.0.0.1 " + this.master.port()));
		await("the replica to sync", () -> cli(this.replica, "INFO", "replication").contains("master_link_status:up"));
		List<RedisProcess> sentinels = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			RedisProcess sentinel = new RedisProcess();
			Path config = sentinel.directory().resolve("sentinel.conf");
			Files.writeString(config, String.join("\n",
					"sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + this.master.port() + " 2",
					"sentinel down-after-milliseconds " + MASTER_NAME + " " + downAfter.toMillis(),
					"sentinel failover-timeout " + MASTER_NAME + " " + Math.max(3000, 3 * downAfter.toMillis()), ""),
					StandardCharsets.UTF_8);
			sentinels.add(started(sentinel.configured(config, "--sentinel")));
		}
		for (RedisProcess sentinel : sentinels) {
			await("sentinel on port " + sentinel.port() + " to know the replica and the other sentinels", () -> {
				List<String> lines = cli(sentinel, "SENTINEL", "MASTER", MASTER_NAME).lines().map(String::strip).toList();
				return value(lines, "num-slaves").equals("1") && value(lines, "num-other-sentinels").equals("2");
			});
		}
	}

	/** The master the group started with: kill it to fail over. */
	RedisProcess master() {
		return this.master;
	}

	/** The replica, master once the sentinels promote it. */
	RedisProcess replica() {
		return this.replica;
	}

	/** The sentinels' addresses, as {@code spring.data.redis.sentinel.nodes} takes them. */
	String nodes() {
		return this.processes.subList(2, this.processes.size())
			.stream()
			.map((sentinel) -> "127.0.0.1:" + sentinel.port())
			.collect(Collectors.joining(","));
	}

	/** Whether a server says it is a master ({@code ROLE}). */
	boolean isMaster(RedisProcess server) {
		return cli(server, "ROLE").strip().startsWith("master");
	}

	/**
	 * Runs {@code redis-cli} against one server of the group.
	 * @return what it printed
	 * @throws IllegalStateException if it fails or takes over 30 s
	 */
	String cli(RedisProcess server, String... arguments) {
		List<String> command = new ArrayList<>(
				List.of(this.cli.toString(), "-h", "127.0.0.1", "-p", Integer.toString(server.port())));
		command.addAll(List.of(arguments));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			byte[] output = process.getInputStream().readAllBytes();
			if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
				process.destroyForcibly();
				throw new IllegalStateException(String.join(" ", command) + " failed: "
						+ new String(output, StandardCharsets.UTF_8));
			}
			return new String(output, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + command.get(0), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running redis-cli", ex);
		}
	}

	@Override
	public void close() {
		// Sentinels first, so that none fails over while the servers go.
		for (int i = this.processes.size() - 1; i >= 0; i--) {
			try {
				this.processes.get(i).close();
			}
			catch (Exception ex) {
				// the next one is still closed
			}
		}
	}

	private RedisProcess started(RedisProcess process) throws IOException, InterruptedException {
		this.processes.add(process);
		process.start();
		return process;
	}

	// The value after a name in redis-cli's flat listing of a map.
	private static String value(List<String> lines, String name) {
		int index = lines.indexOf(name);
		return (index >= 0 && index + 1 < lines.size()) ? lines.get(index + 1) : "";
	}

	private static void await(String what, BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + TIMEOUT_NANOS;
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Timed out waiting for " + what);
			}
			Thread.sleep(50);
		}
	}

}
