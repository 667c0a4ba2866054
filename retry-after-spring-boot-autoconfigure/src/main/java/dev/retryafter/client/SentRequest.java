package dev.retryafter.client;

import java.io.IOException;
import java.net.URI;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;

/**
 * What the {@link SentRequestFactory}, the innermost element of a client, saw of one attempt:
 * the URI and headers the request was sent with, after every interceptor of the application
 * ran (an OAuth2 interceptor adds {@code Authorization} there, after the outermost
 * {@link RetryAfterInterceptor}). The interceptor puts one in the request's attributes, which
 * Spring copies to the request the factory makes; while a {@link BlockingCall} runs, that call
 * also admits the request there under the key of its headers as sent.
 */
final class SentRequest {

	/** The request attribute it is kept under. */
	static final String ATTRIBUTE = SentRequest.class.getName();

	private final @Nullable BlockingCall call;

	private @Nullable URI uri;

	private @Nullable HttpHeaders headers;

	private SentRequest(@Nullable BlockingCall call) {
		this.call = call;
	}

	/**
	 * Puts a new one in the attributes of {@code request}, for the next attempt.
	 * @param request the request as the interceptor holds it
	 * @param call the call that admits the request as sent, or {@code null} to only see it
	 * @return the new one
	 */
	static SentRequest expect(HttpRequest request, @Nullable BlockingCall call) {
		SentRequest sent = new SentRequest(call);
		request.getAttributes().put(ATTRIBUTE, sent);
		return sent;
	}

	/**
	 * Called by the innermost element right before it sends the request; may hold the
	 * calling thread, or throw the call's refusal.
	 * @param uri the URI as sent
	 * @param headers the headers as sent
	 * @throws IOException the call's refusal, or its interruption while held
	 */
	void sending(URI uri, HttpHeaders headers) throws IOException {
		this.uri = uri;
		this.headers = headers;
		if (this.call != null) {
			this.call.sending(uri, headers);
		}
	}

	/**
	 * Whether the innermost element saw the request: without it (the application built its own
	 * request factory) only the request as the interceptor holds it is known.
	 */
	boolean seen() {
		return this.uri != null;
	}

	@Nullable URI uri() {
		return this.uri;
	}

	@Nullable HttpHeaders headers() {
		return this.headers;
	}

}
