package dev.retryafter.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import com.sun.net.httpserver.HttpExchange;

/**
 * A load balancer in front of {@code backends} backends, one of them sick. Requests go round
 * the backends in arrival order, so every {@code backends}-th request reaches the sick one and
 * gets {@code 503} with {@code Retry-After}, at once; the others get {@code 200} after the
 * healthy backends' latency. It records which calls received a {@code 503}.
 */
final class SickBackendOrigin implements AutoCloseable {

	private static final byte[] OK = "ok".getBytes(StandardCharsets.UTF_8);

	private final int backends;

	private final int retryAfterSeconds;

	private final long latencyMillis;

	private final AtomicInteger requests = new AtomicInteger();

	private final AtomicInteger rejected = new AtomicInteger();

	private final AtomicIntegerArray rejectedCalls;

	private final LoopbackServer server;

	SickBackendOrigin(int calls, int backends, int retryAfterSeconds, long latencyMillis) {
		this.backends = backends;
		this.retryAfterSeconds = retryAfterSeconds;
		this.latencyMillis = latencyMillis;
		this.rejectedCalls = new AtomicIntegerArray(calls);
		this.server = new LoopbackServer(this::handle);
	}

	URI uri(int call) {
		return this.server.uri("/lb/" + call);
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getPath();
			int call = Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
			exchange.getRequestBody().readAllBytes();
			if (this.requests.incrementAndGet() % this.backends == 0) {
				this.rejected.incrementAndGet();
				this.rejectedCalls.incrementAndGet(call);
				exchange.getResponseHeaders().set("Retry-After", Integer.toString(this.retryAfterSeconds));
				exchange.sendResponseHeaders(503, -1);
				return;
			}
			sleep(this.latencyMillis);
			exchange.sendResponseHeaders(200, OK.length);
			try (OutputStream body = exchange.getResponseBody()) {
				body.write(OK);
			}
		}
	}

	private static void sleep(long millis) {
		try {
			TimeUnit.MILLISECONDS.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Whether call {@code call} received a {@code 503} from the sick backend. */
	boolean sawSickBackend(int call) {
		return this.rejectedCalls.get(call) > 0;
	}

	int requests() {
		return this.requests.get();
	}

	int rejected() {
		return this.rejected.get();
	}

	@Override
	public void close() {
		this.server.close();
	}

}
