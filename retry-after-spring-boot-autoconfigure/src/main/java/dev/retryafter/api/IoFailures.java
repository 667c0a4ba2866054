package dev.retryafter.api;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

import dev.retryafter.core.CauseChain;
import dev.retryafter.core.ClassNames;
import dev.retryafter.core.IoFailureKind;
import org.jspecify.annotations.Nullable;

/**
 * Classifies the {@link IOException} a transport threw into an {@link IoFailureKind}: what
 * matters is whether the request may have reached the server.
 * <p>
 * Checked against what Spring Framework 7's request factories let through:
 * <ul>
 * <li>{@code SimpleClientHttpRequestFactory} ({@code HttpURLConnection}):
 * {@link ConnectException} "Connection refused", {@link SocketTimeoutException} "Connect timed
 * out" / "Read timed out", {@link UnknownHostException}, {@link SocketException} "Connection
 * reset" or "Unexpected end of file from server".</li>
 * <li>{@code JdkClientHttpRequestFactory} ({@code java.net.http.HttpClient}):
 * {@link ConnectException} (caused by {@link UnresolvedAddressException} when the host name
 * does not resolve), {@link HttpConnectTimeoutException} (wrapping a
 * {@link ConnectException}), a bare {@link HttpTimeoutException} when the factory's read
 * timeout strikes, an {@link IOException} "HTTP/1.1 header parser received no bytes" caused
 * by an {@link EOFException} or a "Connection reset" when the connection ends before a
 * response. The factory's read timeout runs from the moment the request is handed over, so
 * it can also strike while connecting; it is classified as a read timeout all the same (the
 * cautious reading: the request may have left).</li>
 * <li>{@code HttpComponentsClientHttpRequestFactory} (Apache HttpClient 5):
 * {@code HttpHostConnectException} (a {@link ConnectException}),
 * {@code ConnectTimeoutException}, {@link SocketTimeoutException} "Read timed out",
 * {@link UnknownHostException}, {@code NoHttpResponseException},
 * {@code ConnectionClosedException}. HttpClient 5 types are matched by class name so that it
 * stays an optional dependency.</li>
 * </ul>
 * The cause chain is walked from the outside in and the first throwable that says something
 * wins, except that an unresolvable host anywhere in the chain means {@code UNKNOWN_HOST}
 * (the JDK client reports it as a {@link ConnectException}), and so does a failed TLS
 * handshake or refused certificate ({@code TLS_FAILURE}). Anything unrecognised is
 * {@link IoFailureKind#OTHER}, which the planner treats as possibly sent.
 *
 * @since 0.1.0
 */
public final class IoFailures {

	/** Bounds the walk: cause chains are short, but a cyclic one must not loop forever. */
	private static final int MAX_DEPTH = 32;

	private static final String HC5_CONNECT_TIMEOUT = "org.apache.hc.client5.http.ConnectTimeoutException";

	private static final String HC5_NO_HTTP_RESPONSE = "org.apache.hc.core5.http.NoHttpResponseException";

	private static final String HC5_CONNECTION_CLOSED = "org.apache.hc.core5.http.ConnectionClosedException";

	private static final String NETTY_READ_TIMEOUT = "io.netty.handler.timeout.ReadTimeoutException";

	private IoFailures() {
	}

	/**
	 * Classifies a failure a client reports around the transport's own (Spring's
	 * {@code ResourceAccessException}, {@code WebClient}'s {@code WebClientRequestException}):
	 * the first {@link IOException} in the cause chain, as {@link #classify(IOException)} does.
	 * Reactor Netty's response timeout is Netty's {@code ReadTimeoutException}, which is no
	 * {@link IOException}: it is a read timeout, matched by class name so that Netty stays
	 * optional.
	 * @param failure what the client reported
	 * @return the kind of I/O failure, or {@code null} if the chain holds none (a codec or
	 * programming error)
	 */
	public static @Nullable IoFailureKind classifyCause(Throwable failure) {
		for (Throwable current : CauseChain.of(failure, MAX_DEPTH)) {
			if (current instanceof IOException io) {
				return classify(io);
			}
			if (NETTY_READ_TIMEOUT.equals(current.getClass().getName())) {
				return IoFailureKind.READ_TIMEOUT;
			}
		}
		return null;
	}

