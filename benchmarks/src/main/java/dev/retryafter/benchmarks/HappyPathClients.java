package dev.retryafter.benchmarks;

import java.net.URI;
import java.util.List;

import dev.retryafter.client.BenchmarkInterceptors;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.metrics.RetryAfterMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.web.client.RestClient;

/**
 * The four {@link RestClient}s of the happy-path comparison, all on the in-memory transport:
 * (a) no interceptor, (b) a pass-through interceptor, (c) the retry interceptor with default
 * settings, (d) the same with its meters on a {@link SimpleMeterRegistry}.
 *
 * @param a no interceptor
 * @param b pass-through interceptor
 * @param c the retry interceptor
 * @param d the retry interceptor with meters
 */
record HappyPathClients(RestClient a, RestClient b, RestClient c, RestClient d) {

	static final URI URI_ = URI.create("http://origin.test/items/42");

	static final List<String> NAMES = List.of("a_noInterceptor", "b_noOpInterceptor", "c_retryAfterInterceptor",
			"d_retryAfterInterceptorWithMeters");

	static HappyPathClients create() {
		InMemoryRequestFactory transport = new InMemoryRequestFactory();
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(RetrySettings.defaults());
		return new HappyPathClients(RestClient.builder().requestFactory(transport).build(),
				RestClient.builder().requestFactory(transport).requestInterceptor(new NoOpInterceptor()).build(),
				RestClient.builder()
					.requestFactory(transport)
					.requestInterceptor(BenchmarkInterceptors.standalone(clients, RetryListener.NONE))
					.build(),
				RestClient.builder()
					.requestFactory(transport)
					.requestInterceptor(
							BenchmarkInterceptors.standalone(clients, new RetryAfterMetrics(new SimpleMeterRegistry())))
					.build());
	}

	List<RestClient> all() {
		return List.of(this.a, this.b, this.c, this.d);
	}

	static String get(RestClient client) {
		return client.get().uri(URI_).retrieve().body(String.class);
	}

}
