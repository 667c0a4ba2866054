package dev.retryafter.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.call.RecordedBytes;
import dev.retryafter.call.RetryCall;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.mock.http.client.MockClientHttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ResponseCopy}.
 */
class ResponseCopyTests {

	private final RecordedBytes recorded = new RecordedBytes(RecordedBytes.DEFAULT_MAX);

	@Test
	void whenBodyFitsThenCopiedWholeWithStatusAndHeadersAndTheOriginalClosed() throws IOException {
		ClosingResponse original = new ClosingResponse(new ByteArrayInputStream(bytes("slow down")), 429);
		original.getHeaders().add("Retry-After", "3");
		original.getHeaders().add("Retry-After", "4");

		ResponseCopy copy = ResponseCopy.of(original, 64, this.recorded);

		assertThat(original.closed).isTrue();
		assertThat(copy.isComplete()).isTrue();
		assertThat(copy.getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(copy.getStatusText()).isEqualTo("Too Many Requests");
		assertThat(copy.getHeaders().get("Retry-After")).containsExactly("3", "4");
		assertThat(copy.getBody().readAllBytes()).isEqualTo(bytes("slow down"));
		assertThat(copy.getBody().readAllBytes()).as("readable again").isEqualTo(bytes("slow down"));
	}

	@Test
	void whenBodyIsExactlyTheLimitThenComplete() throws IOException {
		ResponseCopy copy = ResponseCopy.of(new ClosingResponse(new ByteArrayInputStream(new byte[64]), 503), 64,
				this.recorded);

		assertThat(copy.isComplete()).isTrue();
		assertThat(copy.getBody().readAllBytes()).hasSize(64);
	}

	@Test
	void theLimitOfARetriedResponseIs64KiB() throws IOException {
		ResponseCopy fits = ResponseCopy.of(new ClosingResponse(new ByteArrayInputStream(new byte[65_536]), 503),
				RetryCall.BODY_COPY_LIMIT, this.recorded);
		ResponseCopy over = ResponseCopy.of(new ClosingResponse(new ByteArrayInputStream(new byte[65_537]), 503),
				RetryCall.BODY_COPY_LIMIT, this.recorded);

		assertThat(fits.isComplete()).isTrue();
		assertThat(fits.getBody().readAllBytes()).hasSize(65_536);
		assertThat(over.isComplete()).isFalse();
	}

	@Test
	void whenBodyIsLongerThanTheLimitThenIncompleteAndReadingStopsAtTheLimit() throws IOException {
		CountingStream body = new CountingStream(new byte[10_000]);
		ClosingResponse original = new ClosingResponse(body, 503);

		ResponseCopy copy = ResponseCopy.of(original, 64, this.recorded);

		assertThat(copy.isComplete()).isFalse();
		assertThat(body.read).isEqualTo(65);
		assertThat(original.closed).isTrue();
	}

	@Test
	void whenBodyIsLongerThanTheLimitThenItsStreamIsClosedBeforeTheResponseSoNothingIsDrained() throws IOException {
		CountingStream body = new CountingStream(new byte[10_000]);
		List<String> events = new ArrayList<>();
		body.onClose = () -> events.add("body closed after " + body.read + " bytes");
		ClosingResponse original = new ClosingResponse(body, 503);
		original.onClose = () -> events.add("response closed");

		ResponseCopy.of(original, 64, this.recorded);

		assertThat(events).containsExactly("body closed after 65 bytes", "response closed");
	}

	@Test
	void whenBodyFitsThenItIsLeftForTheResponseToCloseAndReuseItsConnection() throws IOException {
		CountingStream body = new CountingStream(new byte[10]);
		List<String> events = new ArrayList<>();
		body.onClose = () -> events.add("body closed");
		ClosingResponse original = new ClosingResponse(body, 503);
		original.onClose = () -> events.add("response closed");

		ResponseCopy.of(original, 64, this.recorded);

		assertThat(events).containsExactly("response closed");
	}

	@Test
	void whenBodyCannotBeReadThenIncompleteAndTheOriginalClosed() throws IOException {
		InputStream failing = new InputStream() {

			@Override
			public int read() throws IOException {
				throw new IOException("Connection reset");
			}

		};
		ClosingResponse original = new ClosingResponse(failing, 503);

		ResponseCopy copy = ResponseCopy.of(original, 64, this.recorded);

		assertThat(copy.isComplete()).isFalse();
		assertThat(copy.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
		assertThat(original.closed).isTrue();
	}

	@Test
	void whenTheOriginalHeadersChangeLaterThenTheCopyKeepsItsOwn() throws IOException {
		ClosingResponse original = new ClosingResponse(new ByteArrayInputStream(new byte[0]), 503);
		original.getHeaders().add("Retry-After", "3");

		ResponseCopy copy = ResponseCopy.of(original, 64, this.recorded);
		original.getHeaders().set("Retry-After", "9");

		assertThat(copy.getHeaders().get("Retry-After")).containsExactly("3");
	}

	@Test
	void aKeptBodyHoldsItsBytesInTheApplicationsTotalUntilReleasedOnce() throws IOException {
		ResponseCopy copy = ResponseCopy.of(new ClosingResponse(new ByteArrayInputStream(new byte[40]), 429), 64,
				this.recorded);
		assertThat(this.recorded.held()).isEqualTo(40);
		copy.release();
		copy.release();
		assertThat(this.recorded.held()).isZero();
		assertThat(copy.getBody().readAllBytes()).as("still readable by a caller it was handed to").hasSize(40);
	}

	@Test
	void whenTheTotalIsReachedThenTheBodyIsReadButNotKeptAndCounted() throws IOException {
		RecordedBytes total = new RecordedBytes(50);
		ResponseCopy first = ResponseCopy.of(new ClosingResponse(new ByteArrayInputStream(new byte[40]), 429), 64,
				total);
		CountingStream body = new CountingStream(new byte[40]);
		List<String> events = new ArrayList<>();
		body.onClose = () -> events.add("body closed");
		ClosingResponse original = new ClosingResponse(body, 429);
		original.onClose = () -> events.add("response closed");

		ResponseCopy second = ResponseCopy.of(original, 64, total);

		assertThat(first.isComplete()).isTrue();
		assertThat(second.isComplete()).isFalse();
		assertThat(second.getBody().readAllBytes()).isEmpty();
		// Read to its end, so the connection is reused rather than dropped.
		assertThat(body.read).isEqualTo(40);
		assertThat(events).containsExactly("response closed");
		assertThat(total.held()).isEqualTo(40);
		assertThat(total.notRecordedCount(false)).isEqualTo(1);
		second.release();
		first.release();
		assertThat(total.held()).isZero();
	}

	@Test
	void aCopyThatCannotStandInForTheResponseKeepsNoBytes() throws IOException {
		ResponseCopy over = ResponseCopy.of(new ClosingResponse(new ByteArrayInputStream(new byte[65]), 503), 64,
				this.recorded);
		assertThat(over.isComplete()).isFalse();
		assertThat(over.getBody().readAllBytes()).isEmpty();
		assertThat(this.recorded.held()).isZero();
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static final class ClosingResponse extends MockClientHttpResponse {

		private boolean closed;

		private Runnable onClose = () -> {
		};

		ClosingResponse(InputStream body, int status) {
			super(body, status);
		}

		@Override
		public void close() {
			// Only recorded: the tests follow what the copy itself closes.
			this.closed = true;
			this.onClose.run();
		}

	}

	private static final class CountingStream extends ByteArrayInputStream {

		private int read;

		private Runnable onClose = () -> {
		};

		CountingStream(byte[] bytes) {
			super(bytes);
		}

		@Override
		public void close() throws IOException {
			this.onClose.run();
			super.close();
		}

		@Override
		public synchronized int read() {
			int value = super.read();
			this.read += (value != -1) ? 1 : 0;
			return value;
		}

		@Override
		public synchronized int read(byte[] buffer, int offset, int length) {
			int count = super.read(buffer, offset, length);
			this.read += Math.max(count, 0);
			return count;
		}

	}

}