	/**
	 * Classifies an I/O failure of one attempt.
	 * @param failure what the transport threw
	 * @return the kind of failure
	 */
	public static IoFailureKind classify(IOException failure) {
		List<Throwable> chain = CauseChain.of(failure, MAX_DEPTH);
		for (Throwable throwable : chain) {
			if (throwable instanceof UnknownHostException || throwable instanceof UnresolvedAddressException) {
				return IoFailureKind.UNKNOWN_HOST;
			}
		}
		for (Throwable throwable : chain) {
			if (isTlsFailure(throwable)) {
				return IoFailureKind.TLS_FAILURE;
			}
		}
		for (Throwable throwable : chain) {
			IoFailureKind kind = kindOf(throwable);
			if (kind != null) {
				return kind;
			}
		}
		return IoFailureKind.OTHER;
	}

	private static @Nullable IoFailureKind kindOf(Throwable throwable) {
		// Subclasses before their superclasses: HC5's ConnectTimeoutException is a
		// SocketTimeoutException, the JDK's HttpConnectTimeoutException an HttpTimeoutException.
		if (ClassNames.isInstance(throwable, HC5_CONNECT_TIMEOUT) || throwable instanceof HttpConnectTimeoutException) {
			return IoFailureKind.CONNECT_TIMEOUT;
		}
		if (throwable instanceof ConnectException || throwable instanceof NoRouteToHostException) {
			return IoFailureKind.CONNECT_REFUSED;
		}
		if (throwable instanceof SocketTimeoutException) {
			return isConnectTimeoutMessage(throwable.getMessage()) ? IoFailureKind.CONNECT_TIMEOUT
					: IoFailureKind.READ_TIMEOUT;
		}
		if (throwable instanceof HttpTimeoutException) {
			return IoFailureKind.READ_TIMEOUT;
		}
		if (throwable instanceof EOFException || ClassNames.isInstance(throwable, HC5_NO_HTTP_RESPONSE)
				|| ClassNames.isInstance(throwable, HC5_CONNECTION_CLOSED)) {
			return IoFailureKind.RESET_AFTER_SEND;
		}
		if (throwable instanceof SocketException && isResetMessage(throwable.getMessage())) {
			return IoFailureKind.RESET_AFTER_SEND;
		}
		return null;
	}

	/**
	 * A failed handshake or a refused certificate, wherever the transport wrapped it: the
	 * request was never sent, but sending it again would fail the same way.
	 */
	private static boolean isTlsFailure(Throwable throwable) {
		if (throwable instanceof SSLHandshakeException || throwable instanceof SSLPeerUnverifiedException
				|| throwable instanceof CertificateException || throwable instanceof CertPathValidatorException) {
			return true;
		}
		// Any other SSLException is a protocol error (say, a plain-HTTP port spoken to over
		// TLS), unless it only reports that the connection dropped under TLS.
		return throwable instanceof SSLException && !(throwable.getCause() instanceof SocketException)
				&& !(throwable.getCause() instanceof EOFException) && !isResetMessage(throwable.getMessage());
	}

	/** {@code HttpURLConnection} reports a connect timeout as a plain SocketTimeoutException. */
	private static boolean isConnectTimeoutMessage(@Nullable String message) {
		return message != null && message.toLowerCase(Locale.ROOT).contains("connect timed out");
	}

	private static boolean isResetMessage(@Nullable String message) {
		if (message == null) {
			return false;
		}
		String lower = message.toLowerCase(Locale.ROOT);
		return lower.contains("connection reset") || lower.contains("broken pipe")
				|| lower.contains("unexpected end of file");
	}

}
