package dev.retryafter.reactive;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import dev.retryafter.call.RecordedBytes;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.client.reactive.MockClientHttpRequest;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ExchangeStrategies;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a request body costs on the heap: a body that no response could make the call send
 * again is never kept, and a kept one is copied once.
 */
class ReplayableBodyTests {

	private static final URI URL = URI.create("http://127.0.0.1:8080/orders");

	private static final byte[] CHUNK = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

	private final RecordedBytes recorded = new RecordedBytes(RecordedBytes.DEFAULT_MAX);

	@Test
	void whenNotRecordedThenTheBodyPassesThroughUncopiedAndIsNotReplayableOnceWritten() {
		List<byte[]> arrays = new ArrayList<>();
		ReplayableBody body = ReplayableBody.of(post(4, arrays), false, this.recorded);
		assertThat(body.replayable()).isTrue();
		List<DataBuffer> written = write(body);
		// The connection got the caller's own buffers, and nothing was kept.
		assertThat(written).hasSize(4).allSatisfy((buffer) -> assertThat(arrays).anyMatch((array) -> array == array(buffer)));
		assertThat(body.keptBytes()).isZero();
		assertThat(body.replayable()).isFalse();
	}

	@Test
	void whenNotRecordedAndNeverWrittenThenItCanStillBeSent() {
		// A connection failure before the body: the original inserter is still unused.
		ReplayableBody body = ReplayableBody.of(post(4, new ArrayList<>()), false, this.recorded);
		assertThat(body.replayable()).isTrue();
		assertThat(write(body)).hasSize(4);
	}

	@Test
	void whenRecordedThenEachChunkIsCopiedOnceAndEveryRetrySendsTheSameCopies() {
		ReplayableBody body = ReplayableBody.of(post(4, new ArrayList<>()), true, this.recorded);
		write(body);
		assertThat(body.keptBytes()).isEqualTo(4L * CHUNK.length);
		assertThat(body.replayable()).isTrue();
		List<DataBuffer> first = write(body);
		List<DataBuffer> second = write(body);
		assertThat(first).hasSize(4);
		Set<byte[]> firstArrays = Collections.newSetFromMap(new IdentityHashMap<>());
		first.forEach((buffer) -> firstArrays.add(array(buffer)));
		// The retries wrap the kept chunks: no copy per retry.
		assertThat(second).allSatisfy((buffer) -> assertThat(firstArrays).contains(array(buffer)));
		assertThat(String.join("", first.stream().map((buffer) -> buffer.toString(StandardCharsets.US_ASCII)).toList()))
			.isEqualTo(new String(CHUNK, StandardCharsets.US_ASCII).repeat(4));
	}

	@Test
	void whenARecordedBodyOverflowsThenNothingIsKept() {
		ReplayableBody body = ReplayableBody.of(post(ReplayableBody.LIMIT / CHUNK.length + 1, new ArrayList<>()), true, this.recorded);
		write(body);
		assertThat(body.keptBytes()).isZero();
		assertThat(body.replayable()).isFalse();
	}

	@Test
	void aRecordedBodyHoldsItsBytesInTheApplicationsTotalUntilTheCallEnds() {
		ReplayableBody body = ReplayableBody.of(post(4, new ArrayList<>()), true, this.recorded);
		write(body);
		assertThat(this.recorded.held()).isEqualTo(4L * CHUNK.length);
		body.release();
		body.release();
		assertThat(this.recorded.held()).isZero();
		assertThat(this.recorded.notRecordedCount(true)).isZero();
	}

	@Test
	void whenTheTotalIsReachedThenTheBodyIsNotKeptNotReplayableAndCounted() {
		RecordedBytes total = new RecordedBytes(3L * CHUNK.length);
		ReplayableBody body = ReplayableBody.of(post(4, new ArrayList<>()), true, total);
		List<DataBuffer> written = write(body);
		// The connection still gets the whole body; only the copy is let go.
		assertThat(written).hasSize(4);
		assertThat(body.keptBytes()).isZero();
		assertThat(body.replayable()).isFalse();
		assertThat(total.held()).isZero();
		assertThat(total.notRecordedCount(true)).isEqualTo(1);
		body.release();
		assertThat(total.held()).isZero();
	}

	@Test
	void whenAnotherCallHoldsTheRoomThenThisBodyIsNotKeptAndTheOtherKeepsItsBytes() {
		RecordedBytes total = new RecordedBytes(5L * CHUNK.length);
		ReplayableBody first = ReplayableBody.of(post(4, new ArrayList<>()), true, total);
		ReplayableBody second = ReplayableBody.of(post(4, new ArrayList<>()), true, total);
		write(first);
		write(second);
		assertThat(first.replayable()).isTrue();
		assertThat(second.replayable()).isFalse();
		assertThat(total.held()).isEqualTo(4L * CHUNK.length);
		first.release();
		assertThat(total.held()).isZero();
	}

	@Test
	void whenAnOverlongBodyOverflowsThenWhatItReservedIsGivenBackAtOnce() {
		ReplayableBody body = ReplayableBody.of(post(ReplayableBody.LIMIT / CHUNK.length + 1, new ArrayList<>()),
				true, this.recorded);
		write(body);
		assertThat(this.recorded.held()).isZero();
		// Over its own limit, not over the total: not counted as refused by the total.
		assertThat(this.recorded.notRecordedCount(true)).isZero();
	}

	private static ClientRequest post(int chunks, List<byte[]> arrays) {
		Flux<DataBuffer> content = Flux.range(0, chunks).map((i) -> {
			byte[] array = CHUNK.clone();
			arrays.add(array);
			return DefaultDataBufferFactory.sharedInstance.wrap(array);
		});
		return ClientRequest.create(HttpMethod.POST, URL).body(BodyInserters.fromDataBuffers(content)).build();
	}

	private static List<DataBuffer> write(ReplayableBody body) {
		MockClientHttpRequest outgoing = new MockClientHttpRequest(HttpMethod.POST, URL);
		body.request().writeTo(outgoing, ExchangeStrategies.withDefaults()).block();
		return outgoing.getBody().collectList().block();
	}

	private static byte[] array(DataBuffer buffer) {
		return ((DefaultDataBuffer) buffer).getNativeBuffer().array();
	}

}
