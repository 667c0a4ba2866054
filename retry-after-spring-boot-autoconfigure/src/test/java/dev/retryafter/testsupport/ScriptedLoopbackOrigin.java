package dev.retryafter.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A real HTTP origin on 127.0.0.1 and a random port that answers from a script: the n-th
 * request gets the n-th scripted response, and every request after the script's end gets its
 * last response. Records every request's method and path.
 */
public final class ScriptedLoopbackOrigin implements AutoCloseable {

	private final HttpServer server;

	private final List<Reply> script;

	private final List<String> requests = new ArrayList<>();

	private ScriptedLoopbackOrigin(List<Reply> script) {
		if (script.isEmpty()) {
			throw new IllegalArgumentException("script must not be empty");
		}
		this.script = List.copyOf(script);
		try {
			this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	/**
	 * Starts an origin answering with {@code replies}, in order, repeating the last.
	 * @param replies the scripted replies
	 * @return the running origin
	 */
	public static ScriptedLoopbackOrigin answering(Reply... replies) {
		return new ScriptedLoopbackOrigin(List.of(replies));
	}

	/**
	 * The absolute URL of {@code path} on this origin.
	 * @param path a path starting with {@code /}
	 * @return the URL
	 */
	public String url(String path) {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + path;
	}

	/**
	 * Requests received so far, as {@code METHOD path}.
	 * @return the requests, in order
	 */
	public synchronized List<String> requests() {
		return List.copyOf(this.requests);
	}

	/**
	 * Number of requests received so far.
	 * @return the count
	 */
	public synchronized int requestCount() {
		return this.requests.size();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange; InputStream body = exchange.getRequestBody()) {
			body.readAllBytes();
			Reply reply;
			synchronized (this) {
				this.requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
				reply = this.script.get(Math.min(this.requests.size(), this.script.size()) - 1);
			}
			reply.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
			byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(reply.status(), (bytes.length == 0) ? -1 : bytes.length);
			if (bytes.length > 0) {
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(bytes);
				}
			}
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	/**
	 * One scripted response.
	 *
	 * @param status the status code
	 * @param headers response headers
	 * @param body the body, empty for none
	 */
	public record Reply(int status, Map<String, String> headers, String body) {

		/**
		 * A response with a {@code Retry-After} header and no body.
		 * @param status the status code
		 * @param retryAfter the header value
		 * @return the reply
		 */
		public static Reply retryAfter(int status, String retryAfter) {
			return new Reply(status, Map.of("Retry-After", retryAfter), "");
		}

		/**
		 * A response with a plain-text body.
		 * @param status the status code
		 * @param body the body
		 * @return the reply
		 */
		public static Reply text(int status, String body) {
			return new Reply(status, Map.of("Content-Type", "text/plain"), body);
		}

	}

}
