package dev.retryafter.benchmarks;

import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;

/**
 * An origin on 127.0.0.1 with a fixed-window quota: {@code limit} requests in each window of
 * {@code windowSeconds}, windows starting at whole multiples of it in Unix time, so that a
 * reset is a whole second, as most dialects write it. Every answer, {@code 200} and refusal
 * alike, announces the quota in one API's documented form ({@link Dialect}); a request over
 * the quota gets that API's refusal. Requests are answered as they arrive: nothing holds or
 * lines up callers. The same origin as the autoconfigure module's {@code DialectOrigin} test
 * fixture, plus the IETF draft's form and GitHub's {@code 403}.
 */
final class DialectOrigin implements AutoCloseable {

	/** The APIs whose documented form the origin speaks, by command-line key. */
	enum Dialect {

		/** {@code RateLimit-Policy: "window";q=4;w=2}, {@code RateLimit: "window";r=..;t=..}. */
		IETF("ietf", "IETF draft", 429),

		/** {@code x-ratelimit-limit/-remaining/-used/-reset/-resource}; a spent quota: 429, fields alone. */
		GITHUB("github", "GitHub", 429),

		/** As {@link #GITHUB}, the spent quota answered {@code 403}, as GitHub also does. */
		GITHUB_403("github-403", "GitHub (403)", 403),

		/** Plain {@code RateLimit-Limit/-Remaining/-Reset/-ResetTime/-Observed/-Name}. */
		GITLAB("gitlab", "GitLab", 429),

		/** {@code x-ratelimit-*-requests} and {@code -tokens}, resets as Go durations. */
		OPENAI("openai", "OpenAI", 429),

		/** {@code anthropic-ratelimit-requests-*} and {@code -tokens-*}, RFC 3339 resets. */
		ANTHROPIC("anthropic", "Anthropic", 429),

		/** {@code X-RateLimit-*} with a decimal {@code -Reset}, {@code -Reset-After} and {@code -Bucket}. */
		DISCORD("discord", "Discord", 429),

		/** No quota fields: a spent window is answered {@code 429} with {@code Retry-After} alone. */
		NONE("none", "no quota fields", 429);

		final String key;

		final String label;

		final int refusal;

		Dialect(String key, String label, int refusal) {
			this.key = key;
			this.label = label;
			this.refusal = refusal;
		}

		static Dialect of(String key) {
			for (Dialect dialect : values()) {
				if (dialect.key.equals(key)) {
					return dialect;
				}
			}
			throw new IllegalArgumentException("Unknown dialect '" + key + "'");
		}

	}

	private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter
		.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ROOT)
		.withZone(ZoneOffset.UTC);

	private final LoopbackServer server;

	private final Dialect dialect;

	private final int limit;

	private final long windowMillis;

	private long window = -1;

	private int used;

	private int requests;

	private int rejected;

	// Per window since the first request: accepted/refused, in order, to see where refusals fall.
	private final java.util.TreeMap<Long, int[]> perWindow = new java.util.TreeMap<>();

	// When the first request arrived (wall clock, ms), or -1: a cold client's first requests
	// may reach only the window after the one its start fell in.
	private long firstArrivalMillis = -1;

	private long lastArrivalMillis = -1;

	DialectOrigin(Dialect dialect, int limit, int windowSeconds) {
		this.dialect = dialect;
		this.limit = limit;
		this.windowMillis = windowSeconds * 1000L;
		this.server = new LoopbackServer(this::answer);
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			long now;
			int remaining;
			long resetAt;
			boolean refused;
			synchronized (this) {
				// Read under the lock: a request whose clock was read before a window's end but
				// counted after another's in the next window went back to the window gone, and
				// started both counts again, so a window accepted more than its limit and
				// answered counts that rose.
				now = System.currentTimeMillis();
				long current = Math.max(now / this.windowMillis, this.window);
				if (current != this.window) {
					this.window = current;
					this.used = 0;
				}
				this.requests++;
				if (this.firstArrivalMillis < 0) {
					this.firstArrivalMillis = now;
				}
				this.lastArrivalMillis = now;
				refused = this.used >= this.limit;
				int[] counts = this.perWindow.computeIfAbsent(current, (key) -> new int[2]);
				counts[refused ? 1 : 0]++;
				if (refused) {
					this.rejected++;
				}
				else {
					this.used++;
				}
				remaining = this.limit - this.used;
				resetAt = (current + 1) * this.windowMillis;
			}
			announce(exchange.getResponseHeaders(), remaining, resetAt, now);
			if (refused) {
				if (this.dialect != Dialect.GITHUB && this.dialect != Dialect.GITHUB_403) {
					// GitHub's primary limit answers with the fields alone; the others add Retry-After.
					exchange.getResponseHeaders().add("Retry-After", Long.toString(ceilDiv(resetAt - now, 1000)));
				}
				exchange.sendResponseHeaders(this.dialect.refusal, -1);
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
			case IETF -> {
				// t is an Integer: rounded up, so that it never names a reset earlier than the window's.
				headers.add("RateLimit-Policy", "\"window\";q=" + this.limit + ";w=" + (this.windowMillis / 1000));
				headers.add("RateLimit", "\"window\";r=" + remaining + ";t=" + ceilDiv(resetInMillis, 1000));
			}
			case GITHUB, GITHUB_403 -> {
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
			case NONE -> {
				// Says nothing until it refuses: only the learned pace can spare its 429s.
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
	 * The least time, from {@code startMillis}, until {@code calls}
	 * requests can all have been accepted, the first window's allowance unspent at the start.
	 * @param calls how many requests
	 * @param startMillis wall-clock start, milliseconds
	 * @return seconds
	 */
	double earliestSeconds(int calls, long startMillis) {
		long windows = (calls + this.limit - 1) / this.limit;
		long lastWindowStart = (startMillis / this.windowMillis + windows - 1) * this.windowMillis;
		return Math.max(0, lastWindowStart - startMillis) / 1000.0;
	}

	/**
	 * When the first request arrived, wall clock.
	 * @return milliseconds, or -1 before any
	 */
	synchronized long firstArrivalMillis() {
		return this.firstArrivalMillis;
	}

	/**
	 * When the last request arrived, wall clock.
	 * @return milliseconds, or -1 before any
	 */
	synchronized long lastArrivalMillis() {
		return this.lastArrivalMillis;
	}

	URI uri(int call) {
		return this.server.uri("/items/" + call);
	}

	synchronized int requests() {
		return this.requests;
	}

	/**
	 * Accepted/refused per window, windows in order from the first request's, those nothing
	 * reached included: {@code 20/3 0/0 20/0 ...}.
	 */
	synchronized String perWindow() {
		StringBuilder line = new StringBuilder();
		if (this.perWindow.isEmpty()) {
			return "";
		}
		// A window nothing reached is shown too: a fleet that waited one out has lost it.
		for (long window = this.perWindow.firstKey(); window <= this.perWindow.lastKey(); window++) {
			int[] counts = this.perWindow.getOrDefault(window, new int[2]);
			line.append((line.length() > 0) ? " " : "").append(counts[0]).append('/').append(counts[1]);
		}
		return line.toString();
	}

	synchronized int rejected() {
		return this.rejected;
	}

	@Override
	public void close() {
		this.server.close();
	}

}
