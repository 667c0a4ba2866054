package dev.retryafter.benchmarks;

import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

import dev.retryafter.client.BenchmarkInterceptors;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import org.apache.hc.client5.http.impl.classic.HttpClients;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The happy path over a real HTTP exchange: {@link HappyPathInterleaved}'s rounds against the
 * JDK server on 127.0.0.1, whose every answer is a {@code 200} with a short body and the
 * fields a typical API sends (none of them a quota field), so that the look at every
 * response for quota fields is paid in full. Per transport (Apache HttpClient 5, then the
 * JDK's), side by side in one run: (a) no interceptor, (b) a pass-through interceptor, the
 * reference, and (c) the retry interceptor with the defaults (every quota dialect read).
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.HappyPathLoopback}
 * with the options of {@link HappyPathInterleaved}; {@code --rounds=30 --warmup-rounds=10
 * --batch=1000} takes about a minute.
 */
public final class HappyPathLoopback {

	private static final byte[] BODY = "{\"id\":42,\"name\":\"item\"}".getBytes(StandardCharsets.UTF_8);

	private HappyPathLoopback() {
	}

	/**
	 * Runs the rounds, HttpClient 5 first.
	 * @param args see {@link HappyPathInterleaved}
	 */
	public static void main(String[] args) {
		try (LoopbackServer origin = new LoopbackServer((exchange) -> {
			try (exchange) {
				exchange.getRequestBody().readAllBytes();
				exchange.getResponseHeaders().add("Content-Type", "application/json");
				exchange.getResponseHeaders().add("Cache-Control", "no-cache");
				exchange.getResponseHeaders().add("X-Request-Id", "6f1c2a9e-0b7d-4c55-9d1e-3a8f0c2b7e41");
				exchange.getResponseHeaders().add("Strict-Transport-Security", "max-age=31536000");
				exchange.sendResponseHeaders(200, BODY.length);
				try (OutputStream body = exchange.getResponseBody()) {
					body.write(BODY);
				}
			}
		})) {
			URI uri = origin.uri("/items/42");
			Function<RestClient, String> call = (client) -> client.get().uri(uri).retrieve().body(String.class);
			ClientSettingsCatalog defaults = ClientSettingsCatalog.of(RetrySettings.defaults());
			ClientHttpRequestFactory httpComponents = new HttpComponentsClientHttpRequestFactory(
					HttpClients.custom().disableAutomaticRetries().build());
			HappyPathInterleaved.run(args, clients(httpComponents, defaults), names("hc5"),
					"happy-path-loopback-hc5.md", call);
			// HTTP/1.1: the JDK client's default, HTTP/2, tries an h2c upgrade on plain http.
			ClientHttpRequestFactory jdk = new JdkClientHttpRequestFactory(
					HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());
			HappyPathInterleaved.run(args, clients(jdk, defaults), names("jdk"), "happy-path-loopback-jdk.md", call);
		}
	}

	private static List<RestClient> clients(ClientHttpRequestFactory transport, ClientSettingsCatalog defaults) {
		return List.of(RestClient.builder().requestFactory(transport).build(),
				RestClient.builder().requestFactory(transport).requestInterceptor(new NoOpInterceptor()).build(),
				RestClient.builder()
					.requestFactory(transport)
					.requestInterceptor(BenchmarkInterceptors.standalone(defaults, RetryListener.NONE))
					.build());
	}

	private static List<String> names(String transport) {
		return List.of("a_" + transport + "_noInterceptor", "b_" + transport + "_noOpInterceptor",
				"c_" + transport + "_retryAfterInterceptor");
	}

}
