package dev.retryafter.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} child process on a random loopback port, for tests: no
 * persistence, killed (not shut down) by {@link #kill()} to simulate an outage, and started
 * again on the same port by {@link #start()}.
 */
public final class RedisServer implements AutoCloseable {

	/** System property that switches the Redis tests off ({@code -Dretryafter.redis.tests=off}). */
	public static final String SWITCH_PROPERTY = "retryafter.redis.tests";

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(10);

	private final Path executable;

	private final int port;

	private final Path directory;

	private List<String> arguments = List.of();

	private Path configFile;

	private Process process;

	private RedisServer(Path executable, int port, Path directory) {
		this.executable = executable;
		this.port = port;
		this.directory = directory;
	}

	/**
	 * Creates a server on a free loopback port, not yet started.
	 * @return the server
	 * @throws IllegalStateException if {@code redis-server} is not on the {@code PATH}
	 */
	public static RedisServer onFreePort() {
		return onFreePort(System.getenv("PATH"));
	}

	static RedisServer onFreePort(String searchPath) {
		Path executable = executable("redis-server", "redis-server", searchPath);
		try {
			return new RedisServer(executable, freePort(), Files.createTempDirectory("redis-test"));
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot prepare a directory for redis-server", ex);
		}
	}

	/**
	 * The directory the server runs in (its log, and a cluster node's configuration).
	 * @return the directory
	 */
	public Path directory() {
		return this.directory;
	}

	/**
	 * Whether the server process is running.
	 * @return whether it is
	 */
	public synchronized boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	/**
	 * The loopback port the server listens on, the same across restarts.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Command-line arguments added to the next starts, e.g.
	 * {@code "--replicaof", "127.0.0.1 6379"}.
	 * @param arguments the arguments
	 * @return this server
	 */
	public synchronized RedisServer arguments(String... arguments) {
		this.arguments = List.of(arguments);
		return this;
	}

	/**
	 * A configuration file read at the next starts, before the command-line arguments (a
	 * sentinel's, which it rewrites).
	 * @param file the file
	 * @return this server
	 */
	public synchronized RedisServer configFile(Path file) {
		this.configFile = file;
		return this;
	}

	/**
	 * Starts the server and waits until it answers {@code PING}.
	 * @throws IllegalStateException if it does not start in time
	 */
	public synchronized void start() {
		if (this.process != null && this.process.isAlive()) {
			throw new IllegalStateException("redis-server is already running on port " + this.port);
		}
		try {
			List<String> command = new ArrayList<>(List.of(this.executable.toString()));
			if (this.configFile != null) {
				command.add(this.configFile.toString());
			}
			command.addAll(List.of("--port", Integer.toString(this.port), "--bind", "127.0.0.1", "--save", "",
					"--appendonly", "no", "--dir", this.directory.toString()));
			command.addAll(this.arguments);
			this.process = new ProcessBuilder(command)
				.redirectErrorStream(true)
				.redirectOutput(this.directory.resolve("redis.log").toFile())
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start " + this.executable, ex);
		}
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (!answersPing()) {
			if (!this.process.isAlive() || System.nanoTime() - deadline > 0) {
				kill();
				throw new IllegalStateException("redis-server did not start on port " + this.port + ": " + log());
			}
			sleepBriefly();
		}
	}

	/**
	 * Kills the server process at once (SIGKILL), as a crash or a network cut would end it.
	 */
	public synchronized void kill() {
		if (this.process == null) {
			return;
		}
		this.process.destroyForcibly();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("redis-server on port " + this.port + " did not die");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.process = null;
	}

	/**
	 * Stops the server process (SIGSTOP): its connections stay open but nothing is answered,
	 * as when Redis hangs or a network device drops packets without a reset.
	 */
	public synchronized void pause() {
		signal("STOP");
	}

	/**
	 * Lets a {@linkplain #pause() paused} server carry on (SIGCONT).
	 */
	public synchronized void resume() {
		signal("CONT");
	}

	private void signal(String name) {
		if (this.process == null) {
			throw new IllegalStateException("redis-server is not running on port " + this.port);
		}
		try {
			Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(this.process.pid())).start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("Cannot send SIG" + name + " to redis-server on port " + this.port);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot send SIG" + name + " to redis-server", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while signalling redis-server", ex);
		}
	}

	@Override
	public void close() {
		kill();
		try (var files = Files.list(this.directory)) {
			for (Path file : files.toList()) {
				Files.deleteIfExists(file);
			}
			Files.deleteIfExists(this.directory);
		}
		catch (IOException ex) {
			// a temporary directory left behind is harmless
		}
	}

	private boolean answersPing() {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 200);
			socket.setSoTimeout(500);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] reply = in.readNBytes(7);
			return new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
		}
		catch (IOException ex) {
			return false;
		}
	}

	private String log() {
		try {
			return Files.readString(this.directory.resolve("redis.log"));
		}
		catch (IOException ex) {
			return "(no log)";
		}
	}

	private static void sleepBriefly() {
		try {
			Thread.sleep(20);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for redis-server", ex);
		}
	}

	/**
	 * Finds a Redis program on the search path.
	 * @param name the program, e.g. {@code redis-cli}
	 * @param debianPackage the Debian package that installs it
	 * @param searchPath the search path, as {@code PATH}
	 * @return the program
	 * @throws IllegalStateException naming the package to install if it is not there
	 */
	static Path executable(String name, String debianPackage, String searchPath) {
		return findExecutable(name, searchPath).orElseThrow(() -> new IllegalStateException(name
				+ " is not on the PATH, so the Redis tests cannot run. Install it (apt-get install -y " + debianPackage
				+ ") or switch these tests off with -D" + SWITCH_PROPERTY + "=off"));
	}

	private static Optional<Path> findExecutable(String name, String searchPath) {
		if (searchPath == null) {
			return Optional.empty();
		}
		for (String directory : searchPath.split(File.pathSeparator)) {
			if (directory.isEmpty()) {
				continue;
			}
			Path candidate = Path.of(directory, name);
			if (Files.isExecutable(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

	/**
	 * Runs a program (such as {@code redis-cli}) to its end.
	 * @param command the program and its arguments
	 * @return what it printed
	 * @throws IllegalStateException if it fails or takes over 30 s
	 */
	static String run(List<String> command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			byte[] output = process.getInputStream().readAllBytes();
			if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
				throw new IllegalStateException(
						String.join(" ", command) + " failed: " + new String(output, StandardCharsets.UTF_8));
			}
			return new String(output, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + command.get(0), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + command.get(0), ex);
		}
	}

	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
