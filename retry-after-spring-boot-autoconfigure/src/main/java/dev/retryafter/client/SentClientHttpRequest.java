package dev.retryafter.client;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.StreamingHttpOutputMessage;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpResponse;

/**
 * One request of a {@link SentRequestFactory}: the transport's own, with the interceptor's
 * {@link SentRequest} told its URI and headers right before it is sent, and its response
 * marked as a {@link RedirectedResponse} when the transport reported ({@link TransportHops})
 * that it came from another origin.
 */
final class SentClientHttpRequest implements ClientHttpRequest, StreamingHttpOutputMessage {

	private final ClientHttpRequest delegate;

	/** A streamed body for a transport that takes none, written to its stream at execution. */
	private @Nullable Body body;

	SentClientHttpRequest(ClientHttpRequest delegate) {
		this.delegate = delegate;
	}

	@Override
	public ClientHttpResponse execute() throws IOException {
		if (this.delegate.getAttributes().get(SentRequest.ATTRIBUTE) instanceof SentRequest sent) {
			sent.sending(this.delegate.getURI(), this.delegate.getHeaders());
		}
		if (this.body != null) {
			this.body.writeTo(this.delegate.getBody());
		}
		TransportHops hops = TransportHops.open();
		ClientHttpResponse response;
		URI responder;
		try {
			response = this.delegate.execute();
		}
		finally {
			responder = hops.close(this.delegate.getURI());
		}
		return (responder != null) ? new RedirectedResponse(response, responder) : response;
	}

	@Override
	public void setBody(Body body) {
		// Streamed straight through when the transport can: an upload is never buffered here.
		if (this.delegate instanceof StreamingHttpOutputMessage streaming) {
			streaming.setBody(body);
		}
		else {
			this.body = body;
		}
	}

	@Override
	public OutputStream getBody() throws IOException {
		return this.delegate.getBody();
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

	@Override
	public HttpHeaders getHeaders() {
		return this.delegate.getHeaders();
	}

}
