package dev.retryafter.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;

/**
 * One origin serving two tenants, told apart by their {@code Authorization} header. Tenant A
 * is rate-limited (a token bucket; beyond it {@code 429} with a fixed {@code Retry-After}, at
 * once); every other request gets {@code 200} after the origin's latency.
 */
final class TenantOrigin implements AutoCloseable {

	/** The {@code Authorization} value of the rate-limited tenant. */
	static final String TENANT_A = "Bearer tenant-a";

	/** The {@code Authorization} value of the other tenant. */
	static final String TENANT_B = "Bearer tenant-b";

	private static final byte[] OK = "ok".getBytes(StandardCharsets.UTF_8);

	private final double tokensPerNano;

	private final double burst;

	private final int retryAfterSeconds;

	private final long latencyMillis;

	private double tokens;

	private long refilledAt;

	private final AtomicInteger requestsA = new AtomicInteger();

	private final AtomicInteger rejectedA = new AtomicInteger();

	private final AtomicInteger requestsB = new AtomicInteger();

	private final LoopbackServer server;

	TenantOrigin(int rateA, int burstA, int retryAfterSeconds, long latencyMillis) {
		this.tokensPerNano = rateA / 1e9;
		this.burst = burstA;
		this.tokens = burstA;
		this.retryAfterSeconds = retryAfterSeconds;
		this.latencyMillis = latencyMillis;
		this.refilledAt = System.nanoTime();
		this.server = new LoopbackServer(this::handle);
	}

	URI uri(int call) {
		return this.server.uri("/tenant/" + call);
	}

	private synchronized boolean takeTokenA() {
		long now = System.nanoTime();
		this.tokens = Math.min(this.burst, this.tokens + (now - this.refilledAt) * this.tokensPerNano);
		this.refilledAt = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return true;
		}
		return false;
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			if (TENANT_A.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
				this.requestsA.incrementAndGet();
				if (!takeTokenA()) {
					this.rejectedA.incrementAndGet();
					exchange.getResponseHeaders().set("Retry-After", Integer.toString(this.retryAfterSeconds));
					exchange.sendResponseHeaders(429, -1);
					return;
				}
			}
			else {
				this.requestsB.incrementAndGet();
			}
			try {
				TimeUnit.MILLISECONDS.sleep(this.latencyMillis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			exchange.sendResponseHeaders(200, OK.length);
			try (OutputStream body = exchange.getResponseBody()) {
				body.write(OK);
			}
		}
	}

	int requestsA() {
		return this.requestsA.get();
	}

	int rejectedA() {
		return this.rejectedA.get();
	}

	int requestsB() {
		return this.requestsB.get();
	}

	@Override
	public void close() {
		this.server.close();
	}

}
