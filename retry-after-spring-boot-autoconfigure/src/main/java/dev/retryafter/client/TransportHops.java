package dev.retryafter.client;

import java.net.URI;
import java.net.URISyntaxException;

import org.jspecify.annotations.Nullable;

/**
 * The hops of the request a {@link SentRequestFactory} is sending on this thread, as the
 * transport reports them: when it follows a redirect to another origin, the response comes
 * from the last hop's origin, which is the one its {@code 429} or quota is about. Apache
 * HttpClient 5 runs a request, redirects included, on the calling thread, and reports each
 * hop here from a request interceptor that the starter adds to the clients Spring Boot builds.
 * The JDK {@code HttpClient}, Jetty's and {@code HttpURLConnection} report only the last hop,
 * with the response: the request factory reports it here itself, on the calling thread.
 *
 * @since 0.3.0
 */
public final class TransportHops {

	/** Set on a thread once a request factory sent a request on it: other threads get nothing. */
	private static final ThreadLocal<TransportHops> CURRENT = new ThreadLocal<>();

	private boolean open;

	private @Nullable String scheme;

	private @Nullable String host;

	private int port;

	private TransportHops() {
	}

	/**
	 * Reports a hop of the request being sent on this thread; nothing happens when no
	 * {@link SentRequestFactory} is sending one.
	 * @param scheme the hop's scheme
	 * @param host the hop's host
	 * @param port the hop's port, or {@code -1} for the scheme's
	 */
	public static void hop(@Nullable String scheme, @Nullable String host, int port) {
		TransportHops hops = CURRENT.get();
		if (hops != null && hops.open) {
			hops.scheme = scheme;
			hops.host = host;
			hops.port = port;
		}
	}

	/**
	 * Reports the last hop, on the thread that opened these hops.
	 * @param uri the URI the response came from
	 */
	void lastHop(URI uri) {
		if (this.open && uri.getHost() != null) {
			this.scheme = uri.getScheme();
			this.host = uri.getHost();
			this.port = uri.getPort();
		}
	}

	/** Whether the transport reported a hop of the request since {@link #open()}. */
	boolean told() {
		return this.host != null;
	}

	/** Starts following the hops of a request about to be sent on this thread. */
	static TransportHops open() {
		TransportHops hops = CURRENT.get();
		if (hops == null) {
			hops = new TransportHops();
			CURRENT.set(hops);
		}
		hops.open = true;
		hops.scheme = null;
		hops.host = null;
		return hops;
	}

	/**
	 * Stops following, and tells where the response came from when that is not where the
	 * request was sent.
	 * @param sent the URI the request was sent to
	 * @return the last hop's origin as a URI, or {@code null} when no hop was reported or it
	 * is the origin of {@code sent}
	 */
	@Nullable URI close(URI sent) {
		this.open = false;
		String scheme = this.scheme;
		String host = this.host;
		if (scheme == null || host == null || sameOrigin(sent, scheme, host, this.port)) {
			return null;
		}
		try {
			return new URI(scheme, null, host, this.port, null, null, null);
		}
		catch (URISyntaxException ex) {
			return null;
		}
	}

	private static boolean sameOrigin(URI sent, String scheme, String host, int port) {
		return scheme.equalsIgnoreCase(sent.getScheme()) && host.equalsIgnoreCase(sent.getHost())
				&& effectivePort(scheme, port) == effectivePort(scheme, sent.getPort());
	}

	private static int effectivePort(String scheme, int port) {
		if (port != -1) {
			return port;
		}
		return "https".equalsIgnoreCase(scheme) ? 443 : 80;
	}

}
