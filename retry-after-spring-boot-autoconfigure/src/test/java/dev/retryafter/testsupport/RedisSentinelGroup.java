package dev.retryafter.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;

/**
 * A real Redis master, one replica and three sentinels ({@code redis-server --sentinel}) on
 * random loopback ports, for tests of a failover: the master can be killed, and the
 * sentinels then promote the replica (a master is down after 1 s of silence unless told
 * otherwise, a failover times out after 3 s). Fails (never skips) when {@code redis-server} or {@code redis-cli}
 * is missing.
 */
public final class RedisSentinelGroup implements AutoCloseable {

	/** The name the sentinels monitor the master under. */
	public static final String MASTER_NAME = "retry-after-test";

	private static final Duration STATE_TIMEOUT = Duration.ofSeconds(30);

	private final List<RedisServer> servers = new ArrayList<>();

	private final List<RedisServer> sentinels = new ArrayList<>();

	private final Path cli;

	private RedisServer master;

	private RedisServer replica;

	private RedisSentinelGroup(Path cli) {
		this.cli = cli;
	}

	/**
	 * Starts the master, the replica and the sentinels, and waits until every sentinel knows
	 * the replica and the two other sentinels, so that a failover can happen.
	 * @return the group
	 */
	public static RedisSentinelGroup start() {
		return start(true, Duration.ofSeconds(1));
	}

	/**
	 * Starts the group as {@link #start()} does, with the sentinels taking a master for down
	 * after {@code downAfter} of silence: a longer failover, for tests of what the stores say
	 * while there is no master.
	 * @param downAfter the sentinels' {@code down-after-milliseconds}
	 * @return the group
	 */
	public static RedisSentinelGroup startWithDownAfter(Duration downAfter) {
		return start(true, downAfter);
	}

	/**
	 * Starts the master, the replica and the sentinels, without waiting until they could fail
	 * over (the sentinels learn of each other within seconds): enough for tests that only
	 * connect through the sentinels.
	 * @return the group
	 */
	public static RedisSentinelGroup startWithoutFailover() {
		return start(false, Duration.ofSeconds(1));
	}

	private static RedisSentinelGroup start(boolean failover, Duration downAfter) {
		RedisSentinelGroup group = new RedisSentinelGroup(
				RedisServer.executable("redis-cli", "redis-tools", System.getenv("PATH")));
		try {
			group.startServers(failover, downAfter);
			return group;
		}
		catch (RuntimeException ex) {
			group.close();
			throw ex;
		}
	}

	private void startServers(boolean failover, Duration downAfter) {
		this.master = RedisServer.onFreePort();
		this.servers.add(this.master);
		this.master.start();
		this.replica = RedisServer.onFreePort();
		this.servers.add(this.replica);
		this.replica.arguments("--replicaof", "127.0.0.1 " + this.master.port()).start();
		await("the replica to sync", () -> cli(this.replica, "INFO", "replication").contains("master_link_status:up"));
		for (int i = 0; i < 3; i++) {
			RedisServer sentinel = RedisServer.onFreePort();
			this.sentinels.add(sentinel);
			Path config = sentinel.directory().resolve("sentinel.conf");
			write(config, String.join("\n", "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + this.master.port() + " 2",
					"sentinel down-after-milliseconds " + MASTER_NAME + " " + downAfter.toMillis(),
					"sentinel failover-timeout " + MASTER_NAME + " " + Math.max(3000, 3 * downAfter.toMillis()), ""));
			sentinel.configFile(config).arguments("--sentinel").start();
		}
		for (RedisServer sentinel : this.sentinels) {
			if (!failover) {
				break;
			}
			await("sentinel on port " + sentinel.port() + " to know the replica and the other sentinels", () -> {
				List<String> lines = List.of(cli(sentinel, "SENTINEL", "MASTER", MASTER_NAME).split("\n"));
				return value(lines, "num-slaves").equals("1") && value(lines, "num-other-sentinels").equals("2");
			});
		}
	}

	/**
	 * The Spring Data Redis configuration naming the sentinels, as
	 * {@code spring.data.redis.sentinel.*} would.
	 * @return the configuration
	 */
	public RedisSentinelConfiguration configuration() {
		Set<String> addresses = new HashSet<>();
		for (RedisServer sentinel : this.sentinels) {
			addresses.add("127.0.0.1:" + sentinel.port());
		}
		return new RedisSentinelConfiguration(MASTER_NAME, addresses);
	}

	/**
	 * The master the group started with.
	 * @return the master
	 */
	public RedisServer master() {
		return this.master;
	}

	/**
	 * The replica the group started with.
	 * @return the replica
	 */
	public RedisServer replica() {
		return this.replica;
	}

	/**
	 * The port of the master, as the first sentinel reports it.
	 * @return the port
	 */
	public int masterPort() {
		String[] address = cli(this.sentinels.get(0), "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME).split("\n");
		return Integer.parseInt(address[1].strip());
	}

	/**
	 * Waits until every sentinel names the replica as the master and the replica says so
	 * too.
	 */
	public void awaitReplicaPromoted() {
		await("the replica to be promoted", () -> {
			for (RedisServer sentinel : this.sentinels) {
				String address = cli(sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
				if (!address.contains(Integer.toString(this.replica.port()))) {
					return false;
				}
			}
			return cli(this.replica, "INFO", "replication").contains("role:master");
		});
	}

	/**
	 * Runs {@code redis-cli} against one server of the group.
	 * @param server the server
	 * @param arguments the command and its arguments
	 * @return what it printed
	 */
	public String cli(RedisServer server, String... arguments) {
		List<String> command = new ArrayList<>(
				List.of(this.cli.toString(), "-h", "127.0.0.1", "-p", Integer.toString(server.port())));
		command.addAll(List.of(arguments));
		return RedisServer.run(command);
	}

	@Override
	public void close() {
		for (RedisServer sentinel : this.sentinels) {
			sentinel.close();
		}
		for (RedisServer server : this.servers) {
			server.close();
		}
	}

	// The value after a name in redis-cli's flat listing of a map.
	private static String value(List<String> lines, String name) {
		int index = lines.indexOf(name);
		return (index >= 0 && index + 1 < lines.size()) ? lines.get(index + 1).strip() : "";
	}

	private static void write(Path file, String text) {
		try {
			Files.writeString(file, text);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot write " + file, ex);
		}
	}

	private static void await(String what, BooleanSupplier condition) {
		long deadline = System.nanoTime() + STATE_TIMEOUT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("Timed out waiting for " + what);
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for " + what, ex);
			}
		}
	}

}
