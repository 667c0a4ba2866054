package dev.retryafter.call;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Predicate;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

import org.jspecify.annotations.Nullable;

/**
 * A JDK {@link HttpClient} seen through, that tells where the response of a request came
 * from: the JDK client follows redirects itself and reports no hop, but its response knows
 * the URI of the last one ({@link HttpResponse#uri()}). When the innermost element of a
 * Spring client (blocking request factory or WebClient connector) {@linkplain #expect expects}
 * the next request sent on its thread, the response's URI is handed to it before the response
 * is, so that a {@code 429} after a redirect to another origin is charged to that origin.
 * Every other request, and every other method of the Java 17 API, goes straight to the
 * delegate; the lifecycle methods Java 21 added ({@code close}, {@code shutdown}) keep their
 * defaults, as Spring's factory and connector never call them.
 *
 * @since 0.3.0
 */
public final class HopReportingHttpClient extends HttpClient {

	/** Set right before Spring's JDK request sends on this thread, taken by that send. */
	private static final ThreadLocal<Expected> NEXT = new ThreadLocal<>();

	private final HttpClient delegate;

	/**
	 * Sees the requests of {@code delegate} through.
	 * @param delegate the client that sends them
	 */
	public HopReportingHttpClient(HttpClient delegate) {
		this.delegate = Objects.requireNonNull(delegate, "delegate");
	}

	/**
	 * Expects the next request this thread sends through a {@code HopReportingHttpClient}, or
	 * through a Jetty client Spring Boot built ({@link JettyHops}): when it is sent to
	 * {@code uri}, {@code listener} is given its response's URI.
	 * @param uri the URI the request is sent to
	 * @param listener told the URI the response came from, on any thread, before the response
	 * is handed on
	 */
	public static void expect(URI uri, Consumer<URI> listener) {
		NEXT.set(new Expected(uri, listener));
	}

	/** Forgets an expectation this thread set and no request took. */
	public static void clear() {
		NEXT.remove();
	}

	private static @Nullable Consumer<URI> take(HttpRequest request) {
		return take((uri) -> uri.equals(request.uri()));
	}

	/**
	 * Takes this thread's expectation, for another transport that tells the last hop
	 * ({@link JettyHops}).
	 * @param sentHere whether the expected URI is the one of the request being sent
	 * @return the listener to tell, or {@code null} when nothing was expected here
	 */
	static @Nullable Consumer<URI> take(Predicate<URI> sentHere) {
		Expected expected = NEXT.get();
		if (expected == null) {
			return null;
		}
		NEXT.remove();
		// Another request on this thread (one nobody expected) takes nothing.
		return sentHere.test(expected.uri()) ? expected.listener() : null;
	}

	@Override
	public <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> responseBodyHandler)
			throws IOException, InterruptedException {
		Consumer<URI> listener = take(request);
		HttpResponse<T> response = this.delegate.send(request, responseBodyHandler);
		if (listener != null) {
			tell(listener, response);
		}
		return response;
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> responseBodyHandler) {
		Consumer<URI> listener = take(request);
		return reporting(listener, this.delegate.sendAsync(request, responseBodyHandler));
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> responseBodyHandler,
			@Nullable PushPromiseHandler<T> pushPromiseHandler) {
		Consumer<URI> listener = take(request);
		return reporting(listener, this.delegate.sendAsync(request, responseBodyHandler, pushPromiseHandler));
	}

	private static <T> CompletableFuture<HttpResponse<T>> reporting(@Nullable Consumer<URI> listener,
			CompletableFuture<HttpResponse<T>> sent) {
		if (listener == null) {
			return sent;
		}
		Reported<T> reported = new Reported<>(sent);
		sent.whenComplete((response, failure) -> {
			if (failure != null) {
				reported.completeExceptionally(failure);
				return;
			}
			tell(listener, response);
			reported.complete(response);
		});
		return reported;
	}

	private static void tell(Consumer<URI> listener, HttpResponse<?> response) {
		try {
			listener.accept(response.uri());
		}
		catch (RuntimeException ex) {
			// Where the response came from only decides what it is charged to: it never
			// fails the response.
		}
	}

	@Override
	public Optional<CookieHandler> cookieHandler() {
		return this.delegate.cookieHandler();
	}

	@Override
	public Optional<Duration> connectTimeout() {
		return this.delegate.connectTimeout();
	}

	@Override
	public Redirect followRedirects() {
		return this.delegate.followRedirects();
	}

	@Override
	public Optional<ProxySelector> proxy() {
		return this.delegate.proxy();
	}

	@Override
	public SSLContext sslContext() {
		return this.delegate.sslContext();
	}

	@Override
	public SSLParameters sslParameters() {
		return this.delegate.sslParameters();
	}

	@Override
	public Optional<Authenticator> authenticator() {
		return this.delegate.authenticator();
	}

	@Override
	public Version version() {
		return this.delegate.version();
	}

	@Override
	public Optional<Executor> executor() {
		return this.delegate.executor();
	}

	@Override
	public WebSocket.Builder newWebSocketBuilder() {
		return this.delegate.newWebSocketBuilder();
	}

	/**
	 * The client that sends the requests.
	 * @return the delegate
	 */
	public HttpClient delegate() {
		return this.delegate;
	}

	private record Expected(URI uri, Consumer<URI> listener) {
	}

	/**
	 * The future handed on: completed once the listener was told, and cancelling the
	 * transport's own, so that a read timeout still aborts the exchange.
	 */
	private static final class Reported<T> extends CompletableFuture<HttpResponse<T>> {

		private final CompletableFuture<HttpResponse<T>> sent;

		Reported(CompletableFuture<HttpResponse<T>> sent) {
			this.sent = sent;
		}

		@Override
		public boolean cancel(boolean mayInterruptIfRunning) {
			this.sent.cancel(mayInterruptIfRunning);
			return super.cancel(mayInterruptIfRunning);
		}

	}

}
