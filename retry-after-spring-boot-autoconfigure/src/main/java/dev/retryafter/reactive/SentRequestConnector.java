package dev.retryafter.reactive;

import java.net.URI;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import dev.retryafter.call.HopReportingHttpClient;
import dev.retryafter.call.JettyHops;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.ClientHttpRequest;
import org.springframework.http.client.reactive.ClientHttpResponse;
import org.springframework.http.client.reactive.JdkClientHttpConnector;

/**
 * The innermost element of a {@code WebClient}: the connector Spring Boot builds, seen through,
 * so that each attempt is seen exactly as it is sent, after every filter of the application
 * ran (Spring Security's OAuth2 filter adds {@code Authorization} there, after the outermost
 * {@link RetryAfterExchangeFilter}). Once the request's headers are final and before any of
 * it is written, the filter's call reads its cooldown key from them, and a cooldown of that
 * key may hold the request (on a timer, its connection open) or refuse it, unsent. When the
 * transport reports the hops it followed ({@link ReactorNettyHops}, the JDK client's last
 * one through a {@link HopReportingHttpClient}, or Jetty's through {@link JettyHops}), a
 * response from another origin than the request's, after a redirect, is charged to that
 * origin. Requests the filter did not mark go through untouched.
 *
 * @since 0.3.0
 */
public final class SentRequestConnector implements ClientHttpConnector {

	private final ClientHttpConnector delegate;

	/** Whether the delegate sends through a JDK {@code HttpClient}, which tells only the last hop. */
	private final boolean jdk;

	/** Whether the delegate is Spring's Jetty connector, whose requests hand out Jetty's own. */
	private final boolean jetty;

	/**
	 * Sees the requests of {@code delegate} as they are sent.
	 * @param delegate the connector that sends them
	 */
	public SentRequestConnector(ClientHttpConnector delegate) {
		this.delegate = Objects.requireNonNull(delegate, "delegate");
		this.jdk = delegate instanceof JdkClientHttpConnector;
		// By name: the class refers to Jetty's, which may be absent.
		this.jetty = delegate.getClass()
			.getName()
			.equals("org.springframework.http.client.reactive.JettyClientHttpConnector");
	}

	@Override
	public Mono<ClientHttpResponse> connect(HttpMethod method, URI uri,
			Function<? super ClientHttpRequest, Mono<Void>> requestCallback) {
		ResponseHops hops = new ResponseHops();
		AtomicReference<@Nullable SentGate> sentBy = new AtomicReference<>();
		return this.delegate.connect(method, uri, (request) -> {
			// The callback copies the exchange's headers and attributes at once; what it
			// returns writes them, and the body, only when subscribed to.
			Mono<Void> write = requestCallback.apply(request);
			if (request.getAttributes().get(SentGate.ATTRIBUTE) instanceof SentGate gate) {
				sentBy.set(gate);
				Mono<Void> sending = gate.sending(request.getURI(), request.getHeaders()).then(write);
				if (this.jetty) {
					// Jetty hands the last hop's response to the first request's listeners.
					JettyHops.reportTo(request.getNativeRequest(), hops::hop);
				}
				else if (this.jdk) {
					// The JDK connector sends right after the callback completes, on its
					// thread: its client takes the expectation there (HopReportingHttpClient).
					return sending.then(Mono.fromRunnable(() -> HopReportingHttpClient.expect(uri, hops::hop)));
				}
				return sending;
			}
			return write;
		}).doOnNext((response) -> {
			SentGate gate = sentBy.get();
			URI responder = hops.otherThan(uri);
			if (gate != null && responder != null) {
				gate.responseFrom(responder);
			}
		}).contextWrite((context) -> context.put(ResponseHops.KEY, hops));
	}

	/**
	 * The connector that sends the requests.
	 * @return the delegate
	 */
	public ClientHttpConnector delegate() {
		return this.delegate;
	}

}
