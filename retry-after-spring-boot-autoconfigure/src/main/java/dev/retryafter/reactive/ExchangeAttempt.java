package dev.retryafter.reactive;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.call.RecordedBytes;
import dev.retryafter.call.RetryCall;
import dev.retryafter.api.IoFailures;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.StopReason;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.client.ClientResponse;

/**
 * How one attempt ended: a response or an error, and its outcome for the planner.
 */
final class ExchangeAttempt {

	private static final byte[] NO_BYTES = {};

	private final @Nullable ClientResponse response;

	private final @Nullable Throwable failure;

	private final AttemptOutcome outcome;

	/** Whether the response is whole: false for a copy whose body was too long to keep. */
	private final boolean complete;

	/** The bytes a kept copy reserved in the application's total, until released. */
	private final @Nullable RecordedBytes recorded;

	private final long reserved;

	private final AtomicBoolean released = new AtomicBoolean();

	private ExchangeAttempt(@Nullable ClientResponse response, @Nullable Throwable failure, AttemptOutcome outcome,
			boolean complete) {
		this(response, failure, outcome, complete, null, 0);
	}

	private ExchangeAttempt(@Nullable ClientResponse response, @Nullable Throwable failure, AttemptOutcome outcome,
			boolean complete, @Nullable RecordedBytes recorded, long reserved) {
		this.response = response;
		this.failure = failure;
		this.outcome = outcome;
		this.complete = complete;
		this.recorded = recorded;
		this.reserved = reserved;
	}

	static ExchangeAttempt responded(ClientResponse response, AttemptOutcome.Response outcome) {
		return new ExchangeAttempt(response, null, outcome, true);
	}

	/**
	 * The attempt that failed with {@code failure}, classified as the blocking adapter's
	 * attempts are; {@code null} when nothing in its cause chain is an I/O failure (it is the
	 * caller's error, not an attempt's outcome).
	 */
	static @Nullable ExchangeAttempt failed(Throwable failure) {
		IoFailureKind kind = IoFailures.classifyCause(failure);
		return (kind != null) ? new ExchangeAttempt(null, failure, new AttemptOutcome.IoFailure(kind), true) : null;
	}

	AttemptOutcome outcome() {
		return this.outcome;
	}

	/** Hands the caller what the attempt produced, exactly as received. */
	Mono<ClientResponse> deliver() {
		if (this.response != null) {
			return Mono.just(this.response);
		}
		return Mono.error(Objects.requireNonNull(this.failure));
	}

	/**
	 * Reads the response's body into memory before waiting, which returns its connection
	 * to the pool, and keeps a copy in case the retry is called off. A body too long to
	 * keep (or one that fails mid-way) is dropped, and so is its connection; one that does
	 * not fit in what {@code recordedBytes} has left is read but not kept. Either way the
	 * copy cannot stand in for the response.
	 * @param recordedBytes the application's total of bytes kept for retries; a kept body's
	 * bytes are reserved there until {@link #release()}
	 */
	Mono<ExchangeAttempt> keepForRetry(RecordedBytes recordedBytes) {
		ClientResponse response = this.response;
		if (response == null) {
			return Mono.just(this);
		}
		return DataBufferUtils.join(response.body(BodyExtractors.toDataBuffers()), RetryCall.BODY_COPY_LIMIT)
			.map(ExchangeAttempt::bytesOf)
			.defaultIfEmpty(NO_BYTES)
			.map((bytes) -> {
				if (!recordedBytes.reserve(bytes.length)) {
					recordedBytes.notRecorded(false);
					return new ExchangeAttempt(copy(response, NO_BYTES), null, this.outcome, false);
				}
				return new ExchangeAttempt(copy(response, bytes), null, this.outcome, true, recordedBytes,
						bytes.length);
			})
			.onErrorResume((ex) -> Mono.just(new ExchangeAttempt(copy(response, NO_BYTES), null, this.outcome, false)));
	}

	/**
	 * Gives the kept body's bytes back to the application's total, once: the wait ended (the
	 * retry is sent, or the copy goes to the caller), or the call was cancelled or failed.
	 */
	void release() {
		if (this.recorded != null && this.released.compareAndSet(false, true)) {
			this.recorded.release(this.reserved);
		}
	}

	/**
	 * Hands the caller the last outcome when the next attempt is called off; a response
	 * whose body was too long to keep cannot be handed back, so the caller learns why
	 * nothing more was sent instead.
	 */
	Mono<ClientResponse> deliverInsteadOfRetry(String origin, StopReason reason, Duration timeLeft) {
		if (!this.complete) {
			return Mono.error(new RetryRefusedException(origin, reason, timeLeft));
		}
		return deliver();
	}

	Mono<Void> discard() {
		return (this.response != null) ? this.response.releaseBody() : Mono.empty();
	}

	private static byte[] bytesOf(DataBuffer joined) {
		try {
			byte[] bytes = new byte[joined.readableByteCount()];
			joined.read(bytes);
			return bytes;
		}
		finally {
			DataBufferUtils.release(joined);
		}
	}

	private static ClientResponse copy(ClientResponse response, byte[] body) {
		return ClientResponse.create(response.statusCode(), response.strategies())
			.headers((headers) -> headers.addAll(response.headers().asHttpHeaders()))
			.cookies((cookies) -> cookies.addAll(response.cookies()))
			.request(response.request())
			.body(Flux.defer(() -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(body))))
			.build();
	}

}
