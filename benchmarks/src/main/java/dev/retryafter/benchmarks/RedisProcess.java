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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} child process on a free loopback port, no persistence, that can be
 * killed (SIGKILL), paused (SIGSTOP), resumed (SIGCONT) and started again on the same port.
 */
final class RedisProcess implements AutoCloseable {

	private final Path executable;

	private final Path directory;

	private final int port;

	private Process process;

	RedisProcess() throws IOException {
		this.executable = find();
		this.directory = Files.createTempDirectory("redis-bench");
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			this.port = socket.getLocalPort();
		}
	}

	int port() {
		return this.port;
	}

	void start() throws IOException, InterruptedException {
		this.process = new ProcessBuilder(List.of(this.executable.toString(), "--port", Integer.toString(this.port),
				"--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.directory.toString()))
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

	private static Path find() {
		for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			Path candidate = Path.of(directory, "redis-server");
			if (!directory.isEmpty() && Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		throw new IllegalStateException("redis-server is not on the PATH (apt-get install -y redis-server)");
	}

}
