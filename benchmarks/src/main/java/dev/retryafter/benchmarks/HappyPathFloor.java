package dev.retryafter.benchmarks;

import java.util.List;

import org.springframework.web.client.RestClient;

/**
 * How much of the happy path's overhead is the floor: {@link HappyPathInterleaved}'s rounds
 * over (a) no interceptor, (b) a pass-through interceptor and (m) the
 * {@link MinimalRetrierInterceptor}, in a JVM of their own so that the interceptor call site
 * sees two interceptor classes, as it does in {@link HappyPathInterleaved}.
 *
 * <p>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.retryafter.benchmarks.HappyPathFloor}
 * with the options of {@link HappyPathInterleaved}.
 */
public final class HappyPathFloor {

	private HappyPathFloor() {
	}

	/**
	 * Runs the rounds.
	 * @param args see {@link HappyPathInterleaved}
	 */
	public static void main(String[] args) {
		InMemoryRequestFactory transport = new InMemoryRequestFactory();
		List<RestClient> clients = List.of(RestClient.builder().requestFactory(transport).build(),
				RestClient.builder().requestFactory(transport).requestInterceptor(new NoOpInterceptor()).build(),
				RestClient.builder()
					.requestFactory(transport)
					.requestInterceptor(new MinimalRetrierInterceptor())
					.build());
		HappyPathInterleaved.run(args, clients,
				List.of(HappyPathClients.NAMES.get(0), HappyPathClients.NAMES.get(1), "m_minimalRetrier"),
				"happy-path-floor.md");
	}

}
