package dev.retryafter.api;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.core.IoFailureKind;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@link IoFailures} against what each Spring request factory really throws, provoked on
 * 127.0.0.1 (and one {@code .invalid} name, which the tests' own hosts file does not know, so
 * no resolver is asked: see {@code HostResolutionTests}). Requests are POSTs: the
 * JDK's {@code HttpURLConnection} silently resends a GET once after some failures.
 */
class IoFailuresLoopbackTests {

	private static final Duration TIMEOUT = Duration.ofMillis(300);

	/**
	 * For the timeout a test does not provoke. The JDK factory's read timeout runs from the
	 * moment the request is handed over, connecting and the client's first-use start-up
	 * included, so it must be long wherever a read timeout is not the point.
	 */
	private static final Duration LONG_TIMEOUT = Duration.ofSeconds(5);

	private LoopbackHttpServer server;

	@BeforeEach
	void startServer() throws IOException {
		this.server = LoopbackHttpServer.start();
	}

	@AfterEach
	void stopServer() throws IOException {
		this.server.close();
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenPortIsClosedThenConnectRefused(Transport transport) throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			closedPort = socket.getLocalPort();
		}

		IOException failure = failureOf(transport.factory(LONG_TIMEOUT, LONG_TIMEOUT),
				URI.create("http://127.0.0.1:" + closedPort + "/"));

		assertThat(IoFailures.classify(failure)).as(chain(failure)).isEqualTo(IoFailureKind.CONNECT_REFUSED);
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenAcceptQueueIsFullThenConnectTimeout(Transport transport) throws IOException {
		// A listening socket that never accepts, with its accept queue filled: Linux drops
		// further SYNs, so a connect times out on loopback.
		try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			List<Socket> fillers = fillAcceptQueue(full);
			try {
				IOException failure = failureOf(transport.factory(TIMEOUT, LONG_TIMEOUT),
						URI.create("http://127.0.0.1:" + full.getLocalPort() + "/"));

				assertThat(IoFailures.classify(failure)).as(chain(failure))
					.isEqualTo(IoFailureKind.CONNECT_TIMEOUT);
			}
			finally {
				for (Socket filler : fillers) {
					filler.close();
				}
			}
		}
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenServerNeverAnswersThenReadTimeout(Transport transport) {
		this.server.on("/slow", Reply.neverAnswer());

		IOException failure = failureOf(transport.factory(LONG_TIMEOUT, TIMEOUT), this.server.uri("/slow"));

		assertThat(IoFailures.classify(failure)).as(chain(failure)).isEqualTo(IoFailureKind.READ_TIMEOUT);
		assertThat(this.server.requests()).hasSize(1);
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenServerClosesWithoutAnsweringThenResetAfterSend(Transport transport) {
		this.server.on("/close", Reply.closeWithoutResponse());

		IOException failure = failureOf(transport.factory(LONG_TIMEOUT, LONG_TIMEOUT), this.server.uri("/close"));

		assertThat(IoFailures.classify(failure)).as(chain(failure)).isEqualTo(IoFailureKind.RESET_AFTER_SEND);
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenServerResetsTheConnectionThenResetAfterSend(Transport transport) {
		this.server.on("/reset", Reply.resetConnection());

		IOException failure = failureOf(transport.factory(LONG_TIMEOUT, LONG_TIMEOUT), this.server.uri("/reset"));

		assertThat(IoFailures.classify(failure)).as(chain(failure)).isEqualTo(IoFailureKind.RESET_AFTER_SEND);
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenHostNameDoesNotResolveThenUnknownHost(Transport transport) {
		IOException failure = failureOf(transport.factory(LONG_TIMEOUT, LONG_TIMEOUT),
				URI.create("http://retry-after-test.invalid/"));

		assertThat(IoFailures.classify(failure)).as(chain(failure)).isEqualTo(IoFailureKind.UNKNOWN_HOST);
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenTlsIsSpokenToAPlainHttpPortThenTlsFailure(Transport transport) {
		this.server.on("/plain", Reply.status(200));

		IOException failure = failureOf(transport.factory(LONG_TIMEOUT, LONG_TIMEOUT),
				URI.create("https://127.0.0.1:" + this.server.port() + "/plain"));

		assertThat(IoFailures.classify(failure)).as(chain(failure)).isEqualTo(IoFailureKind.TLS_FAILURE);
		// The handshake's random bytes may now and then read as a request line of garbage;
		// what matters is that the request itself never reached the server.
		assertThat(this.server.requests()).noneMatch((request) -> request.target().equals("/plain"));
	}

	private static List<Socket> fillAcceptQueue(ServerSocket server) throws IOException {
		List<Socket> fillers = new ArrayList<>();
		for (int i = 0; i < 16; i++) {
			Socket socket = new Socket();
			try {
				socket.connect(new InetSocketAddress("127.0.0.1", server.getLocalPort()), (int) TIMEOUT.toMillis());
				fillers.add(socket);
			}
			catch (IOException ex) {
				socket.close();
				return fillers;
			}
		}
		throw new IllegalStateException("accept queue never filled");
	}

	private static IOException failureOf(ClientHttpRequestFactory factory, URI uri) {
		IOException failure = catchThrowableOfType(IOException.class, () -> {
			ClientHttpRequest request = factory.createRequest(uri, HttpMethod.POST);
			byte[] body = "ping".getBytes(StandardCharsets.UTF_8);
			request.getHeaders().setContentLength(body.length);
			request.getBody().write(body);
			try (ClientHttpResponse response = request.execute()) {
				// HttpURLConnection reads the response only when asked for it.
				response.getStatusCode();
			}
		});
		assertThat(failure).as("an I/O failure").isInstanceOf(IOException.class);
		return failure;
	}

	/** The failure and its causes, for assertion messages. */
	private static String chain(Throwable failure) {
		StringBuilder description = new StringBuilder();
		for (Throwable current = failure; current != null; current = current.getCause()) {
			description.append((current == failure) ? "" : " caused by ").append(current);
		}
		return description.toString();
	}

	enum Transport {

		SIMPLE {
			@Override
			ClientHttpRequestFactory factory(Duration connectTimeout, Duration readTimeout) {
				SimpleClientHttpRequestFactory factory = new SimpleClientHttpRequestFactory();
				factory.setConnectTimeout(connectTimeout);
				factory.setReadTimeout(readTimeout);
				return factory;
			}
		},

		JDK {
			@Override
			ClientHttpRequestFactory factory(Duration connectTimeout, Duration readTimeout) {
				JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(
						HttpClient.newBuilder().connectTimeout(connectTimeout).build());
				factory.setReadTimeout(readTimeout);
				return factory;
			}
		},

		HTTP_COMPONENTS {
			@Override
			ClientHttpRequestFactory factory(Duration connectTimeout, Duration readTimeout) {
				HttpComponentsClientHttpRequestFactory factory = new HttpComponentsClientHttpRequestFactory(
						HttpClients.custom()
							.disableAutomaticRetries()
							.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
								.setDefaultConnectionConfig(ConnectionConfig.custom()
									.setConnectTimeout(Timeout.of(connectTimeout))
									.build())
								.build())
							.build());
				factory.setReadTimeout(readTimeout);
				return factory;
			}
		};

		abstract ClientHttpRequestFactory factory(Duration connectTimeout, Duration readTimeout);

	}

}
