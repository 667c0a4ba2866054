package dev.retryafter.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.data.redis.connection.RedisClusterConfiguration;

/**
 * A real Redis Cluster of three masters and no replicas, each a {@code redis-server
 * --cluster-enabled yes} child process on a random loopback port, joined with
 * {@code redis-cli --cluster create}. A node can be killed and started again on its port; it
 * then rejoins from its {@code nodes.conf}. Fails (never skips) when {@code redis-server} or
 * {@code redis-cli} is missing.
 */
public final class RedisCluster implements AutoCloseable {

	private static final Duration STATE_TIMEOUT = Duration.ofSeconds(30);

	// How long a master may be silent before the others mark it failed, and the cluster down.
	private static final Duration NODE_TIMEOUT = Duration.ofMillis(1000);

	private final List<RedisServer> nodes;

	private final Path cli;

	private RedisCluster(List<RedisServer> nodes, Path cli) {
		this.nodes = nodes;
		this.cli = cli;
	}

	/**
	 * Starts three masters, joins them into a cluster that covers every slot, and waits
	 * until each reports {@code cluster_state:ok}.
	 * @return the cluster
	 */
	public static RedisCluster start() {
		Path cli = RedisServer.executable("redis-cli", "redis-tools", System.getenv("PATH"));
		List<RedisServer> nodes = new ArrayList<>();
		RedisCluster cluster = new RedisCluster(nodes, cli);
		try {
			for (int i = 0; i < 3; i++) {
				RedisServer node = RedisServer.onFreePort();
				nodes.add(node);
				node.arguments("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
						"--cluster-node-timeout", Long.toString(NODE_TIMEOUT.toMillis()));
				node.start();
			}
			List<String> create = new ArrayList<>(List.of("--cluster", "create"));
			for (RedisServer node : nodes) {
				create.add("127.0.0.1:" + node.port());
			}
			create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
			cluster.cli(create);
			cluster.awaitState("ok");
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	/**
	 * The Spring Data Redis configuration naming every node, as
	 * {@code spring.data.redis.cluster.nodes} would.
	 * @return the configuration
	 */
	public RedisClusterConfiguration configuration() {
		List<String> addresses = new ArrayList<>();
		for (RedisServer node : this.nodes) {
			addresses.add("127.0.0.1:" + node.port());
		}
		return new RedisClusterConfiguration(addresses);
	}

	/**
	 * The nodes, each a master of a third of the slots.
	 * @return the nodes
	 */
	public List<RedisServer> nodes() {
		return this.nodes;
	}

	/**
	 * Waits until every running node reports the given cluster state.
	 * @param state {@code ok} or {@code fail}
	 */
	public void awaitState(String state) {
		long deadline = System.nanoTime() + STATE_TIMEOUT.toNanos();
		while (!hasState(state)) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("The Redis cluster did not reach cluster_state:" + state);
			}
			sleep(Duration.ofMillis(50));
		}
	}

	/**
	 * Deletes every key on every master.
	 */
	public void flushAll() {
		for (RedisServer node : this.nodes) {
			cli(List.of("-p", Integer.toString(node.port()), "FLUSHALL"));
		}
	}

	@Override
	public void close() {
		for (RedisServer node : this.nodes) {
			node.close();
		}
	}

	private boolean hasState(String state) {
		for (RedisServer node : this.nodes) {
			if (node.isRunning() && !cli(List.of("-p", Integer.toString(node.port()), "CLUSTER", "INFO"))
				.contains("cluster_state:" + state)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Runs {@code redis-cli} against one node.
	 * @param node the node
	 * @param arguments the command and its arguments, or options such as {@code --scan}
	 * @return what it printed
	 */
	public String cli(RedisServer node, String... arguments) {
		List<String> command = new ArrayList<>(List.of("-p", Integer.toString(node.port())));
		command.addAll(List.of(arguments));
		return cli(command);
	}

	/**
	 * Runs {@code redis-cli} on loopback.
	 * @param arguments its arguments after {@code -h 127.0.0.1}
	 * @return what it printed
	 */
	String cli(List<String> arguments) {
		List<String> command = new ArrayList<>(List.of(this.cli.toString(), "-h", "127.0.0.1"));
		command.addAll(arguments);
		return RedisServer.run(command);
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for the Redis cluster", ex);
		}
	}

}
