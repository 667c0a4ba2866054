package dev.retryafter.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/**
 * A response the transport received from another origin than the request was sent to, after
 * following a redirect: the call charges its {@code 429} or quota to that origin.
 */
final class RedirectedResponse implements ClientHttpResponse {

	private final ClientHttpResponse delegate;

	private final URI responder;

	RedirectedResponse(ClientHttpResponse delegate, URI responder) {
		this.delegate = delegate;
		this.responder = responder;
	}

	/** The origin that sent the response, as {@code scheme://host:port}. */
	URI responder() {
		return this.responder;
	}

	@Override
	public HttpStatusCode getStatusCode() throws IOException {
		return this.delegate.getStatusCode();
	}

	@Override
	public String getStatusText() throws IOException {
		return this.delegate.getStatusText();
	}

	@Override
	public HttpHeaders getHeaders() {
		return this.delegate.getHeaders();
	}

	@Override
	public InputStream getBody() throws IOException {
		return this.delegate.getBody();
	}

	@Override
	public void close() {
		this.delegate.close();
	}

}
