package dev.retryafter.benchmarks;

import java.util.List;
import java.util.Set;

import dev.retryafter.client.BenchmarkInterceptors;
import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;

import org.springframework.web.client.RestClient;

/**
 * What looking for the quota fields costs a call that succeeds at once, whose response has
 * none (most responses): {@link HappyPathInterleaved}'s rounds over the pass-through
 * interceptor (a), the retry interceptor with {@code retry-after.rate-limit.enabled=false} (b,
 * the reference) and with the defaults (c), which looks a response's headers up for the
 * fields.
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
		RetryClients off = RetryClients
			.of(RetrySettings.defaults().withRateLimit(new RetrySettings.RateLimit(false, Set.of())));
		RetryClients defaults = RetryClients.of(RetrySettings.defaults());
		List<RestClient> clients = List.of(
				RestClient.builder().requestFactory(transport).requestInterceptor(new NoOpInterceptor()).build(),
				RestClient.builder()
					.requestFactory(transport)
					.requestInterceptor(BenchmarkInterceptors.standalone(off, RetryListener.NONE))
					.build(),
				RestClient.builder()
					.requestFactory(transport)
					.requestInterceptor(BenchmarkInterceptors.standalone(defaults, RetryListener.NONE))
					.build());
		HappyPathInterleaved.run(args, clients,
				List.of("a_noOpInterceptor", "b_retryAfter_rateLimitOff", "c_retryAfter_defaults"),
				"happy-path-quota-fields.md");
	}

}
