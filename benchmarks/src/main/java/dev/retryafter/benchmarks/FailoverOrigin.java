package dev.retryafter.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.net.httpserver.HttpExchange;

/**
 * The origin of the Sentinel failover scenario ({@link SentinelFailover}): tenants told apart
 * by their {@code Authorization} header, each answered {@code 200}, except a tenant the run
 * has {@linkplain #rejectNext marked}, whose next request is answered
 * {@code 429 Retry-After: N}. Counts every request per tenant, so a request an instance
 * should have held and sent all the same shows here. Paths under {@code /quota/} answer
 * {@code 200} announcing a quota near its end ({@code RateLimit-Policy}/{@code RateLimit},
 * {@value #QUOTA_LEFT} left of {@value #QUOTA_LIMIT}), which every instance paces, taking
 * its slots from the fleet's schedule in Redis.
 */
final class FailoverOrigin implements AutoCloseable {

	/** Requests left in the window, below the floor under which an instance paces. */
	static final int QUOTA_LEFT = 20;

	/** The policy's requests per window. */
	static final int QUOTA_LIMIT = 100;

	private static final byte[] OK = "ok".getBytes(StandardCharsets.UTF_8);

	private final int retryAfterSeconds;

	private final Map<String, Integer> arrivals = new ConcurrentHashMap<>();

	private final Set<String> rejecting = ConcurrentHashMap.newKeySet();

	private final LoopbackServer server;

	FailoverOrigin(int retryAfterSeconds) {
		this.retryAfterSeconds = retryAfterSeconds;
		this.server = new LoopbackServer(this::handle);
	}

	/**
	 * The origin's root, as the instances' {@code sample.upstream-url}.
	 * @return the root
	 */
	URI root() {
		return this.server.uri("");
	}

	/**
	 * Answers the tenant's next request with {@code 429} and {@code Retry-After}.
	 * @param authorization the tenant's {@code Authorization} value
	 */
	void rejectNext(String authorization) {
		this.rejecting.add(authorization);
	}

	/**
	 * How many requests of a tenant arrived.
	 * @param authorization the tenant's {@code Authorization} value
	 * @return the count
	 */
	int arrivals(String authorization) {
		return this.arrivals.getOrDefault(authorization, 0);
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			String tenant = String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"));
			this.arrivals.merge(tenant, 1, Integer::sum);
			if (this.rejecting.remove(tenant)) {
				exchange.getResponseHeaders().set("Retry-After", Integer.toString(this.retryAfterSeconds));
				exchange.sendResponseHeaders(429, -1);
				return;
			}
			if (exchange.getRequestURI().getPath().startsWith("/quota/")) {
				exchange.getResponseHeaders().set("RateLimit-Policy", "\"fleet\";q=" + QUOTA_LIMIT + ";w=60");
				exchange.getResponseHeaders().set("RateLimit", "\"fleet\";r=" + QUOTA_LEFT + ";t=10");
			}
			exchange.sendResponseHeaders(200, OK.length);
			try (OutputStream body = exchange.getResponseBody()) {
				body.write(OK);
			}
		}
	}

	@Override
	public void close() {
		this.server.close();
	}

}
