package dev.retryafter.autoconfigure;

import java.io.IOException;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;

/**
 * Runs inside a class loader that has no spring-retry at all (see
 * {@link WithoutSpringRetryTests}): a Boot-built client calls an origin that always answers
 * {@code 429}, and the result is described in a plain string, the only type both loaders
 * share.
 */
final class WithoutSpringRetryProbe {

	private WithoutSpringRetryProbe() {
	}

	/**
	 * Calls the origin once through the auto-configured {@code RestClient.Builder}.
	 * @return what happened, as {@code requests=N status=S detectors=D}
	 * @throws IOException if the origin cannot start
	 */
	static String run() throws IOException {
		StringBuilder result = new StringBuilder();
		try (LoopbackHttpServer origin = LoopbackHttpServer.start()
			.on("/busy", Reply.status(429).header("Retry-After", "0"))) {
			new ApplicationContextRunner().withClassLoader(WithoutSpringRetryProbe.class.getClassLoader())
				.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
						RetryAfterRestClientAutoConfiguration.class,
						HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
						RestClientAutoConfiguration.class))
				.withPropertyValues("retry-after.backoff.initial=0s", "retry-after.backoff.max=0s")
				.run((context) -> {
					if (context.getStartupFailure() != null) {
						throw new IllegalStateException(context.getStartupFailure());
					}
					RestClient client = context.getBean(RestClient.Builder.class).build();
					int status;
					try {
						client.get().uri(origin.uri("/busy")).retrieve().toBodilessEntity();
						status = 200;
					}
					catch (HttpClientErrorException ex) {
						status = ex.getStatusCode().value();
					}
					result.append("requests=")
						.append(origin.requests().size())
						.append(" status=")
						.append(status)
						.append(" detectors=")
						.append(context.getBeanNamesForType(OuterRetryDetector.class).length);
				});
		}
		return result.toString();
	}

}
