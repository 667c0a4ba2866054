package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An origin on 127.0.0.1 with a fixed-window quota: {@code limit} requests in each window of
 * {@code windowSeconds}, windows starting at whole multiples of it in Unix time (so that a
 * reset is a whole second, as most dialects write it). Every answer announces the quota in one
 * API's documented form; a request over the quota gets that API's refusal. It records when
 * each request arrived (wall clock, milliseconds) and how many it refused.
 */
final class DialectOrigin implements AutoCloseable {

	/** The APIs whose documented form the origin speaks. */
	enum Dialect {

		GITHUB, GITLAB, OPENAI, ANTHROPIC, DISCORD

	}

	private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter
		.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT)
		.withZone(ZoneOffset.UTC);

	private final HttpServer server;

	private final Dialect dialect;

	private final int limit;

	private final long windowMillis;

	private final List<Long> arrivals = new CopyOnWriteArrayList<>();

	private final List<Long> resets = new CopyOnWriteArrayList<>();

	private long window = -1;

	private int used;

	private int rejected;

	private DialectOrigin(HttpServer server, Dialect dialect, int limit, int windowSeconds) {
		this.server = server;
		this.dialect = dialect;
		this.limit = limit;
		this.windowMillis = windowSeconds * 1000L;
	}

	static DialectOrigin start(Dialect dialect, int limit, int windowSeconds) throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 50);
		DialectOrigin origin = new DialectOrigin(server, dialect, limit, windowSeconds);
		server.createContext("/", origin::answer);
		server.start();
		return origin;
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			long now = System.currentTimeMillis();
			int remaining;
			long resetAt;
			boolean refused;
			synchronized (this) {
				long current = now / this.windowMillis;
				if (current != this.window) {
					this.window = current;
					this.used = 0;
				}
				refused = this.used >= this.limit;
				if (refused) {
					this.rejected++;
				}
				else {
					this.used++;
				}
				remaining = this.limit - this.used;
				resetAt = (current + 1) * this.windowMillis;
				this.arrivals.add(now);
				this.resets.add(resetAt);
			}
			announce(exchange.getResponseHeaders(), remaining, resetAt, now);
			if (refused) {
				if (this.dialect != Dialect.GITHUB) {
					// GitHub's primary limit answers with the fields alone; the others add Retry-After.
					exchange.getResponseHeaders().add("Retry-After", Long.toString(ceilDiv(resetAt - now, 1000)));
				}
				exchange.sendResponseHeaders(429, -1);
			}
			else {
				exchange.sendResponseHeaders(200, -1);
			}
		}
	}

	private void announce(Headers headers, int remaining, long resetAt, long now) {
		long resetSeconds = resetAt / 1000;
		long resetInMillis = resetAt - now;
		switch (this.dialect) {
			case GITHUB -> {
				headers.add("x-ratelimit-limit", Integer.toString(this.limit));
				headers.add("x-ratelimit-remaining", Integer.toString(remaining));
				headers.add("x-ratelimit-used", Integer.toString(this.limit - remaining));
				headers.add("x-ratelimit-reset", Long.toString(resetSeconds));
				headers.add("x-ratelimit-resource", "core");
			}
			case GITLAB -> {
				headers.add("RateLimit-Limit", Integer.toString(this.limit));
				headers.add("RateLimit-Observed", Integer.toString(this.limit - remaining));
				headers.add("RateLimit-Remaining", Integer.toString(remaining));
				headers.add("RateLimit-Reset", Long.toString(resetSeconds));
				headers.add("RateLimit-ResetTime", HTTP_DATE.format(Instant.ofEpochSecond(resetSeconds)));
				headers.add("RateLimit-Name", "throttle_authenticated_api");
			}
			case OPENAI -> {
				headers.add("x-ratelimit-limit-requests", Integer.toString(this.limit));
				headers.add("x-ratelimit-remaining-requests", Integer.toString(remaining));
				headers.add("x-ratelimit-reset-requests", goDuration(resetInMillis));
				headers.add("x-ratelimit-limit-tokens", "150000");
				headers.add("x-ratelimit-remaining-tokens", "149000");
				headers.add("x-ratelimit-reset-tokens", "6m0s");
			}
			case ANTHROPIC -> {
				String reset = DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(resetSeconds));
				headers.add("anthropic-ratelimit-requests-limit", Integer.toString(this.limit));
				headers.add("anthropic-ratelimit-requests-remaining", Integer.toString(remaining));
				headers.add("anthropic-ratelimit-requests-reset", reset);
				headers.add("anthropic-ratelimit-tokens-limit", "80000");
				headers.add("anthropic-ratelimit-tokens-remaining", "79000");
				headers.add("anthropic-ratelimit-tokens-reset", reset);
			}
			case DISCORD -> {
				headers.add("X-RateLimit-Limit", Integer.toString(this.limit));
				headers.add("X-RateLimit-Remaining", Integer.toString(remaining));
				headers.add("X-RateLimit-Reset", resetSeconds + "." + String.format("%03d", resetAt % 1000));
				headers.add("X-RateLimit-Reset-After",
						(resetInMillis / 1000) + "." + String.format("%03d", resetInMillis % 1000));
				headers.add("X-RateLimit-Bucket", "abcd1234");
			}
		}
	}

	/** Milliseconds as Go prints a duration: {@code 734ms}, {@code 1.25s}. */
	private static String goDuration(long millis) {
		if (millis < 1000) {
			return millis + "ms";
		}
		String fraction = String.format("%03d", millis % 1000).replaceAll("0+$", "");
		return (millis / 1000) + (fraction.isEmpty() ? "" : "." + fraction) + "s";
	}

	private static long ceilDiv(long a, long b) {
		return -Math.floorDiv(-a, b);
	}

	/**
	 * Waits, if needed, until the current window has at least {@code millis} left, so that a
	 * run starts with a reset far enough away to tell a wait for it from none.
	 */
	void awaitWindowWithAtLeast(long millis) throws InterruptedException {
		long now = System.currentTimeMillis();
		long left = this.windowMillis - now % this.windowMillis;
		if (left < millis) {
			Thread.sleep(left + 5);
		}
	}

	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + path);
	}

	/** When each request arrived, wall-clock milliseconds, in order. */
	List<Long> arrivals() {
		return List.copyOf(this.arrivals);
	}

	/** The reset each request's answer announced, wall-clock milliseconds, in order. */
	List<Long> resets() {
		return List.copyOf(this.resets);
	}

	synchronized int rejected() {
		return this.rejected;
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

}
