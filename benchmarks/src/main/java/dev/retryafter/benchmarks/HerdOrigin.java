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
 * An origin that answers each caller's first request with {@code status} (503 or 429) and
 * {@code Retry-After: <seconds>}, and every later request with {@code 200}. It records, on the
 * monotonic clock, when each rejection left and when every request arrived.
 *
 * <p>
 * {@link Arrival#UNSYNCHRONISED} (the default of the herd benchmark) answers each first
 * request as it arrives, as a real origin does: callers that start together still reach it
 * a few milliseconds apart. {@link Arrival#SYNCHRONISED} holds the first requests until the
 * whole herd is in and answers them all at once: a laboratory herd, kept for comparison with
 * earlier results. Holding every first request also means no caller can learn of the
 * rejection before all have sent, which hides what a client does with requests that start
 * while another one's rejection is known.
 */
final class HerdOrigin implements AutoCloseable {

	private static final byte[] OK = "ok".getBytes(StandardCharsets.UTF_8);

	/**
	 * How the herd's first requests are answered.
	 */
	enum Arrival {

		/** Each first request is answered as it arrives. */
		UNSYNCHRONISED("unsync"),

		/** First requests are held until the whole herd is in, then answered together. */
		SYNCHRONISED("sync");

		private final String key;

		Arrival(String key) {
			this.key = key;
		}

		String key() {
			return this.key;
		}

		static Arrival of(String key) {
			for (Arrival arrival : values()) {
				if (arrival.key.equals(key)) {
					return arrival;
				}
			}
			throw new IllegalArgumentException("Unknown arrival '" + key + "', known: unsync, sync");
		}

	}

	private final int status;

	private final int retryAfterSeconds;

	private final Arrival arrival;

	private final long holdTimeoutNanos;

	private final CountDownLatch herdIn;

	private final AtomicIntegerArray requests;

	private final long[] rejectedAt;

	private final long[] firstArrivedAt;

	private final ConcurrentLinkedQueue<long[]> later = new ConcurrentLinkedQueue<>();

	private final LoopbackServer server;

	HerdOrigin(int callers, int status, int retryAfterSeconds, Arrival arrival, long holdTimeoutMillis) {
		this.status = status;
		this.retryAfterSeconds = retryAfterSeconds;
		this.arrival = arrival;
		this.holdTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(holdTimeoutMillis);
		this.herdIn = new CountDownLatch(callers);
		this.requests = new AtomicIntegerArray(callers);
		this.rejectedAt = new long[callers];
		this.firstArrivedAt = new long[callers];
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
				if (this.arrival == Arrival.SYNCHRONISED) {
					this.herdIn.countDown();
					awaitHerd();
				}
				exchange.getResponseHeaders().set("Retry-After", Integer.toString(this.retryAfterSeconds));
				long sent = System.nanoTime();
				synchronized (this.rejectedAt) {
					this.firstArrivedAt[caller] = arrived;
					this.rejectedAt[caller] = sent;
				}
				exchange.sendResponseHeaders(this.status, -1);
			}
			else {
				this.later.add(new long[] { caller, arrived });
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

	/** When each caller's rejection left (0 for a caller whose first request never came). */
	long[] rejectedAt() {
		synchronized (this.rejectedAt) {
			return this.rejectedAt.clone();
		}
	}

	/** When each caller's first request arrived (0 for a caller whose first request never came). */
	long[] firstArrivedAt() {
		synchronized (this.rejectedAt) {
			return this.firstArrivedAt.clone();
		}
	}

	/** Every request after a caller's first, that is every retry: {caller, arrival nanos}. */
	long[][] retries() {
		return this.later.toArray(new long[0][]);
	}

	/** Requests received from each caller. */
	int[] requestsPerCaller() {
		int[] counts = new int[this.requests.length()];
		for (int i = 0; i < counts.length; i++) {
			counts[i] = this.requests.get(i);
		}
		return counts;
	}

	int status() {
		return this.status;
	}

	int retryAfterSeconds() {
		return this.retryAfterSeconds;
	}

	@Override
	public void close() {
		this.server.close();
	}

}
