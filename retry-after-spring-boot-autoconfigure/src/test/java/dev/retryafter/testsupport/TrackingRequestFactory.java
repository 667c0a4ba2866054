package dev.retryafter.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Wraps a real request factory and logs, to a shared event list, each response it produced
 * ({@code "response 1"}) and each close of one ({@code "close 1"}), numbered in order.
 */
public final class TrackingRequestFactory implements ClientHttpRequestFactory {

	private final ClientHttpRequestFactory delegate;

	private final List<String> events;

	private final AtomicInteger responses = new AtomicInteger();

	/**
	 * Creates a tracking factory.
	 * @param delegate the real factory
	 * @param events where events are appended (a synchronized or concurrent list)
	 */
	public TrackingRequestFactory(ClientHttpRequestFactory delegate, List<String> events) {
		this.delegate = delegate;
		this.events = events;
	}

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) throws IOException {
		return new TrackingRequest(this.delegate.createRequest(uri, httpMethod));
	}

	private final class TrackingRequest implements ClientHttpRequest {

		private final ClientHttpRequest delegate;

		TrackingRequest(ClientHttpRequest delegate) {
			this.delegate = delegate;
		}

		@Override
		public ClientHttpResponse execute() throws IOException {
			ClientHttpResponse response = this.delegate.execute();
			int number = TrackingRequestFactory.this.responses.incrementAndGet();
			TrackingRequestFactory.this.events.add("response " + number);
			return new TrackingResponse(response, number);
		}

		@Override
		public OutputStream getBody() throws IOException {
			return this.delegate.getBody();
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.delegate.getHeaders();
		}

		@Override
		public HttpMethod getMethod() {
			return this.delegate.getMethod();
		}

		@Override
		public URI getURI() {
			return this.delegate.getURI();
		}

		@Override
		public Map<String, Object> getAttributes() {
			return this.delegate.getAttributes();
		}

	}

	private final class TrackingResponse implements ClientHttpResponse {

		private final ClientHttpResponse delegate;

		private final int number;

		TrackingResponse(ClientHttpResponse delegate, int number) {
			this.delegate = delegate;
			this.number = number;
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
			TrackingRequestFactory.this.events.add("close " + this.number);
			this.delegate.close();
		}

	}

}
