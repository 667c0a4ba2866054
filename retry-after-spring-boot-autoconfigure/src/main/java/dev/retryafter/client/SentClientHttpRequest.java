package dev.retryafter.client;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import dev.retryafter.call.HopReportingHttpClient;
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
 * that it came from another origin: Apache HttpClient 5 reports each hop, the JDK client
 * ({@link HopReportingHttpClient}), Jetty's ({@code JettyHops}, which takes the same
 * expectation) and {@code HttpURLConnection} (the request's URI after the response) tell the
 * last one.
 */
final class SentClientHttpRequest implements ClientHttpRequest, StreamingHttpOutputMessage {

	private final ClientHttpRequest delegate;

	/**
	 * The URI the request was created for, which it is sent to: kept, since Apache
	 * HttpClient 5's request builds a new one (parsing its text) each time it is asked.
	 */
	private final URI uri;

	/** A streamed body for a transport that takes none, written to its stream at execution. */
	private @Nullable Body body;

	SentClientHttpRequest(ClientHttpRequest delegate, URI uri) {
		this.delegate = delegate;
		this.uri = uri;
	}

	@Override
	public ClientHttpResponse execute() throws IOException {
		if (this.delegate.getAttributes().get(SentRequest.ATTRIBUTE) instanceof SentRequest sent) {
			sent.sending(this.uri, this.delegate.getHeaders());
		}
		if (this.body != null) {
			this.body.writeTo(this.delegate.getBody());
		}
		URI sent = this.uri;
		TransportHops hops = TransportHops.open();
		// The JDK and Jetty clients tell the last hop on their own threads: kept here
		// for this request alone, so that a late answer never reaches the thread's next one.
		AtomicReference<@Nullable URI> toldHop = new AtomicReference<>();
		HopReportingHttpClient.expect(sent, toldHop::set);
		ClientHttpResponse response;
		URI responder;
		try {
			response = this.delegate.execute();
		}
		finally {
			HopReportingHttpClient.clear();
			URI last = toldHop.get();
			if (last == null && !hops.told()) {
				// Only HttpURLConnection says where it went this way; a transport that reported
				// its hops (Apache HttpClient 5) keeps its request's URI.
				last = followedUri(sent);
			}
			if (last != null) {
				hops.lastHop(last);
			}
			responder = hops.close(sent);
		}
		return (responder != null) ? new RedirectedResponse(response, responder) : response;
	}

	/**
	 * The URI {@code HttpURLConnection} ended at, when it followed a redirect: Spring's
	 * request reads its URI from the connection, whose URL is the last hop's once the
	 * response is read. Other transports keep the URI the request was made with.
	 */
	private @Nullable URI followedUri(URI sent) {
		try {
			URI now = this.delegate.getURI();
			return now.equals(sent) ? null : now;
		}
		catch (RuntimeException ex) {
			// A URL that is no URI: the request's own origin is charged, as before.
			return null;
		}
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
