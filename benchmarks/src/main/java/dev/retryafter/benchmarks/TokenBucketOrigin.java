package dev.retryafter.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;

/**
 * A rate-limited origin: a token bucket ({@code rate} tokens per second, at most
 * {@code burst}, full at start). A request that finds a token gets {@code 200}; one that does
 * not gets {@code 429} with {@code Retry-After} set to the seconds until the next token, rounded
 * up.
 */
final class TokenBucketOrigin implements AutoCloseable {

	private static final byte[] OK = "ok".getBytes(StandardCharsets.UTF_8);

	private final double tokensPerNano;

	private final double burst;

	private double tokens;

	private long refilledAt;

	private final AtomicInteger requests = new AtomicInteger();

	private final AtomicInteger rejected = new AtomicInteger();

	private final LoopbackServer server;

	TokenBucketOrigin(int ratePerSecond, int burst) {
		this.tokensPerNano = ratePerSecond / 1e9;
		this.burst = burst;
		this.tokens = burst;
		this.refilledAt = System.nanoTime();
		this.server = new LoopbackServer(this::handle);
	}

	URI uri(int request) {
		return this.server.uri("/limited/" + request);
	}

	/**
	 * Takes a token if there is one.
	 * @return 0 when a token was taken, else the nanoseconds until the next one
	 */
	private synchronized long take() {
		long now = System.nanoTime();
		this.tokens = Math.min(this.burst, this.tokens + (now - this.refilledAt) * this.tokensPerNano);
		this.refilledAt = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return 0;
		}
		return Math.max(1, (long) Math.ceil((1 - this.tokens) / this.tokensPerNano));
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			this.requests.incrementAndGet();
			long wait = take();
			if (wait == 0) {
				exchange.sendResponseHeaders(200, OK.length);
				try (OutputStream body = exchange.getResponseBody()) {
					body.write(OK);
				}
			}
			else {
				this.rejected.incrementAndGet();
				long seconds = Math.max(1, (wait + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1));
				exchange.getResponseHeaders().set("Retry-After", Long.toString(seconds));
				exchange.sendResponseHeaders(429, -1);
			}
		}
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
