package dev.retryafter.benchmarks;

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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} child process on a free loopback port, no persistence, that can be
 * killed (SIGKILL), paused (SIGSTOP), resumed (SIGCONT) and started again on the same port.
 * A configuration file and arguments of its own make it a replica or a sentinel
 * ({@link SentinelGroup}).
 */
final class RedisProcess implements AutoCloseable {

	private final Path executable;

	private final Path directory;

	private final int port;

	private Path configFile;

	private List<String> arguments = List.of();

	private Process process;

	RedisProcess() throws IOException {
		this.executable = find("redis-server");
		this.directory = Files.createTempDirectory("redis-bench");
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			this.port = socket.getLocalPort();
		}
	}

	int port() {
		return this.port;
	}

	/** Its own folder: its log, and a configuration file it is given. */
	Path directory() {
		return this.directory;
	}

	/**
	 * A configuration file read at the next starts before the arguments (a sentinel's, which
	 * it rewrites), and arguments added after the port and the rest.
	 */
	RedisProcess configured(Path configFile, String... arguments) {
		this.configFile = configFile;
		this.arguments = List.of(arguments);
		return this;
	}

	void start() throws IOException, InterruptedException {
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
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!answersPing()) {
			if (!this.process.isAlive() || System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("redis-server did not start on port " + this.port);
			}
			Thread.sleep(20);
		}
	}

	void kill() throws InterruptedException {
		if (this.process != null) {
			this.process.destroyForcibly();
			this.process.waitFor(10, TimeUnit.SECONDS);
			this.process = null;
		}
	}

	void pause() throws IOException, InterruptedException {
		signal("STOP");
	}

	void resume() throws IOException, InterruptedException {
		signal("CONT");
	}

	@Override
	public void close() throws Exception {
		kill();
		try (var files = Files.list(this.directory)) {
			for (Path file : files.toList()) {
				Files.deleteIfExists(file);
			}
		}
		Files.deleteIfExists(this.directory);
	}

	private void signal(String name) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(this.process.pid())).start();
		if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
			throw new IllegalStateException("Cannot send SIG" + name + " to redis-server");
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
			return new String(in.readNBytes(7), StandardCharsets.US_ASCII).equals("+PONG\r\n");
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * A Redis program on the {@code PATH}: {@code redis-server}, {@code redis-cli}.
	 */
	static Path find(String program) {
		for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			Path candidate = Path.of(directory, program);
			if (!directory.isEmpty() && Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		throw new IllegalStateException(program + " is not on the PATH (apt-get install -y redis-server redis-tools)");
	}

}
