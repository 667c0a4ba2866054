package dev.retryafter.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on a random loopback port, forwarding to a loopback port, that can go silent:
 * while {@linkplain #drop() dropping}, it discards what either side sends and closes nothing,
 * as a NAT or cloud load balancer does when it forgets an idle connection without a reset;
 * or {@linkplain #reset() reset} them.
 */
public final class LoopbackTcpProxy implements AutoCloseable {

	private final ServerSocket server;

	private final int targetPort;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private volatile boolean dropping;

	/**
	 * Starts a proxy to {@code 127.0.0.1:targetPort}.
	 * @param targetPort the port connections are forwarded to
	 * @throws IOException if no port can be opened
	 */
	public LoopbackTcpProxy(int targetPort) throws IOException {
		this.targetPort = targetPort;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		daemon("proxy-accept", this::accept);
	}

	/**
	 * The port clients connect to.
	 * @return the port
	 */
	public int port() {
		return this.server.getLocalPort();
	}

	/**
	 * Goes silent: everything sent either way from now on is discarded.
	 */
	public void drop() {
		this.dropping = true;
	}

	/**
	 * Forwards again (what was discarded is lost).
	 */
	public void heal() {
		this.dropping = false;
	}

	/**
	 * Closes every connection made so far, as a restarted load balancer would; new ones are
	 * forwarded.
	 * @throws IOException if a socket cannot be closed
	 */
	public void reset() throws IOException {
		for (Socket socket : this.sockets) {
			socket.close();
			this.sockets.remove(socket);
		}
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		for (Socket socket : this.sockets) {
			socket.close();
		}
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				Socket target = new Socket();
				target.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.targetPort), 2000);
				this.sockets.add(client);
				this.sockets.add(target);
				daemon("proxy-up", () -> pump(client, target));
				daemon("proxy-down", () -> pump(target, client));
			}
			catch (IOException ex) {
				// closed, or the target refused: the client sees its connection go
			}
		}
	}

	private void pump(Socket from, Socket to) {
		byte[] buffer = new byte[8192];
		try (from; to) {
			InputStream in = from.getInputStream();
			OutputStream out = to.getOutputStream();
			int read;
			while ((read = in.read(buffer)) >= 0) {
				if (!this.dropping) {
					out.write(buffer, 0, read);
					out.flush();
				}
			}
		}
		catch (IOException ex) {
			// one side closed: so does the other
		}
	}

	private static void daemon(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
	}

}
