package dev.retryafter.benchmarks;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;

/**
 * The in-memory transport of {@link InMemoryRequestFactory}, throttling: the 1st, 3rd, 5th...
 * request gets a {@code 429} with {@code Retry-After: 1}, the others a {@code 200}. Used by one
 * caller, each call that retries once after its {@code 429} ends with a {@code 200}.
 */
public final class ThrottlingRequestFactory implements ClientHttpRequestFactory {

	private static final byte[] OK = "{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8);

	private static final byte[] SLOW_DOWN = "{\"status\":\"slow down\"}".getBytes(StandardCharsets.UTF_8);

	private final AtomicLong requests = new AtomicLong();

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod httpMethod) {
		return new Request(uri, httpMethod, this.requests.getAndIncrement() % 2 == 0);
	}

	private static final class Request implements ClientHttpRequest {

		private final URI uri;

		private final HttpMethod method;

		private final boolean throttled;

		private final HttpHeaders headers = new HttpHeaders();

		private final Map<String, Object> attributes = new LinkedHashMap<>();

		Request(URI uri, HttpMethod method, boolean throttled) {
			this.uri = uri;
			this.method = method;
			this.throttled = throttled;
		}

		@Override
		public ClientHttpResponse execute() {
			return new Response(this.throttled);
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

	private static final class Response implements ClientHttpResponse {

		private final boolean throttled;

		private final HttpHeaders headers = new HttpHeaders();

		Response(boolean throttled) {
			this.throttled = throttled;
			this.headers.setContentType(MediaType.APPLICATION_JSON);
			this.headers.setContentLength(body().length);
			if (throttled) {
				this.headers.set(HttpHeaders.RETRY_AFTER, "1");
			}
		}

		private byte[] body() {
			return this.throttled ? SLOW_DOWN : OK;
		}

		@Override
		public HttpStatusCode getStatusCode() {
			return HttpStatusCode.valueOf(this.throttled ? 429 : 200);
		}

		@Override
		public String getStatusText() {
			return this.throttled ? "Too Many Requests" : "OK";
		}

		@Override
		public InputStream getBody() {
			return new ByteArrayInputStream(body());
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
