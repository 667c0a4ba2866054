package dev.retryafter.reactive;

import java.net.URI;

import org.jspecify.annotations.Nullable;

/**
 * The hops of one request a {@link SentRequestConnector} sends, as the transport reports them
 * (through the Reactor context the request is sent in): when it follows a redirect to another
 * origin, the response comes from the last hop's origin, which its {@code 429} or quota is
 * about.
 */
final class ResponseHops {

	/** The Reactor context key it is kept under. */
	static final String KEY = ResponseHops.class.getName();

	private volatile @Nullable URI last;

	/**
	 * Reports a hop.
	 * @param uri the hop's URI
	 */
	void hop(URI uri) {
		this.last = uri;
	}

	/**
	 * The origin the response came from, when it is not the one the request was sent to.
	 * @param sent the URI the request was sent to
	 * @return the last hop's URI, or {@code null} when no hop was reported or it is the
	 * origin of {@code sent}
	 */
	@Nullable URI otherThan(URI sent) {
		URI last = this.last;
		if (last == null || last.getHost() == null || (String.valueOf(last.getScheme()).equalsIgnoreCase(sent.getScheme())
				&& last.getHost().equalsIgnoreCase(sent.getHost()) && port(last) == port(sent))) {
			return null;
		}
		return last;
	}

	private static int port(URI uri) {
		if (uri.getPort() != -1) {
			return uri.getPort();
		}
		return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
	}

}
