package dev.retryafter.benchmarks;

import java.io.IOException;

import dev.retryafter.api.RetryAfterAttributes;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetrySettings;

import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * The floor of the happy path: only the reads that any interceptor must make on a call that
 * succeeds at once, if it honours {@code Retry-After}, a total time budget and a retry budget
 * as the retry interceptor does. Before the send it reads the caller's idempotency mark (an
 * interceptor further down may change it), reads the monotonic clock once (a retry's time
 * budget runs from the first send) and counts the request in a retry budget; after it, it
 * reads the status and looks for a {@code Retry-After} field. It never retries: it measures
 * what the retry interceptor cannot leave out, not a retrier.
 */
final class MinimalRetrierInterceptor implements ClientHttpRequestInterceptor {

	private static final String RETRY_AFTER = "retry-after";

	private final RetryBudget budget = RetryBudget.of(RetrySettings.defaults().budget(), MonotonicClock.SYSTEM);

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		boolean marked = request.getAttributes().get(RetryAfterAttributes.IDEMPOTENT) != null;
		this.budget.recordRequest(System.nanoTime());
		ClientHttpResponse response = execution.execute(request, body);
		int status = response.getStatusCode().value();
		if (status >= 300 || response.getHeaders().get(RETRY_AFTER) != null || marked) {
			// Where a retrier would decide: the benchmark's transport answers 200 only.
			response.close();
			throw new IllegalStateException("Only the happy path is measured, got status " + status);
		}
		return response;
	}

}
