package dev.retryafter.reactive;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.call.RecordedBytes;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ClientHttpRequest;
import org.springframework.http.client.reactive.ClientHttpRequestDecorator;
import org.springframework.web.reactive.function.BodyInserter;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.ClientRequest;

/**
 * The body of one call's request, recorded as the first attempt writes it so that a retry
 * sends the same bytes without running the body inserter again.
 * <p>
 * A {@code BodyInserter} cannot say whether it can be written twice: one made by
 * {@code BodyInserters.fromValue} or from form data can, one over a one-shot {@code Flux}
 * cannot. So the body is never written twice: the bytes the first attempt sends pass through
 * here on their way to the connection and are kept (with the {@code Content-Type} the writer
 * chose), and every retry writes those bytes. A body is replayable when:
 * <ul>
 * <li>the request has none;</li>
 * <li>it was never written (the connection failed first), so its inserter is still
 * unused;</li>
 * <li>it was written completely, as one stream of at most {@link #LIMIT} bytes.</li>
 * </ul>
 * A larger body, a body that does not fit in what is left of the application's total of
 * recorded bytes ({@link RecordedBytes}), a body written with flushes ({@code writeAndFlushWith},
 * a streaming upload) or one whose writing did not finish is not kept, and the request is not retried (reason
 * {@code non-idempotent}: a body that cannot be sent again forbids a retry).
 * <p>
 * Only a request that a response could make the call retry is recorded: a {@code POST}
 * without an idempotency key is retried only when its first attempt never got to write the
 * body (a connection failure), so its body passes through without a copy, and the heap holds
 * nothing for it. A recorded body is copied once, chunk by chunk as it is written, and a
 * retry sends those chunks.
 */
final class ReplayableBody {

	/** Most bytes kept: the default in-memory limit of Spring's codecs. */
	static final int LIMIT = 256 * 1024;

	private static final int UNUSED = 0;

	private static final int WRITING = 1;

	private static final int KEPT = 2;

	private static final int LOST = 3;

	private final @Nullable BodyInserter<?, ? super ClientHttpRequest> inserter;

	private ClientRequest request;

	private volatile int state;

	private volatile @Nullable List<byte[]> chunks;

	private volatile long length;

	private volatile @Nullable MediaType contentType;

	private final RecordedBytes recordedBytes;

	/** The bytes this body reserved in the application's total; guarded by {@code this}. */
	private long reserved;

	/** Whether the call ended, after which nothing more is reserved; guarded by {@code this}. */
	private boolean released;

	private ReplayableBody(ClientRequest request, @Nullable BodyInserter<?, ? super ClientHttpRequest> inserter,
			RecordedBytes recordedBytes) {
		this.request = request;
		this.inserter = inserter;
		this.recordedBytes = recordedBytes;
	}

	/**
	 * Prepares the body of {@code request}.
	 * @param request the request as the filter received it
	 * @param record whether to keep a copy of the body as it is written: only when a retry
	 * after the body was sent is possible
	 * @param recordedBytes the application's total of bytes kept for retries: a body that does
	 * not fit in what is left is not kept, as one over {@link #LIMIT}
	 * @return the body
	 */
	static ReplayableBody of(ClientRequest request, boolean record, RecordedBytes recordedBytes) {
		BodyInserter<?, ? super ClientHttpRequest> inserter = request.body();
		if (inserter == (Object) BodyInserters.empty()) {
			// No body: every attempt can send the request as it is.
			return new ReplayableBody(request, null, recordedBytes);
		}
		ReplayableBody body = new ReplayableBody(request, inserter, recordedBytes);
		body.request = ClientRequest.from(request).body(record ? body::insert : body::insertOnce).build();
		return body;
	}

	/**
	 * The request each attempt sends.
	 * @return the request, recording or replaying its body
	 */
	ClientRequest request() {
		return this.request;
	}

	/**
	 * Whether another attempt can send the same body.
	 * @return whether the body is replayable
	 */
	boolean replayable() {
		int state = this.state;
		return this.inserter == null || state == UNUSED || state == KEPT;
	}

	/**
	 * The bytes this body keeps on the heap for a retry.
	 * @return the recorded bytes; {@code 0} while writing, or when nothing is kept
	 */
	long keptBytes() {
		return (this.chunks != null) ? this.length : 0;
	}

