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
 * <p>
 * It may also announce its quota on every response, {@code 200} and {@code 429} alike
 * ({@link Fields}): the whole tokens left as {@code r}, as the reset {@code t} the seconds
 * until the bucket is full again, rounded up (when it is full, the whole allowance is back,
 * which is what a reset promises), and the bucket as a policy of {@code q = burst} requests
 * per {@code w = ceil(burst / rate)} seconds. This is how the issue that set the 9.45 s
 * target describes the origin; an earlier version sent as {@code t} the time until the next
 * token, rounded down (always 0 at 50 per second), which no reset-based reader can be wrong
 * about.
 */
final class TokenBucketOrigin implements AutoCloseable {

	/** Which quota fields the origin sends. */
	enum Fields {

		/** None: only {@code Retry-After} on a {@code 429}. */
		NONE("none", "no quota fields"),

		/** {@code RateLimit-Policy} and {@code RateLimit}. */
		IETF("ietf", "`RateLimit-Policy` + `RateLimit`"),

		/** {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining}, {@code X-RateLimit-Reset}. */
		X_RATELIMIT("x-ratelimit", "`X-RateLimit-*`");

		final String key;

		final String label;

		Fields(String key, String label) {
			this.key = key;
			this.label = label;
		}

		static Fields of(String key) {
			for (Fields fields : values()) {
				if (fields.key.equals(key)) {
					return fields;
				}
			}
			throw new IllegalArgumentException("Unknown fields '" + key + "': none, ietf or x-ratelimit");
		}

	}

	private static final byte[] OK = "ok".getBytes(StandardCharsets.UTF_8);

	private final double tokensPerNano;

	private final double burst;

	private double tokens;

	private long refilledAt;

	private final AtomicInteger requests = new AtomicInteger();

	private final AtomicInteger rejected = new AtomicInteger();

	private final LoopbackServer server;

	private final Fields fields;

	private final String policy;

	private final int limit;

	private long firstArrivalMillis = -1;

	TokenBucketOrigin(int ratePerSecond, int burst) {
		this(ratePerSecond, burst, Fields.NONE);
	}

	TokenBucketOrigin(int ratePerSecond, int burst, Fields fields) {
		this.tokensPerNano = ratePerSecond / 1e9;
		this.burst = burst;
		this.tokens = burst;
		this.refilledAt = System.nanoTime();
		this.fields = fields;
		int window = Math.max(1, (burst + ratePerSecond - 1) / ratePerSecond);
		this.limit = burst;
		this.policy = "\"bucket\";q=" + this.limit + ";w=" + window;
		this.server = new LoopbackServer(this::handle);
	}

	/**
	 * When the first request arrived (wall clock, ms), or -1: a cold client's first calls
	 * reach the origin a few hundred milliseconds after its start.
	 */
	synchronized long firstArrivalMillis() {
		return this.firstArrivalMillis;
	}

	URI uri(int request) {
		return this.server.uri("/limited/" + request);
	}

	/**
	 * Takes a token if there is one.
	 * @param quota where the whole tokens left and the nanoseconds until the bucket is full
	 * again are written
	 * @return 0 when a token was taken, else the nanoseconds until the next one
	 */
	private synchronized long take(long[] quota) {
		long now = System.nanoTime();
		if (this.firstArrivalMillis < 0) {
			this.firstArrivalMillis = System.currentTimeMillis();
		}
		this.tokens = Math.min(this.burst, this.tokens + (now - this.refilledAt) * this.tokensPerNano);
		this.refilledAt = now;
		long wait = 0;
		if (this.tokens >= 1) {
			this.tokens -= 1;
		}
		else {
			wait = Math.max(1, (long) Math.ceil((1 - this.tokens) / this.tokensPerNano));
		}
		quota[0] = (long) Math.floor(this.tokens);
		quota[1] = (long) Math.ceil((this.burst - this.tokens) / this.tokensPerNano);
		return wait;
	}

	private void announce(HttpExchange exchange, long[] quota) {
		// Whole seconds, rounded up: the bucket is full again by then.
		long reset = (quota[1] + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1);
		switch (this.fields) {
			case IETF -> {
				exchange.getResponseHeaders().set("RateLimit-Policy", this.policy);
				exchange.getResponseHeaders().set("RateLimit", "\"bucket\";r=" + quota[0] + ";t=" + reset);
			}
			case X_RATELIMIT -> {
				exchange.getResponseHeaders().set("X-RateLimit-Limit", Integer.toString(this.limit));
				exchange.getResponseHeaders().set("X-RateLimit-Remaining", Long.toString(quota[0]));
				exchange.getResponseHeaders().set("X-RateLimit-Reset", Long.toString(reset));
			}
			default -> {
			}
		}
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			this.requests.incrementAndGet();
			long[] quota = new long[2];
			long wait = take(quota);
			announce(exchange, quota);
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
