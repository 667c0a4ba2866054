package dev.retryafter.benchmarks;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;

/**
 * A transport that never touches the network: every request gets a {@code 200} with a small
 * body, built afresh as a real transport would, so the benchmark measures the client stack and
 * the interceptors, not sockets.
 */
public final class InMemoryRequestFactory implements ClientHttpRequestFactory {

	private static final byte[] BODY = "{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8);

	private final Map<String, String> extraHeaders;

	/** A transport whose responses carry only a content type and length. */
	public InMemoryRequestFactory() {
		this(Map.of());
	}

	/**
	 * A transport whose responses also carry the given header fields.
	 * @param extraHeaders field names and values added to every response
	 */
	public InMemoryRequestFactory(Map<String, String> extraHeaders) {
		this.extraHeaders = Map.copyOf(extraHeaders);
	}

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) {
		return new InMemoryRequest(uri, httpMethod);
	}

	private final class InMemoryRequest implements ClientHttpRequest {

		private final URI uri;

		private final HttpMethod method;

		private final HttpHeaders headers = new HttpHeaders();

		private final Map<String, Object> attributes = new LinkedHashMap<>();

		InMemoryRequest(URI uri, HttpMethod method) {
			this.uri = uri;
			this.method = method;
		}

		@Override
		public ClientHttpResponse execute() {
			return new InMemoryResponse(InMemoryRequestFactory.this.extraHeaders);
		}

		@Override
		public OutputStream getBody() {
			return OutputStream.nullOutputStream();
		}

		@Override
		public HttpMethod getMethod() {
			return this.method;
		}

		@Override
		public URI getURI() {
			return this.uri;
		}

		@Override
		public Map<String, Object> getAttributes() {
			return this.attributes;
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

	}

	private static final class InMemoryResponse implements ClientHttpResponse {

		private final HttpHeaders headers = new HttpHeaders();

		InMemoryResponse(Map<String, String> extraHeaders) {
			this.headers.setContentType(MediaType.APPLICATION_JSON);
			this.headers.setContentLength(BODY.length);
			extraHeaders.forEach(this.headers::add);
		}

		@Override
		public HttpStatusCode getStatusCode() {
			return HttpStatusCode.valueOf(200);
		}

		@Override
		public String getStatusText() {
			return "OK";
		}

		@Override
		public InputStream getBody() {
			return new ByteArrayInputStream(BODY);
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

		@Override
		public void close() {
		}

	}

}
