package dev.retryafter.benchmarks;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.retryafter.client.BenchmarkInterceptors;
import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;

import org.springframework.web.client.RestClient;

/**
 * What looking for the quota fields costs a call that succeeds at once, whose response has
 * none (most responses): {@link HappyPathInterleaved}'s rounds over the pass-through
 * interceptor (a), the retry interceptor with {@code retry-after.rate-limit.enabled=false} (b,
 * the reference), with the defaults (c), which looks at every response's field names for a
 * quota field of any dialect, and (d) with the defaults after another origin's response
 * carried them (that origin's quota is kept, so requests to its host are checked against it).
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.HappyPathQuotaFields}
 * with the options of {@link HappyPathInterleaved}.
 */
public final class HappyPathQuotaFields {

	private HappyPathQuotaFields() {
	}

	/**
	 * Runs the rounds.
	 * @param args see {@link HappyPathInterleaved}
	 */
	public static void main(String[] args) {
		InMemoryRequestFactory transport = new InMemoryRequestFactory();
		ClientSettingsCatalog off = ClientSettingsCatalog
			.of(RetrySettings.defaults().withRateLimit(new RetrySettings.RateLimit(false, Set.of())));
		ClientSettingsCatalog defaults = ClientSettingsCatalog.of(RetrySettings.defaults());
		List<RestClient> clients = List.of(
				RestClient.builder().requestFactory(transport).requestInterceptor(new NoOpInterceptor()).build(),
				RestClient.builder()
					.requestFactory(transport)
					.requestInterceptor(BenchmarkInterceptors.standalone(off, RetryListener.NONE))
					.build(),
				RestClient.builder()
					.requestFactory(transport)
					.requestInterceptor(BenchmarkInterceptors.standalone(defaults, RetryListener.NONE))
					.build(),
				RestClient.builder().requestFactory(transport).requestInterceptor(seenFields(defaults)).build());
		HappyPathInterleaved.run(args, clients, List.of("a_noOpInterceptor", "b_retryAfter_rateLimitOff",
				"c_retryAfter_defaults", "d_retryAfter_afterAnOriginSentFields"), "happy-path-quota-fields.md");
	}

	/**
	 * An interceptor that has read one response of another origin announcing a large quota for
	 * a day: that origin's quota is kept.
	 */
	private static RetryAfterInterceptor seenFields(ClientSettingsCatalog clients) {
		RetryAfterInterceptor interceptor = BenchmarkInterceptors.standalone(clients, RetryListener.NONE);
		InMemoryRequestFactory announcing = new InMemoryRequestFactory(Map.of("RateLimit-Policy",
				"\"day\";q=100000000;w=86400", "RateLimit", "\"day\";r=100000000;t=86400"));
		RestClient client = RestClient.builder().requestFactory(announcing).requestInterceptor(interceptor).build();
		// Every response is looked at: the first one is read.
		client.get().uri(URI.create("http://quota.example/")).retrieve().toBodilessEntity();
		return interceptor;
	}

}
