package dev.retryafter.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

import com.sun.net.httpserver.HttpExchange;

/**
 * An origin that answers each caller's first request with {@code 503} (or another status) and
 * {@code Retry-After: <seconds>}, all at the same moment (it holds the first requests until
 * the whole herd is in), and every later request with {@code 200}. It records, on the
 * monotonic clock, when each {@code 503} left and when each retry arrived.
 */
final class HerdOrigin implements AutoCloseable {

	private static final byte[] OK = "ok".getBytes(StandardCharsets.UTF_8);

	private final int status;

	private final int retryAfterSeconds;

	private final long holdTimeoutNanos;

	private final CountDownLatch herdIn;

	private final AtomicIntegerArray requests;

	private final long[] rejectedAt;

	private final ConcurrentLinkedQueue<long[]> retries = new ConcurrentLinkedQueue<>();

	private final LoopbackServer server;

	HerdOrigin(int callers, int retryAfterSeconds, long holdTimeoutMillis) {
		this(callers, 503, retryAfterSeconds, holdTimeoutMillis);
	}

	/** The same herd, first answered with {@code status} (e.g. {@code 429}) instead of 503. */
	HerdOrigin(int callers, int status, int retryAfterSeconds, long holdTimeoutMillis) {
		this.status = status;
		this.retryAfterSeconds = retryAfterSeconds;
		this.holdTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(holdTimeoutMillis);
		this.herdIn = new CountDownLatch(callers);
		this.requests = new AtomicIntegerArray(callers);
		this.rejectedAt = new long[callers];
		this.server = new LoopbackServer(this::handle);
	}

	URI uri(int caller) {
		return this.server.uri("/herd/" + caller);
	}

	private void handle(HttpExchange exchange) throws IOException {
		long arrived = System.nanoTime();
		try (exchange) {
			String path = exchange.getRequestURI().getPath();
			int caller = Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
			exchange.getRequestBody().readAllBytes();
			if (this.requests.getAndIncrement(caller) == 0) {
				this.herdIn.countDown();
				awaitHerd();
				exchange.getResponseHeaders().set("Retry-After", Integer.toString(this.retryAfterSeconds));
				long sent = System.nanoTime();
				synchronized (this.rejectedAt) {
					this.rejectedAt[caller] = sent;
				}
				exchange.sendResponseHeaders(this.status, -1);
			}
			else {
				this.retries.add(new long[] { caller, arrived });
				exchange.sendResponseHeaders(200, OK.length);
				try (OutputStream body = exchange.getResponseBody()) {
					body.write(OK);
				}
			}
		}
	}

	private void awaitHerd() {
		try {
			this.herdIn.await(this.holdTimeoutNanos, TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** When each caller's 503 left (0 for a caller whose first request never came). */
	long[] rejectedAt() {
		synchronized (this.rejectedAt) {
			return this.rejectedAt.clone();
		}
	}

	/** Every retry: {caller, arrival nanos}. */
	long[][] retries() {
		return this.retries.toArray(new long[0][]);
	}

	int retryAfterSeconds() {
		return this.retryAfterSeconds;
	}

	@Override
	public void close() {
		this.server.close();
	}

}
