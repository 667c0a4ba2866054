package dev.retryafter.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.json.BasicJsonParser;

/**
 * One instance of the sample app ({@code java -jar sample-app/target/sample-app-*.jar}) on a
 * free loopback port, its output in a log file, read from outside as a user or a monitoring
 * system would: its relay ({@code /relay/**}), its {@code /actuator/retryafter} endpoint and
 * its meters. Closing it stops the JVM (SIGTERM, then SIGKILL after 10 s).
 */
final class SampleAppProcess implements AutoCloseable {

	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);

	private final String name;

	private final Process process;

	private final int port;

	private final Path log;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private SampleAppProcess(String name, Process process, int port, Path log) {
		this.name = name;
		this.process = process;
		this.port = port;
		this.log = log;
	}

	/**
	 * Starts the jar with {@code --server.port} and the given arguments.
	 * @param name the instance's name in reports
	 * @param jar the sample app's jar
	 * @param arguments the application's arguments ({@code --name=value})
	 * @param log the file its output goes to
	 * @return the instance, starting
	 */
	static SampleAppProcess start(String name, Path jar, List<String> arguments, Path log) {
		int port = freePort();
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-jar", jar.toString(), "--server.port=" + port));
		command.addAll(arguments);
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
			return new SampleAppProcess(name, process, port, log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start " + jar, ex);
		}
	}

	String name() {
		return this.name;
	}

	Path log() {
		return this.log;
	}

	/**
	 * Waits until the instance answers and its store says {@code connected}.
	 * @param timeout how long at most
	 */
	void awaitConnected(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException(this.name + " exited with " + this.process.exitValue() + "; see "
						+ this.log);
			}
			try {
				if (connected()) {
					return;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(this.name + " did not report its store connected within " + timeout
						+ "; see " + this.log);
			}
			Thread.sleep(200);
		}
	}

	/**
	 * Sends {@code GET /relay/<path>} with a tenant's {@code Authorization}.
	 * @param path the upstream path, without its leading slash
	 * @param authorization the tenant
	 * @return the relay's answer
	 */
	HttpResponse<String> relay(String path, String authorization) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(uri("/relay/" + path)).header("Authorization", authorization));
	}

	/**
	 * The {@code /actuator/retryafter} answer.
	 * @return its fields
	 */
	Map<String, Object> endpoint() throws IOException, InterruptedException {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/actuator/retryafter")));
		if (response.statusCode() != 200) {
			throw new IOException(this.name + ": /actuator/retryafter answered " + response.statusCode());
		}
		return new BasicJsonParser().parseMap(response.body());
	}

	/**
	 * The endpoint's {@code store.connected}.
	 * @return whether the instance says it shares cooldowns now
	 */
	boolean connected() throws IOException, InterruptedException {
		return connected(endpoint());
	}

	/**
	 * An endpoint answer's {@code store.connected}.
	 * @param endpoint the answer
	 * @return whether the instance said it shares cooldowns
	 */
	static boolean connected(Map<String, Object> endpoint) {
		// Spring Boot's basic parser gives every scalar as its text.
		return endpoint.get("store") instanceof Map<?, ?> store && "true".equals(String.valueOf(store.get("connected")));
	}

	/**
	 * The partitions (the first hex digits of their digests) of the origin's cooldowns that
	 * this instance holds now, as its endpoint lists them.
	 * @param origin the origin, {@code scheme://host:port}
	 * @return the partitions
	 */
	Set<String> partitions(String origin) throws IOException, InterruptedException {
		return partitions(endpoint(), origin);
	}

	/**
	 * The partitions of the origin's cooldowns an endpoint answer lists.
	 * @param endpoint the answer
	 * @param origin the origin, {@code scheme://host:port}
	 * @return the partitions
	 */
	static Set<String> partitions(Map<String, Object> endpoint, String origin) {
		Set<String> partitions = new HashSet<>();
		if (endpoint.get("cooldowns") instanceof List<?> cooldowns) {
			for (Object cooldown : cooldowns) {
				if (cooldown instanceof Map<?, ?> fields && origin.equals(fields.get("origin"))
						&& fields.get("partition") instanceof String partition) {
					partitions.add(partition);
				}
			}
		}
		return partitions;
	}

	/**
	 * A counter's value from {@code /actuator/metrics}, or 0 while it does not exist yet.
	 * @param meter the meter's name
	 * @return its value
	 */
	double counter(String meter) throws IOException, InterruptedException {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/actuator/metrics/" + meter)));
		if (response.statusCode() == 404) {
			return 0;
		}
		if (new BasicJsonParser().parseMap(response.body()).get("measurements") instanceof List<?> measurements
				&& !measurements.isEmpty() && measurements.get(0) instanceof Map<?, ?> first
				&& first.get("value") != null) {
			return Double.parseDouble(String.valueOf(first.get("value")));
		}
		throw new IOException(this.name + ": no value for " + meter + " in " + response.body());
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
				this.process.waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
		return this.http.send(request.timeout(REQUEST_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
