package dev.retryafter.reactive;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.mock.http.client.reactive.MockClientHttpRequest;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import org.springframework.web.reactive.function.client.ExchangeStrategies;

/**
 * An {@link ExchangeFunction} that writes each request's body (as a connector would) and
 * answers with scripted replies in order, the last one repeating.
 */
final class ScriptedExchange implements ExchangeFunction {

	private final Deque<Supplier<Mono<ClientResponse>>> replies = new ArrayDeque<>();

	private final List<Sent> sent = new ArrayList<>();

	private Supplier<Mono<ClientResponse>> last = () -> Mono.error(new IllegalStateException("no reply"));

	ScriptedExchange reply(Supplier<Mono<ClientResponse>> reply) {
		this.replies.add(reply);
		return this;
	}

	ScriptedExchange respond(ClientResponse... responses) {
		for (ClientResponse response : responses) {
			reply(() -> Mono.just(response));
		}
		return this;
	}

	ScriptedExchange fail(Throwable error) {
		return reply(() -> Mono.error(error));
	}

	/**
	 * A connection failure, as a connector reports it: before anything, the body included,
	 * was written.
	 */
	ScriptedExchange refuse(Throwable error) {
		return reply(new Refusal(error));
	}

	synchronized List<Sent> sent() {
		return List.copyOf(this.sent);
	}

	@Override
	public Mono<ClientResponse> exchange(ClientRequest request) {
		synchronized (this) {
			if (this.replies.peek() instanceof Refusal refusal) {
				this.replies.poll();
				this.last = refusal;
				return refusal.get();
			}
		}
		MockClientHttpRequest outgoing = new MockClientHttpRequest(request.method(), request.url());
		return request.writeTo(outgoing, ExchangeStrategies.withDefaults())
			.then(Mono.defer(() -> outgoing.getBodyAsString().defaultIfEmpty("")))
			.flatMap((body) -> {
				synchronized (this) {
					this.sent.add(new Sent(request.method().name(), body, outgoing.getHeaders().getContentType()));
					Supplier<Mono<ClientResponse>> reply = this.replies.poll();
					if (reply != null) {
						this.last = reply;
					}
					return this.last.get();
				}
			});
	}

	static ClientResponse response(int status, String... headers) {
		return responseWithBody(status, Flux.empty(), headers);
	}

	static ClientResponse responseWithBody(int status, String body, String... headers) {
		return responseWithBody(status, Flux.defer(() -> Flux
			.just(DefaultDataBufferFactory.sharedInstance.wrap(body.getBytes(StandardCharsets.UTF_8)))), headers);
	}

	static ClientResponse responseWithBody(int status, Flux<DataBuffer> body,
			String... headers) {
		ClientResponse.Builder builder = ClientResponse.create(HttpStatusCode.valueOf(status));
		for (int i = 0; i < headers.length; i += 2) {
			builder.header(headers[i], headers[i + 1]);
		}
		return builder.body(body).build();
	}

	/**
	 * One request as it was written.
	 *
	 * @param method the method
	 * @param body the body text
	 * @param contentType the content type written
	 */
	record Sent(String method, String body, MediaType contentType) {
	}

	private record Refusal(Throwable error) implements Supplier<Mono<ClientResponse>> {

		@Override
		public Mono<ClientResponse> get() {
			return Mono.error(this.error);
		}

	}

}
