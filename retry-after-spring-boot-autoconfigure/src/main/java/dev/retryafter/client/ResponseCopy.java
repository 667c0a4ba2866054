package dev.retryafter.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

import dev.retryafter.call.RecordedBytes;
import dev.retryafter.core.ClassNames;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/**
 * An in-memory copy of a response that is about to be retried, so its connection can go back
 * to the pool during the wait while the response can still be handed to the caller if the
 * retry is then called off. The body is kept up to a limit: retryable responses (429, 503)
 * carry short bodies, and a longer one is not worth holding on to.
 */
final class ResponseCopy implements ClientHttpResponse {

	private static final byte[] NO_BYTES = {};

	private final HttpStatusCode statusCode;

	private final String statusText;

	private final HttpHeaders headers;

	private final byte[] body;

	private final boolean complete;

	/** Where the body's bytes were reserved, until {@link #release()} gives them back. */
	private final @Nullable RecordedBytes recorded;

	private boolean released;

	private ResponseCopy(HttpStatusCode statusCode, String statusText, HttpHeaders headers, byte[] body,
			boolean complete, @Nullable RecordedBytes recorded) {
		this.statusCode = statusCode;
		this.statusText = statusText;
		this.headers = headers;
		this.body = body;
		this.complete = complete;
		this.recorded = recorded;
	}

	/**
	 * Copies {@code response} (its body up to {@code limit} bytes, if they fit in what
	 * {@code recordedBytes} has left) and closes it. Reading stops at the limit, and a longer
	 * body is abandoned: its connection is dropped rather than drained, since every Spring
	 * request factory's {@code close()} reads a body to its end, and a hostile server's body
	 * need never end. A copy that cannot stand in for the response (a body too long, cut short,
	 * or over the application's total) keeps no bytes at all. A pending interrupt of the
	 * calling thread is still pending on return, whatever the transport's body stream did.
	 * @param response the response, closed on return
	 * @param limit the most body bytes to keep
	 * @param recordedBytes the application's total of bytes kept for retries; the copy's
	 * bytes are reserved there until {@link #release()}
	 * @return the copy
	 * @throws IOException if the status cannot be read
	 */
	static ResponseCopy of(ClientHttpResponse response, int limit, RecordedBytes recordedBytes) throws IOException {
		boolean interrupted = Thread.currentThread().isInterrupted();
		try {
			return copy(response, limit, recordedBytes);
		}
		finally {
			if (interrupted) {
				// The JDK 17 HttpClient's body stream clears a pending interrupt as it reads
				// (it waits for its next buffer and goes on waiting; later JDKs keep the flag
				// and throw): the wait before the retry must still see it and stop.
				Thread.currentThread().interrupt();
			}
		}
	}

	private static ResponseCopy copy(ClientHttpResponse response, int limit, RecordedBytes recordedBytes)
			throws IOException {
		try {
			HttpStatusCode statusCode = response.getStatusCode();
			HttpHeaders headers = HttpHeaders.copyOf(response.getHeaders());
			String statusText = statusText(response);
			byte[] body;
			boolean complete;
			try {
				InputStream in = response.getBody();
				body = in.readNBytes(limit);
				complete = in.read() == -1;
				if (!complete) {
					abandon(in);
				}
			}
			catch (IOException ex) {
				// A body cut short is only ever needed if the retry is called off; then the
				// caller gets an exception rather than a truncated response.
				body = NO_BYTES;
				complete = false;
			}
			if (!complete) {
				return new ResponseCopy(statusCode, statusText, headers, NO_BYTES, false, null);
			}
			if (!recordedBytes.reserve(body.length)) {
				// Read (so the connection is reused) but not kept: the same copy as a body too long.
				recordedBytes.notRecorded(false);
				return new ResponseCopy(statusCode, statusText, headers, NO_BYTES, false, null);
			}
			return new ResponseCopy(statusCode, statusText, headers, body, true, recordedBytes);
		}
		finally {
			response.close();
		}
	}

	/**
	 * Gives the body's bytes back to the application's total: the call no longer keeps the
	 * copy for itself (it sends the retry, or hands the copy to its caller). Once only.
	 */
	void release() {
		if (this.recorded != null && !this.released) {
			this.released = true;
			this.recorded.release(this.body.length);
		}
	}

	/**
	 * Ends a body without reading the rest, so that the response's own {@code close()} finds
	 * nothing left to drain. Closing the stream does that for {@code HttpURLConnection} (it
	 * drops a connection whose rest is not already buffered) and the JDK client (it cancels
	 * the exchange); Apache HttpClient 5 drains on close, but aborts on request.
	 */
	private static void abandon(InputStream body) throws IOException {
		if (ClassNames.isInstance(body, HttpComponentsBody.STREAM)) {
			HttpComponentsBody.abort(body);
		}
		else {
			body.close();
		}
	}

	private static String statusText(ClientHttpResponse response) {
		try {
			return response.getStatusText();
		}
		catch (IOException ex) {
			return "";
		}
	}

	/**
	 * Whether the whole body was copied.
	 * @return whether the copy can stand in for the original
	 */
	boolean isComplete() {
		return this.complete;
	}

	@Override
	public HttpStatusCode getStatusCode() {
		return this.statusCode;
	}

	@Override
	public String getStatusText() {
		return this.statusText;
	}

	@Override
	public HttpHeaders getHeaders() {
		return this.headers;
	}

	@Override
	public InputStream getBody() {
		return new ByteArrayInputStream(this.body);
	}

	@Override
	public void close() {
		// Nothing to release: the original was closed when the copy was made.
	}

	/**
	 * Apache HttpClient 5's body stream, loaded only when a response came from it, so that
	 * HttpClient 5 stays an optional dependency.
	 */
	private static final class HttpComponentsBody {

		static final String STREAM = "org.apache.hc.core5.http.io.EofSensorInputStream";

		static void abort(InputStream body) throws IOException {
			((org.apache.hc.core5.http.io.EofSensorInputStream) body).abort();
		}

	}

}
