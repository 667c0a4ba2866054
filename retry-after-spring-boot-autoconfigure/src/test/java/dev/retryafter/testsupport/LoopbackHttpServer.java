package dev.retryafter.testsupport;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.http.HttpStatus;

/**
 * A tiny scripted HTTP/1.1 origin on a random port of 127.0.0.1, with a log of the requests
 * it received.
 * <p>
 * Written on plain sockets rather than the JDK's {@code HttpServer} because tests need what
 * that server does not allow: a scripted {@code Date} field (it always stamps its own),
 * several {@code Retry-After} field lines, a connection closed or reset instead of an answer,
 * and an answer that never comes. Each path has a script of replies served in order; the
 * last one repeats. Unscripted paths answer 404.
 */
public final class LoopbackHttpServer implements AutoCloseable {

	private final ServerSocket serverSocket;

	private final ExecutorService executor;

	private final Map<String, Deque<Reply>> scripts = new ConcurrentHashMap<>();

	private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();

	/** When each request was read, on {@link System#nanoTime()}, in the order of {@link #requests}. */
	private final List<Long> receivedNanos = new CopyOnWriteArrayList<>();

	/** When each answer was taken up, on {@link System#nanoTime()}, in answering order. */
	private final List<Long> answeredNanos = new CopyOnWriteArrayList<>();

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final AtomicInteger acceptedConnections = new AtomicInteger();

	private final CountDownLatch closed = new CountDownLatch(1);

	private LoopbackHttpServer(ServerSocket serverSocket) {
		this.serverSocket = serverSocket;
		this.executor = Executors.newCachedThreadPool((runnable) -> {
			Thread thread = new Thread(runnable, "loopback-http-" + serverSocket.getLocalPort());
			thread.setDaemon(true);
			return thread;
		});
		this.executor.execute(this::acceptLoop);
	}

