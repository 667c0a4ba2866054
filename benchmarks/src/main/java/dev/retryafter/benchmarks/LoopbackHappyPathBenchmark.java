package dev.retryafter.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.retryafter.client.SentRequestFactory;
import dev.retryafter.client.TransportHops;
import dev.retryafter.store.CooldownStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.net.URIAuthority;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * What a request that succeeds at once pays for the starter over a real HTTP exchange: a
 * {@link RestClient} GET to the JDK's HTTP server on 127.0.0.1, answered {@code 200} with a
 * small body, through (a) no interceptor, (b) a pass-through interceptor and (c) the starter's
 * interceptor as Spring Boot sets it up, on Apache HttpClient 5 and on the JDK's
 * {@link HttpClient}; and, reported beside them, on an in-memory transport.
 * <p>
 * (c) gets what the starter adds to an application: its interceptor from its
 * auto-configuration with the default settings and meters ({@link StarterContext}), and the
 * request factory as its customizers leave Boot's: wrapped in a {@link SentRequestFactory}
 * and, on HttpClient 5, with the hop reporter ({@link TransportHops}) and HttpClient's own
 * retries off. (a) and (b) get the same transport without those. On HttpClient 5 every
 * client has a connection pool of its own; the JDK's client is one per JVM.
 * <p>
 * With {@code fields} other than {@code none}, every response announces a quota far from
 * spent, so the starter reads and records the fields of every response and paces the origin
 * (whose slots are then closer together than a loopback exchange takes, so nothing waits):
 * the cost of looking at every response is included, whatever sampling a version may do.
 * {@code remaining} and {@code window} set that quota.
 * <p>
 * Run: {@code java -jar benchmarks/target/benchmarks.jar LoopbackHappyPathBenchmark -f 1 -wi 3
 * -i 5 -w 1s -r 2s}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LoopbackHappyPathBenchmark {

	private static final byte[] BODY = "{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8);

	/**
	 * (a) {@code bare}: no interceptor, (b) {@code pass-through}: one interceptor that only
	 * calls {@code execution.execute}, (c) {@code ours}: the starter's interceptor and request
	 * factory, default settings, with meters. Two more split (c) for the harness:
	 * {@code ours-unread}, (c) with {@code retry-after.rate-limit.enabled=false}, and
	 * {@code ours-plain}, the starter's interceptor on (a)'s transport (no
	 * {@link SentRequestFactory}, no hop reporter). A parameter rather than three methods, so that
	 * JMH runs the three one after another for each transport and fields, and the ratios
	 * compare runs minutes apart at most on a shared machine.
	 */
	@Param({ "bare", "pass-through", "ours" })
	public String variant;

	/**
	 * {@code hc5}: Apache HttpClient 5 classic, pooled; {@code jdk}: the JDK's client;
	 * {@code memory}: no network, {@link InMemoryRequestFactory} (reported beside the others,
	 * for what the client stack and the interceptors cost without an exchange).
	 */
	@Param({ "hc5", "jdk", "memory" })
	public String transport;

	/**
	 * The quota fields on every response: {@code none}, {@code ietf} ({@code RateLimit} and
	 * {@code RateLimit-Policy}) or {@code x-ratelimit} (GitHub's form, the reset as a Unix
	 * time).
	 */
	@Param({ "none", "ietf", "x-ratelimit" })
	public String fields;

	/** The requests the origin says remain, on every response. */
	@Param("1000000000")
	public long remaining;

	/** Seconds until the quota resets, and its window. */
	@Param("60")
	public long window;

	private final List<AutoCloseable> resources = new ArrayList<>();

	/**
	 * The origin: started by {@link #setUp} unless a harness that runs several variants in one
	 * JVM set it to one they share (then it closes it).
	 */
	LoopbackServer origin;

	/** The JDK client: as {@link #origin}, shared when set before {@link #setUp}. */
	HttpClient jdkClient;

	private URI uri;

	private RestClient client;

	private StarterContext starter;

	/**
	 * Starts the origin and builds the variant's client once. For (c) it then checks that the
	 * starter read the quota when the origin announces one: otherwise (c) would not measure
	 * what it says.
	 */
	@Setup
	public void setUp() {
		if ("memory".equals(this.transport)) {
			this.uri = HappyPathClients.URI_;
		}
		else {
			if (this.origin == null) {
				this.origin = new LoopbackServer(this::answer);
				this.resources.add(this.origin);
			}
			this.uri = this.origin.uri("/items/42");
		}
		this.client = switch (this.variant) {
			case "bare" -> RestClient.builder().requestFactory(transport(false)).build();
			case "pass-through" -> RestClient.builder()
				.requestFactory(transport(false))
				.requestInterceptor(new NoOpInterceptor())
				.build();
			case "ours" -> ours();
			case "ours-unread" -> ours(Map.of("rate-limit.enabled", "false"), true);
			case "ours-plain" -> ours(Map.of(), false);
			default -> throw new IllegalArgumentException("Unknown variant '" + this.variant + "'");
		};
		// The same first calls for every variant: ours needs them to have read the fields.
		for (int i = 0; i < 200; i++) {
			get(this.client);
		}
		if ("ours".equals(this.variant)) {
			boolean paced = !this.starter.bean(CooldownStore.class).protection().quotas().isEmpty();
			if (paced != !"none".equals(this.fields)) {
				throw new IllegalStateException("fields=" + this.fields + " but the origin's quota is "
						+ (paced ? "" : "not ") + "kept");
			}
		}
	}

	private RestClient ours() {
		return ours(Map.of(), true);
	}

	/**
	 * The starter's interceptor with these properties, on the transport as its customizers
	 * leave it ({@code decorated}) or on the bare one.
	 */
	private RestClient ours(Map<String, String> properties, boolean decorated) {
		this.starter = StarterContext.start(properties, new SimpleMeterRegistry());
		this.resources.add(this.starter);
		// A version that looks at a sampled share of successes reads the fields within the
		// first calls of setUp too.
		return RestClient.builder()
			.requestFactory(decorated ? new SentRequestFactory(transport(true)) : transport(false))
			.requestInterceptor(this.starter.interceptor())
			.build();
	}

	/**
	 * Closes the clients' connection pools, the starter's context and the origin.
	 * @throws Exception if a resource fails to close
	 */
	@TearDown
	public void tearDown() throws Exception {
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
		this.resources.clear();
	}

	/**
	 * One call through the {@code client} variant.
	 * @return the body, consumed by JMH
	 */
	@Benchmark
	public String call() {
		return get(this.client);
	}

	private String get(RestClient client) {
		return client.get().uri(this.uri).retrieve().body(String.class);
	}

	/**
	 * Answers {@code 200} with the small body and this state's quota fields.
	 * @param exchange the exchange
	 * @throws IOException if the client went away
	 */
	void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().transferTo(OutputStream.nullOutputStream());
			Headers headers = exchange.getResponseHeaders();
			headers.set("Content-Type", "application/json");
			fieldHeaders().forEach(headers::set);
			exchange.sendResponseHeaders(200, BODY.length);
			exchange.getResponseBody().write(BODY);
		}
	}

	/**
	 * The quota fields of a response sent now, by name.
	 */
	private Map<String, String> fieldHeaders() {
		String remaining = Long.toString(this.remaining);
		return switch (this.fields) {
			case "none" -> Map.of();
			case "ietf" -> Map.of("RateLimit-Policy", "\"default\";q=" + remaining + ";w=" + this.window, "RateLimit",
					"\"default\";r=" + remaining + ";t=" + this.window);
			case "x-ratelimit" -> Map.of("X-RateLimit-Limit", remaining, "X-RateLimit-Remaining", remaining,
					"X-RateLimit-Reset", Long.toString(System.currentTimeMillis() / 1000 + this.window));
			default -> throw new IllegalArgumentException("Unknown fields '" + this.fields + "'");
		};
	}

	/**
	 * The transport of one client, with a pool of its own. The starter's variant gets what its
	 * customizers add to the factories Spring Boot builds.
	 */
	private ClientHttpRequestFactory transport(boolean starter) {
		return switch (this.transport) {
			case "hc5" -> new HttpComponentsClientHttpRequestFactory(httpClient5(starter));
			case "jdk" -> new JdkClientHttpRequestFactory(jdkClient());
			// The same fields on every response; a reset as a Unix time, from setUp.
			case "memory" -> new InMemoryRequestFactory(fieldHeaders());
			default -> throw new IllegalArgumentException("Unknown transport '" + this.transport + "'");
		};
	}

	private HttpClient jdkClient() {
		// The starter adds nothing to the JDK's client: one per JVM, as an application has.
		if (this.jdkClient == null) {
			this.jdkClient = HttpClient.newHttpClient();
		}
		return this.jdkClient;
	}

	private CloseableHttpClient httpClient5(boolean starter) {
		// Retries off for all: on a 200 they cost nothing, and Boot turns them off with the starter.
		HttpClientBuilder builder = HttpClients.custom().disableAutomaticRetries();
		if (starter) {
			builder.addRequestInterceptorLast((request, entity, context) -> {
				URIAuthority authority = request.getAuthority();
				if (authority != null) {
					TransportHops.hop(request.getScheme(), authority.getHostName(), authority.getPort());
				}
			});
		}
		CloseableHttpClient httpClient = builder.build();
		this.resources.add(httpClient);
		return httpClient;
	}

}
