package dev.retryafter.client;

import java.io.IOException;

import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetryListener;

import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Retries requests as the policy core plans, honouring {@code Retry-After}.
 *
 * @since 0.1.0
 */
public class RetryAfterInterceptor implements ClientHttpRequestInterceptor {

	/**
	 * Creates an interceptor on the system clocks, sleeping the calling thread.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 */
	public RetryAfterInterceptor(RetryClients clients, RetryListener listener) {
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		return execution.execute(request, body);
	}

}