	/**
	 * Starts a server on a random port of 127.0.0.1.
	 * @return the running server
	 * @throws IOException if it cannot bind
	 */
	public static LoopbackHttpServer start() throws IOException {
		return new LoopbackHttpServer(new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1")));
	}

	/**
	 * Scripts the replies to requests for {@code path} (query ignored): served in order, the
	 * last repeating.
	 * @param path the path, e.g. {@code /report}
	 * @param replies one or more replies
	 * @return this server
	 */
	public LoopbackHttpServer on(String path, Reply... replies) {
		if (replies.length == 0) {
			throw new IllegalArgumentException("at least one reply");
		}
		this.scripts.put(path, new ArrayDeque<>(List.of(replies)));
		return this;
	}

	/**
	 * The URI of {@code path} on this server.
	 * @param path the path (and query), starting with {@code /}
	 * @return {@code http://127.0.0.1:<port><path>}
	 */
	public URI uri(String path) {
		return URI.create("http://127.0.0.1:" + port() + path);
	}

	/**
	 * The port the server listens on.
	 * @return the port
	 */
	public int port() {
		return this.serverSocket.getLocalPort();
	}

	/**
	 * Every request received so far, in arrival order.
	 * @return the requests
	 */
	public List<RecordedRequest> requests() {
		return List.copyOf(this.requests);
	}

	/**
	 * When each request received so far had been read, on {@link System#nanoTime()}: the
	 * server's own arrival stamps, in the order of {@link #requests()}.
	 * @return the arrival stamps
	 */
	public List<Long> receivedNanos() {
		return List.copyOf(this.receivedNanos);
	}

	/**
	 * When the server took up each answer sent so far (before any scripted delay), on
	 * {@link System#nanoTime()}: a client cannot have read an answer before its stamp (a
	 * stamp taken after the write could be later than the client's read on a busy machine).
	 * In answering order, which is the order of {@link #requests()} for a client that sends
	 * one request at a time.
	 * @return the answer stamps
	 */
	public List<Long> answeredNanos() {
		return List.copyOf(this.answeredNanos);
	}

	/**
	 * Every request received so far, as {@code METHOD target}.
	 * @return the request lines, in arrival order
	 */
	public List<String> requestLines() {
		return this.requests.stream().map((request) -> request.method() + " " + request.target()).toList();
	}

	/**
	 * How many connections the server has accepted so far.
	 * @return the count
	 */
	public int acceptedConnections() {
		return this.acceptedConnections.get();
	}

	/**
	 * How many accepted connections are still open on the server's side.
	 * @return the count
	 */
	public int openConnections() {
		return this.sockets.size();
	}

	@Override
	public void close() throws IOException {
		this.closed.countDown();
		this.serverSocket.close();
		for (Socket socket : this.sockets) {
			socket.close();
		}
		this.executor.shutdownNow();
		try {
			this.executor.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void acceptLoop() {
		while (!this.serverSocket.isClosed()) {
			try {
				Socket socket = this.serverSocket.accept();
				this.acceptedConnections.incrementAndGet();
				this.sockets.add(socket);
				this.executor.execute(() -> serve(socket));
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void serve(Socket socket) {
		try (socket) {
			InputStream in = new BufferedInputStream(socket.getInputStream());
			OutputStream out = socket.getOutputStream();
			while (true) {
				RecordedRequest request = readRequest(in);
				if (request == null) {
					return;
				}
				this.receivedNanos.add(System.nanoTime());
				this.requests.add(request);
				Reply reply = nextReply(request.path());
				this.answeredNanos.add(System.nanoTime());
				boolean open = reply.send(socket, out, this.closed);
				if (!open || "close".equalsIgnoreCase(request.header("Connection"))) {
					return;
				}
			}
		}
		catch (IOException | InterruptedException ex) {
			// The client went away or the server is closing: nothing to answer.
		}
		finally {
			this.sockets.remove(socket);
		}
	}

	private Reply nextReply(String path) {
		Deque<Reply> script = this.scripts.get(path);
		if (script == null) {
			return Reply.status(404);
		}
		synchronized (script) {
			return (script.size() > 1) ? script.removeFirst() : script.getFirst();
		}
	}

	private static RecordedRequest readRequest(InputStream in) throws IOException {
		String requestLine = readLine(in);
		if (requestLine == null || requestLine.isEmpty()) {
			return null;
		}
		String[] parts = requestLine.split(" ");
		Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		for (String line = readLine(in); line != null && !line.isEmpty(); line = readLine(in)) {
			int colon = line.indexOf(':');
			headers.computeIfAbsent(line.substring(0, colon).trim(), (name) -> new ArrayList<>())
				.add(line.substring(colon + 1).trim());
		}
		byte[] body = readBody(in, headers);
		return new RecordedRequest(parts[0], parts[1], Collections.unmodifiableMap(headers), body);
	}

	private static byte[] readBody(InputStream in, Map<String, List<String>> headers) throws IOException {
		List<String> encoding = headers.get("Transfer-Encoding");
		if (encoding != null && encoding.get(0).toLowerCase(Locale.ROOT).contains("chunked")) {
			ByteArrayOutputStream body = new ByteArrayOutputStream();
			for (int size = Integer.parseInt(readLine(in).trim(), 16); size > 0; size = Integer
				.parseInt(readLine(in).trim(), 16)) {
				body.write(in.readNBytes(size));
				readLine(in);
			}
			readLine(in);
			return body.toByteArray();
		}
		List<String> length = headers.get("Content-Length");
		return (length != null) ? in.readNBytes(Integer.parseInt(length.get(0))) : new byte[0];
	}

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		for (int b = in.read(); b != -1; b = in.read()) {
			if (b == '\n') {
				String text = line.toString(StandardCharsets.ISO_8859_1);
				return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
			}
			line.write(b);
		}
		return (line.size() > 0) ? line.toString(StandardCharsets.ISO_8859_1) : null;
	}

	/**
	 * One request as the server received it.
	 *
	 * @param method the method
	 * @param target the request target (path and query)
	 * @param headers the header fields, names case-insensitive
	 * @param body the body bytes, empty if none
	 */
	public record RecordedRequest(String method, String target, Map<String, List<String>> headers, byte[] body) {

		/**
		 * The path, without the query.
		 * @return the path
		 */
		public String path() {
			int query = this.target.indexOf('?');
			return (query >= 0) ? this.target.substring(0, query) : this.target;
		}

		/**
		 * The first value of a header field.
		 * @param name the field name
		 * @return its first value, or {@code null}
		 */
		public String header(String name) {
			List<String> values = this.headers.get(name);
			return (values != null) ? values.get(0) : null;
		}

		/**
		 * The body as UTF-8 text.
		 * @return the body
		 */
		public String bodyText() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

	}

	/**
	 * What the server does with one request.
	 */
	public static final class Reply {

		private enum Action {

			RESPOND, CLOSE, RESET, HANG, ENDLESS, TRUNCATED_HEAD, STALLED_BODY

		}

		/** Body bytes an endless reply has written so far, across its connections. */
		private final AtomicLong bytesWritten = new AtomicLong();

		/** Whether a client closed the connection while an endless reply was writing. */
		private final AtomicBoolean abandonedByClient = new AtomicBoolean();

		private String truncatedHead = "";

		private int declaredLength;

		private final Action action;

		private final int status;

		private final List<String[]> headers = new ArrayList<>();

		private byte[] body = new byte[0];

		private Duration delay = Duration.ZERO;

		private Reply(Action action, int status) {
			this.action = action;
			this.status = status;
		}

		/**
		 * A response with {@code status} and no body.
		 * @param status the status code
		 * @return the reply
		 */
		public static Reply status(int status) {
			return new Reply(Action.RESPOND, status);
		}

		/**
		 * Closes the connection (FIN) after reading the request, without answering.
		 * @return the reply
		 */
		public static Reply closeWithoutResponse() {
			return new Reply(Action.CLOSE, 0);
		}

		/**
		 * Resets the connection (RST) after reading the request, without answering.
		 * @return the reply
		 */
		public static Reply resetConnection() {
			return new Reply(Action.RESET, 0);
		}

		/**
		 * Never answers; the connection stays open until the client gives up or the server
		 * closes.
		 * @return the reply
		 */
		public static Reply neverAnswer() {
			return new Reply(Action.HANG, 0);
		}

		/**
		 * A chunked response with {@code status} whose body never ends: chunks are written
		 * until the client closes the connection (or the server closes).
		 * @param status the status code
		 * @return the reply
		 */
		public static Reply endlessBody(int status) {
			return new Reply(Action.ENDLESS, status);
		}

		/**
		 * Writes {@code head}, the start of a response cut off in its header section, then
		 * closes the connection.
		 * @param head the bytes sent (ISO-8859-1), e.g. a status line and half a field
		 * @return the reply
		 */
		public static Reply closeMidHeaders(String head) {
			Reply reply = new Reply(Action.TRUNCATED_HEAD, 0);
			reply.truncatedHead = head;
			return reply;
		}

		/**
		 * A response with {@code status} that declares a body of {@code declaredLength}
		 * bytes, sends only {@code start}, then sends nothing more until the client gives up
		 * or the server closes.
		 * @param status the status code
		 * @param start the part of the body that is sent
		 * @param declaredLength the {@code Content-Length}, more than {@code start} holds
		 * @return the reply
		 */
		public static Reply stalledBody(int status, String start, int declaredLength) {
			Reply reply = new Reply(Action.STALLED_BODY, status);
			reply.body = start.getBytes(StandardCharsets.UTF_8);
			reply.declaredLength = declaredLength;
			return reply;
		}

		/**
		 * Body bytes an {@link #endlessBody endless} reply has written so far.
		 * @return the count
		 */
		public long bytesWritten() {
			return this.bytesWritten.get();
		}

		/**
		 * Whether the client closed the connection while an {@link #endlessBody endless}
		 * reply was still writing.
		 * @return whether the client gave up on the body
		 */
		public boolean abandonedByClient() {
			return this.abandonedByClient.get();
		}

		/**
		 * Adds a header field line (a name may be added more than once).
		 * @param name the field name
		 * @param value the field value
		 * @return this reply
		 */
		public Reply header(String name, String value) {
			this.headers.add(new String[] { name, value });
			return this;
		}

		/**
		 * Sets the body.
		 * @param body the body as UTF-8 text
		 * @return this reply
		 */
		public Reply body(String body) {
			return body(body.getBytes(StandardCharsets.UTF_8));
		}

		/**
		 * Sets the body.
		 * @param body the body bytes
		 * @return this reply
		 */
		public Reply body(byte[] body) {
			this.body = body.clone();
			return this;
		}

		/**
		 * Waits for real before answering (for client read timeouts).
		 * @param delay the wait
		 * @return this reply
		 */
		public Reply after(Duration delay) {
			this.delay = delay;
			return this;
		}

		/** Returns whether the connection may serve another request. */
		boolean send(Socket socket, OutputStream out, CountDownLatch closed) throws IOException, InterruptedException {
			if (closed.await(this.delay.toMillis(), TimeUnit.MILLISECONDS)) {
				return false;
			}
			switch (this.action) {
				case CLOSE -> {
					return false;
				}
				case RESET -> {
					socket.setSoLinger(true, 0);
					return false;
				}
				case HANG -> {
					closed.await();
					return false;
				}
				case ENDLESS -> {
					writeEndlessBody(out, closed);
					return false;
				}
				case STALLED_BODY -> {
					StringBuilder head = statusLine();
					for (String[] header : this.headers) {
						head.append(header[0]).append(": ").append(header[1]).append("\r\n");
					}
					head.append("Content-Length: ").append(this.declaredLength).append("\r\n\r\n");
					out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
					out.write(this.body);
					out.flush();
					closed.await();
					return false;
				}
				case TRUNCATED_HEAD -> {
					out.write(this.truncatedHead.getBytes(StandardCharsets.ISO_8859_1));
					out.flush();
					return false;
				}
				default -> {
					write(out);
					return true;
				}
			}
		}

		private void writeEndlessBody(OutputStream out, CountDownLatch closed) throws IOException {
			StringBuilder head = statusLine();
			for (String[] header : this.headers) {
				head.append(header[0]).append(": ").append(header[1]).append("\r\n");
			}
			head.append("Transfer-Encoding: chunked\r\n\r\n");
			byte[] chunk = new byte[8192];
			Arrays.fill(chunk, (byte) 'x');
			byte[] chunkHead = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
			byte[] chunkEnd = "\r\n".getBytes(StandardCharsets.ISO_8859_1);
			try {
				out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
				while (closed.getCount() > 0) {
					out.write(chunkHead);
					out.write(chunk);
					out.write(chunkEnd);
					out.flush();
					this.bytesWritten.addAndGet(chunk.length);
				}
			}
			catch (SocketException ex) {
				// Only a client that closed its end stops an endless body.
				this.abandonedByClient.set(true);
			}
		}

		private StringBuilder statusLine() {
			HttpStatus known = HttpStatus.resolve(this.status);
			return new StringBuilder("HTTP/1.1 ").append(this.status)
				.append(' ')
				.append((known != null) ? known.getReasonPhrase() : "Status")
				.append("\r\n");
		}

		private void write(OutputStream out) throws IOException {
			StringBuilder head = statusLine();
			for (String[] header : this.headers) {
				head.append(header[0]).append(": ").append(header[1]).append("\r\n");
			}
			head.append("Content-Length: ").append(this.body.length).append("\r\n\r\n");
			try {
				out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
				out.write(this.body);
				out.flush();
			}
			catch (SocketException ex) {
				// The client gave up (e.g. a read timeout) before the answer was written.
			}
		}

	}

}