	/**
	 * Lets the recorded bytes go once the call has ended, however it ended: no attempt will
	 * send them again. Idempotent, and a chunk written after it is not kept.
	 */
	synchronized void release() {
		this.released = true;
		giveBack();
		this.chunks = null;
	}

	/** Takes room for a chunk about to be kept, unless the call ended or the total is reached. */
	private synchronized boolean take(long bytes) {
		if (this.released || !this.recordedBytes.reserve(bytes)) {
			return false;
		}
		this.reserved += bytes;
		return true;
	}

	/** Gives back every byte reserved so far: the copy is let go. */
	private synchronized void giveBack() {
		this.recordedBytes.release(this.reserved);
		this.reserved = 0;
	}

	@SuppressWarnings("unchecked")
	private Mono<Void> insert(ClientHttpRequest outgoing, BodyInserter.Context context) {
		List<byte[]> kept = this.chunks;
		if (kept != null) {
			MediaType contentType = this.contentType;
			if (contentType != null) {
				outgoing.getHeaders().setContentType(contentType);
			}
			outgoing.getHeaders().setContentLength(this.length);
			// Wrapped, not copied: a buffer over a kept chunk is only ever read.
			return outgoing.writeWith(Flux.fromIterable(kept).map(outgoing.bufferFactory()::wrap));
		}
		if (this.state != UNUSED) {
			return Mono.error(new IllegalStateException("The request body cannot be written again"));
		}
		this.state = WRITING;
		BodyInserter<?, ClientHttpRequest> original = (BodyInserter<?, ClientHttpRequest>) this.inserter;
		return original.insert(new Recorder(outgoing), context);
	}

	/**
	 * Writes the body through the original inserter, keeping nothing: once it ran, the body
	 * cannot be sent again.
	 */
	@SuppressWarnings("unchecked")
	private Mono<Void> insertOnce(ClientHttpRequest outgoing, BodyInserter.Context context) {
		if (this.state != UNUSED) {
			return Mono.error(new IllegalStateException("The request body cannot be written again"));
		}
		this.state = LOST;
		return ((BodyInserter<?, ClientHttpRequest>) this.inserter).insert(outgoing, context);
	}

	/**
	 * Passes the bytes the inserter writes on to the connection, keeping a copy.
	 */
	private final class Recorder extends ClientHttpRequestDecorator {

		private final List<byte[]> copy = new ArrayList<>();

		private long size;

		private boolean overflow;

		Recorder(ClientHttpRequest delegate) {
			super(delegate);
		}

		@Override
		public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
			// The writer has set the headers by now; a replay must send the same type.
			ReplayableBody.this.contentType = getHeaders().getContentType();
			return super.writeWith(Flux.from(body).doOnNext(this::keep).doOnComplete(this::written));
		}

		@Override
		public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
			ReplayableBody.this.state = LOST;
			return super.writeAndFlushWith(body);
		}

		@Override
		public Mono<Void> setComplete() {
			if (ReplayableBody.this.state == WRITING) {
				ReplayableBody.this.contentType = getHeaders().getContentType();
				ReplayableBody.this.length = 0;
				ReplayableBody.this.chunks = List.of();
				ReplayableBody.this.state = KEPT;
			}
			return super.setComplete();
		}

		private void keep(DataBuffer buffer) {
			int length = buffer.readableByteCount();
			if (this.overflow) {
				return;
			}
			if (this.size + length > LIMIT) {
				overflow();
				return;
			}
			if (length == 0) {
				return;
			}
			if (!take(length)) {
				if (!ReplayableBody.this.released) {
					ReplayableBody.this.recordedBytes.notRecorded(true);
				}
				overflow();
				return;
			}
			byte[] chunk = new byte[length];
			buffer.toByteBuffer(buffer.readPosition(), ByteBuffer.wrap(chunk), 0, length);
			this.copy.add(chunk);
			this.size += length;
		}

		/** Too long to replay, or over the total: what was kept so far is let go at once. */
		private void overflow() {
			this.overflow = true;
			this.copy.clear();
			giveBack();
		}

		private void written() {
			if (this.overflow || ReplayableBody.this.state != WRITING) {
				ReplayableBody.this.state = LOST;
				giveBack();
				return;
			}
			ReplayableBody.this.length = this.size;
			ReplayableBody.this.chunks = List.copyOf(this.copy);
			ReplayableBody.this.state = KEPT;
		}

	}

}
