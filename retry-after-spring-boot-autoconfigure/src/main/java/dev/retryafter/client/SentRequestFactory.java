package dev.retryafter.client;

import java.io.IOException;
import java.net.URI;
import java.util.Objects;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;

/**
 * The innermost element of a blocking client: the request factory Spring Boot builds, seen
 * through, so that each attempt is seen exactly as it is sent, after every interceptor of the
 * application ran (an OAuth2 interceptor adds {@code Authorization} there, after the outermost
 * {@link RetryAfterInterceptor}). Right before the request is sent, the interceptor's call
 * learns its URI and headers: its cooldown key is read from them, and a cooldown of that key
 * may hold or refuse the request there. When the transport reports the hops it followed
 * ({@link TransportHops}: Apache HttpClient 5 does), a response from another origin than the
 * request's, after a redirect, is charged to that origin. Requests the interceptor did not mark
 * go through untouched.
 *
 * @since 0.3.0
 */
public final class SentRequestFactory implements ClientHttpRequestFactory {

	private final ClientHttpRequestFactory delegate;

	/**
	 * Sees the requests of {@code delegate} as they are sent.
	 * @param delegate the factory that sends them
	 */
	public SentRequestFactory(ClientHttpRequestFactory delegate) {
		this.delegate = Objects.requireNonNull(delegate, "delegate");
	}

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) throws IOException {
		return new SentClientHttpRequest(this.delegate.createRequest(uri, httpMethod), uri);
	}

	/**
	 * The factory that sends the requests.
	 * @return the delegate
	 */
	public ClientHttpRequestFactory delegate() {
		return this.delegate;
	}

}
