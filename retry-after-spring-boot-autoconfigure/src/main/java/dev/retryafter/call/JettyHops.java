package dev.retryafter.call;

import java.net.URI;
import java.util.function.Consumer;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.jspecify.annotations.Nullable;

/**
 * Tells where the response of a request that Jetty's {@link HttpClient} sent came from: Jetty
 * follows redirects itself, each one a new request of the same conversation, and hands the
 * last one's response to the response listeners of the request the application sent, with
 * {@link Response#getRequest()} the request that response answers. A listener on that first
 * request so learns the last hop, on Jetty's threads, before the response is handed on, so
 * that a {@code 429} after a redirect to another origin is charged to that origin.
 * <p>
 * Spring's reactive Jetty request hands out the Jetty request it sends
 * ({@link #reportTo(Object, Consumer)}). Spring's blocking one does not: a listener on the
 * clients Spring Boot builds ({@link #reporting(HttpClient)}) takes the expectation the
 * request factory set on the calling thread ({@link HopReportingHttpClient#expect}) when the
 * request is queued, which Jetty does on the thread that sends it.
 *
 * @since 0.3.0
 */
public final class JettyHops {

	private JettyHops() {
	}

	/**
	 * Makes {@code client} tell the last hop of each request sent while a request factory
	 * expects one on the sending thread.
	 * @param client a Jetty client Spring Boot builds for a blocking request factory
	 */
	public static void reporting(HttpClient client) {
		client.getRequestListeners().addQueuedListener(JettyHops::queued);
	}

	/**
	 * Tells {@code listener} the URI of the request whose response {@code nativeRequest} gets,
	 * when it is a Jetty request.
	 * @param nativeRequest the transport's own request, not yet sent
	 * @param listener told the URI the response came from, on any thread, before the response
	 * is handed on
	 * @return whether it is a Jetty request, which now tells its last hop
	 */
	public static boolean reportTo(@Nullable Object nativeRequest, Consumer<URI> listener) {
		if (!(nativeRequest instanceof Request request)) {
			return false;
		}
		listen(request, listener);
		return true;
	}

	private static void queued(Request request) {
		// Redirects are queued on Jetty's threads, where nothing is expected: only the request
		// the factory sent takes the expectation.
		Consumer<URI> listener = HopReportingHttpClient.take((uri) -> sameOrigin(uri, request));
		if (listener != null) {
			// Added once the exchange exists: whether it hears this exchange's own response
			// too is Jetty's business, as that one names this request's own origin; it hears
			// the redirects' exchanges of the conversation, the last of which answers.
			listen(request, listener);
		}
	}

	private static void listen(Request request, Consumer<URI> listener) {
		request.onResponseBegin((response) -> tell(listener, response));
	}

	private static void tell(Consumer<URI> listener, Response response) {
		try {
			listener.accept(response.getRequest().getURI());
		}
		catch (RuntimeException ex) {
			// Where the response came from only decides what it is charged to: it never
			// fails the response.
		}
	}

	/** Jetty rebuilds the URI it was given, so the origin and path are compared, not the text. */
	private static boolean sameOrigin(URI expected, Request request) {
		return String.valueOf(expected.getScheme()).equalsIgnoreCase(request.getScheme())
				&& String.valueOf(expected.getHost()).equalsIgnoreCase(request.getHost())
				&& port(expected.getScheme(), expected.getPort()) == port(request.getScheme(), request.getPort());
	}

	private static int port(@Nullable String scheme, int port) {
		if (port > 0) {
			return port;
		}
		return "https".equalsIgnoreCase(scheme) ? 443 : 80;
	}

}
