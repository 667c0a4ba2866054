package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An origin on 127.0.0.1 that rate-limits one tenant: a request whose {@code Authorization}
 * is {@code Bearer token-a}, or that has none, gets {@code 429} with {@code Retry-After}, every
 * other one {@code 200}. It records the {@code Authorization} of each request it received.
 */
final class TenantOrigin implements AutoCloseable {

	static final String TOKEN_A = "token-a";

	static final String TOKEN_B = "token-b";

	private final HttpServer server;

	private final String retryAfter;

	private final List<String> received = new CopyOnWriteArrayList<>();

	private TenantOrigin(HttpServer server, String retryAfter) {
		this.server = server;
		this.retryAfter = retryAfter;
	}

	/**
	 * Starts an origin on an ephemeral port of 127.0.0.1.
	 * @param retryAfter the {@code Retry-After} of tenant A's {@code 429}
	 * @return the running origin
	 */
	static TenantOrigin start(String retryAfter) throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 50);
		TenantOrigin origin = new TenantOrigin(server, retryAfter);
		server.createContext("/", origin::answer);
		server.start();
		return origin;
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			String authorization = exchange.getRequestHeaders().getFirst("Authorization");
			this.received.add(String.valueOf(authorization));
			if (authorization == null || ("Bearer " + TOKEN_A).equals(authorization)) {
				exchange.getResponseHeaders().add("Retry-After", this.retryAfter);
				exchange.sendResponseHeaders(429, -1);
			}
			else {
				exchange.sendResponseHeaders(200, -1);
			}
		}
	}

	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + path);
	}

	/** The {@code Authorization} of every request received, in order ({@code "null"} without one). */
	List<String> received() {
		return List.copyOf(this.received);
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

}
