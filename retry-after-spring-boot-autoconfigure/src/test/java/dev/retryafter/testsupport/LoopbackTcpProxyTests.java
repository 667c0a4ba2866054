package dev.retryafter.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class LoopbackTcpProxyTests {

	@Test
	void whenDroppingThenNothingPassesAndTheConnectionStaysOpenUntilHealed() throws Exception {
		try (ServerSocket target = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
				LoopbackTcpProxy proxy = new LoopbackTcpProxy(target.getLocalPort());
				Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
				Socket server = target.accept()) {
			server.setSoTimeout(300);
			InputStream in = server.getInputStream();
			send(client, "one");
			assertThat(read(in, 3)).isEqualTo("one");

			proxy.drop();
			send(client, "two");
			assertThatExceptionOfType(SocketTimeoutException.class).isThrownBy(in::read);
			assertThat(client.isClosed()).isFalse();

			proxy.heal();
			send(client, "six");
			assertThat(read(in, 3)).isEqualTo("six");
		}
	}

	private static void send(Socket socket, String text) throws IOException {
		socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
		socket.getOutputStream().flush();
	}

	private static String read(InputStream in, int length) throws IOException {
		return new String(in.readNBytes(length), StandardCharsets.US_ASCII);
	}

}
