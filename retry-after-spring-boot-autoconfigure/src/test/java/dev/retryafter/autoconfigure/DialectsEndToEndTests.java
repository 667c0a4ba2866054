package dev.retryafter.autoconfigure;

import java.util.List;

import dev.retryafter.autoconfigure.DialectOrigin.Dialect;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each API's quota dialect, end to end: a Boot-built {@code RestClient} with the default
 * settings against an origin on 127.0.0.1 that allows 4 requests per 2 s and announces its
 * quota in that API's documented form ({@link DialectOrigin}). Each run prints its numbers
 * (requests, rejected, seconds) for docs/RATE-LIMIT.md.
 */
class DialectsEndToEndTests {

	private static final int CALLS = 12;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class, HttpClientAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class));

	@ParameterizedTest
	@EnumSource(Dialect.class)
	void whenTheOriginAnnouncesItsQuotaInItsDialectThenSequentialCallsAllSucceedWithAtMostOneRejected(
			Dialect dialect) throws Exception {
		try (DialectOrigin origin = DialectOrigin.start(dialect, 4, 2)) {
			this.contextRunner.run((context) -> {
				RestClient client = context.getBean(RestClient.Builder.class).build();
				long start = System.nanoTime();
				for (int i = 0; i < CALLS; i++) {
					assertThat(client.get().uri(origin.uri("/items")).retrieve().toBodilessEntity().getStatusCode().value())
						.as("%s call %d", dialect, i)
						.isEqualTo(200);
				}
				double seconds = (System.nanoTime() - start) / 1e9;
				System.out.printf("dialect %s: %d calls, %d requests, %d rejected, %.2f s%n", dialect, CALLS,
						origin.arrivals().size(), origin.rejected(), seconds);
				assertThat(origin.rejected()).as(dialect.name()).isLessThanOrEqualTo(1);
				assertThat(origin.arrivals()).hasSizeLessThanOrEqualTo(CALLS + 1);
			});
		}
	}

	@ParameterizedTest
	@EnumSource(Dialect.class)
	void whenTheFirstSuccessSaysNothingRemainsThenTheNextRequestLeavesAtTheReset(Dialect dialect) throws Exception {
		// One request per 2 s: every success says nothing remains until the window's end.
		try (DialectOrigin origin = DialectOrigin.start(dialect, 1, 2)) {
			origin.awaitWindowWithAtLeast(1_000);
			this.contextRunner.run((context) -> {
				RestClient client = context.getBean(RestClient.Builder.class).build();
				for (int i = 0; i < 2; i++) {
					assertThat(client.get().uri(origin.uri("/items")).retrieve().toBodilessEntity().getStatusCode().value())
						.isEqualTo(200);
				}
				List<Long> arrivals = origin.arrivals();
				long reset = origin.resets().get(0);
				System.out.printf("dialect %s: first success at reset-%d ms, next request at reset%+d ms%n", dialect,
						reset - arrivals.get(0), arrivals.get(1) - reset);
				assertThat(reset - arrivals.get(0)).as("the run starts a second or more before the reset")
					.isGreaterThanOrEqualTo(900);
				assertThat(arrivals.get(1)).as("%s: the second request leaves at the reset", dialect)
					.isGreaterThanOrEqualTo(reset);
				assertThat(origin.rejected()).isZero();
			});
		}
	}

}
