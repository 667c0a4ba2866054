package dev.retryafter.api;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.util.stream.Stream;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

import dev.retryafter.core.IoFailureKind;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.HttpHostConnectException;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Unit tests for {@link IoFailures}: one exception per transport type and message. The real
 * transports are checked in {@link IoFailuresLoopbackTests}.
 */
class IoFailuresTests {

	static Stream<Arguments> failures() {
		return Stream.of(arguments(new ConnectException("Connection refused"), IoFailureKind.CONNECT_REFUSED),
				arguments(new HttpHostConnectException("Connect to http://127.0.0.1:1 failed: Connection refused"),
						IoFailureKind.CONNECT_REFUSED),
				arguments(new NoRouteToHostException("No route to host"), IoFailureKind.CONNECT_REFUSED),
				arguments(new HttpConnectTimeoutException("HTTP connect timed out"), IoFailureKind.CONNECT_TIMEOUT),
				arguments(new ConnectTimeoutException("Connect to http://127.0.0.1:1 failed: Connect timed out"),
						IoFailureKind.CONNECT_TIMEOUT),
				arguments(new SocketTimeoutException("Connect timed out"), IoFailureKind.CONNECT_TIMEOUT),
				arguments(new SocketTimeoutException("connect timed out"), IoFailureKind.CONNECT_TIMEOUT),
				arguments(new SocketTimeoutException("Read timed out"), IoFailureKind.READ_TIMEOUT),
				arguments(new SocketTimeoutException(), IoFailureKind.READ_TIMEOUT),
				arguments(new HttpTimeoutException("request timed out"), IoFailureKind.READ_TIMEOUT),
				arguments(new UnknownHostException("nowhere.invalid"), IoFailureKind.UNKNOWN_HOST),
				arguments(new SocketException("Connection reset"), IoFailureKind.RESET_AFTER_SEND),
				arguments(new SocketException("Connection reset by peer"), IoFailureKind.RESET_AFTER_SEND),
				arguments(new SocketException("Broken pipe"), IoFailureKind.RESET_AFTER_SEND),
				arguments(new SocketException("Unexpected end of file from server"), IoFailureKind.RESET_AFTER_SEND),
				arguments(new EOFException("EOF reached while reading"), IoFailureKind.RESET_AFTER_SEND),
				arguments(new NoHttpResponseException("127.0.0.1:8080 failed to respond"),
						IoFailureKind.RESET_AFTER_SEND),
				arguments(new ConnectionClosedException("Connection closed by peer"), IoFailureKind.RESET_AFTER_SEND),
				arguments(new SSLHandshakeException("PKIX path building failed"), IoFailureKind.TLS_FAILURE),
				arguments(new SSLPeerUnverifiedException("peer not authenticated"), IoFailureKind.TLS_FAILURE),
				arguments(new SSLException("Unsupported or unrecognized SSL message"), IoFailureKind.TLS_FAILURE),
				arguments(new SSLException("Connection reset"), IoFailureKind.OTHER),
				arguments(new SSLException("closed", new SocketException("Connection reset")),
						IoFailureKind.RESET_AFTER_SEND),
				arguments(new SSLException("closed", new EOFException("EOF")), IoFailureKind.RESET_AFTER_SEND),
				arguments(new IOException("handshake", new CertificateExpiredException("NotAfter: 2020")),
						IoFailureKind.TLS_FAILURE),
				arguments(new IOException("certificate_unknown",
						new CertPathValidatorException("validity check failed")),
						IoFailureKind.TLS_FAILURE),
				arguments(new SocketException("Socket closed"), IoFailureKind.OTHER),
				arguments(new SocketException(), IoFailureKind.OTHER),
				arguments(new InterruptedIOException("interrupted"), IoFailureKind.OTHER),
				arguments(new IOException("Request cancelled"), IoFailureKind.OTHER),
				arguments(new IOException(), IoFailureKind.OTHER));
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@MethodSource("failures")
	void whenExceptionThrownThenClassifiedByTypeAndMessage(IOException failure, IoFailureKind expected) {
		assertThat(IoFailures.classify(failure)).isEqualTo(expected);
	}

	@ParameterizedTest(name = "wrapped {0} -> {1}")
	@MethodSource("failures")
	void whenExceptionIsTheCauseOfAPlainIOExceptionThenClassifiedTheSame(IOException failure,
			IoFailureKind expected) {
		assertThat(IoFailures.classify(new IOException("wrapper", new IOException("inner wrapper", failure))))
			.isEqualTo(expected);
	}

	@Test
	void whenJdkClientReportsUnresolvedHostAsConnectExceptionThenUnknownHost() {
		ConnectException failure = new ConnectException();
		failure.initCause(new UnresolvedAddressException());

		assertThat(IoFailures.classify(failure)).isEqualTo(IoFailureKind.UNKNOWN_HOST);
	}

	@Test
	void whenJdkConnectTimeoutWrapsConnectExceptionThenOutermostWins() {
		HttpConnectTimeoutException failure = new HttpConnectTimeoutException("HTTP connect timed out");
		failure.initCause(new ConnectException("HTTP connect timed out"));

		assertThat(IoFailures.classify(failure)).isEqualTo(IoFailureKind.CONNECT_TIMEOUT);
	}

	@Test
	void whenHttpClient5ConnectTimeoutThenConnectTimeoutWhateverItsMessage() {
		// HttpClient 5 builds the message from its cause's, which may say nothing of connecting.
		IOException failure = new ConnectTimeoutException("Connect to http://127.0.0.1:1 [/127.0.0.1] failed");

		assertThat(IoFailures.classify(failure)).isEqualTo(IoFailureKind.CONNECT_TIMEOUT);
	}

	@Test
	void whenCauseChainIsCyclicThenClassificationEnds() {
		IOException outer = new IOException("outer");
		IOException inner = new IOException("inner", outer);
		outer.initCause(inner);

		assertThat(IoFailures.classify(outer)).isEqualTo(IoFailureKind.OTHER);
	}

	@Test
	void whenCauseChainIsDeeperThanTheWalkThenOther() {
		IOException failure = new ConnectException("Connection refused");
		for (int i = 0; i < 40; i++) {
			failure = new IOException("wrapper " + i, failure);
		}

		assertThat(IoFailures.classify(failure)).isEqualTo(IoFailureKind.OTHER);
	}

	@Test
	void whenAClientWrapsTheTransportsFailureThenTheFirstIoExceptionInTheChainIsClassified() {
		RuntimeException wrapped = new IllegalStateException("request failed",
				new RuntimeException("around", new ConnectException("Connection refused")));

		assertThat(IoFailures.classifyCause(wrapped)).isEqualTo(IoFailureKind.CONNECT_REFUSED);
	}

	@Test
	void whenNettysResponseTimeoutIsInTheChainThenItIsAReadTimeout() {
		RuntimeException wrapped = new IllegalStateException("request failed",
				io.netty.handler.timeout.ReadTimeoutException.INSTANCE);

		assertThat(IoFailures.classifyCause(wrapped)).isEqualTo(IoFailureKind.READ_TIMEOUT);
	}

	@Test
	void whenTheChainHoldsNoIoFailureThenItIsNone() {
		assertThat(IoFailures.classifyCause(new IllegalStateException("codec", new IllegalArgumentException()))).isNull();
	}

}
