package dev.retryafter.sample;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;

/**
 * A loopback upstream that records every request it gets. {@code /busy} answers 429 with
 * {@code Retry-After: 0}, {@code /fail} answers 500, anything else 200; each with a
 * {@code text/plain} body naming the path.
 */
final class RecordingUpstream implements AutoCloseable {

	private final HttpServer server;

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private final List<List<String>> authorizations = new CopyOnWriteArrayList<>();

	private RecordingUpstream(HttpServer server) {
		this.server = server;
		server.createContext("/", this::handle);
		server.start();
	}

	static RecordingUpstream start() {
		try {
			return new RecordingUpstream(
					HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start the upstream on loopback", ex);
		}
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	List<Received> received() {
		return List.copyOf(this.received);
	}

	/**
	 * The {@code Authorization} values of each request received, in order; an empty list
	 * for a request without one.
	 */
	List<List<String>> authorizations() {
		return List.copyOf(this.authorizations);
	}

	void clear() {
		this.received.clear();
		this.authorizations.clear();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			byte[] body = exchange.getRequestBody().readAllBytes();
			String path = exchange.getRequestURI().getRawPath();
			this.received.add(new Received(exchange.getRequestMethod(), path, exchange.getRequestURI().getRawQuery(),
					exchange.getRequestHeaders().getFirst("Content-Type"),
					exchange.getRequestHeaders().getFirst("Idempotency-Key"),
					new String(body, StandardCharsets.UTF_8)));
			List<String> authorization = exchange.getRequestHeaders().get("Authorization");
			this.authorizations.add((authorization != null) ? List.copyOf(authorization) : List.of());
			int status = switch (path) {
				case "/busy" -> 429;
				case "/fail" -> 500;
				default -> 200;
			};
			if (status == 429) {
				exchange.getResponseHeaders().add("Retry-After", "0");
			}
			exchange.getResponseHeaders().add("Content-Type", "text/plain");
			exchange.getResponseHeaders().add("X-Upstream-Secret", "not-for-the-caller");
			byte[] answer = ("answer from " + path).getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(status, answer.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(answer);
			}
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	/**
	 * A request as the upstream saw it.
	 */
	record Received(String method, String rawPath, @Nullable String rawQuery, @Nullable String contentType,
			@Nullable String idempotencyKey, String body) {
	}

}
