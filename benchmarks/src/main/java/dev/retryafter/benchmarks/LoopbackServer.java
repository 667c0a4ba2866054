package dev.retryafter.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

/**
 * The JDK HTTP server on 127.0.0.1, a random port, with a thread per concurrent exchange (an
 * origin that holds a whole herd at once needs that many).
 */
final class LoopbackServer implements AutoCloseable {

	static {
		// The JDK server closes idle keep-alive connections beyond 200 by default; a herd of
		// 1000 would then see its pooled connections die under it, which is not what is measured.
		if (System.getProperty("sun.net.httpserver.maxIdleConnections") == null) {
			System.setProperty("sun.net.httpserver.maxIdleConnections", "10000");
		}
		// It writes a response's headers and body separately; with Nagle's algorithm on, the
		// body then waits for the client's delayed ACK (about 40 ms on Linux), which would add
		// to every 200 with a body what no real origin adds.
		if (System.getProperty("sun.net.httpserver.nodelay") == null) {
			System.setProperty("sun.net.httpserver.nodelay", "true");
		}
	}

	private final HttpServer server;

	private final ExecutorService executor;

	LoopbackServer(HttpHandler handler) {
		try {
			this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		AtomicInteger threads = new AtomicInteger();
		this.executor = Executors.newCachedThreadPool((task) -> {
			Thread thread = new Thread(null, task, "origin-" + threads.incrementAndGet(), 256 * 1024);
			thread.setDaemon(true);
			return thread;
		});
		this.server.setExecutor(this.executor);
		this.server.createContext("/", handler);
		this.server.start();
	}

	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + path);
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
