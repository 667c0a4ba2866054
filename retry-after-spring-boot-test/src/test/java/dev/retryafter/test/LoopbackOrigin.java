package dev.retryafter.test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A real HTTP origin on 127.0.0.1 that answers each path with the replies queued for it, in
 * order (the last one again once the queue is down to it), and remembers the request lines.
 */
final class LoopbackOrigin implements AutoCloseable {

	private final HttpServer server;

	private final Map<String, Deque<Reply>> replies = new ConcurrentHashMap<>();

	private final List<String> requestLines = new ArrayList<>();

	private LoopbackOrigin(HttpServer server) {
		this.server = server;
	}

	static LoopbackOrigin start() throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		LoopbackOrigin origin = new LoopbackOrigin(server);
		server.createContext("/", origin::answer);
		server.start();
		return origin;
	}

	LoopbackOrigin on(String path, Reply... replies) {
		this.replies.put(path, new ArrayDeque<>(List.of(replies)));
		return this;
	}

	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + path);
	}

	synchronized List<String> requestLines() {
		return List.copyOf(this.requestLines);
	}

	private void answer(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath();
		synchronized (this) {
			this.requestLines.add(exchange.getRequestMethod() + " " + path);
		}
		exchange.getRequestBody().readAllBytes();
		Deque<Reply> queue = this.replies.get(path);
		Reply reply;
		synchronized (this) {
			reply = (queue == null) ? new Reply(404, Map.of(), "")
					: (queue.size() > 1) ? queue.removeFirst() : queue.getFirst();
		}
		reply.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
		byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
		exchange.sendResponseHeaders(reply.status(), (body.length == 0) ? -1 : body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	/** One answer: a status, its headers and a text body. */
	record Reply(int status, Map<String, String> headers, String body) {

		static Reply tooManyRequests(String retryAfter) {
			return new Reply(429, Map.of("Retry-After", retryAfter), "");
		}

		static Reply ok(String body) {
			return new Reply(200, Map.of("Content-Type", "text/plain"), body);
		}

	}

}
