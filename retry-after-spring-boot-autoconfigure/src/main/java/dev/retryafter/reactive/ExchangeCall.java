package dev.retryafter.reactive;

import java.net.URI;
import java.time.Duration;

import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.call.CallContext;
import dev.retryafter.call.ResponseOutcomes;
import dev.retryafter.call.RetryCall;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.spi.RetriedInvocation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Scheduler;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFunction;

/**
 * One call through the {@link RetryAfterExchangeFilter}: the attempts of one request, chained
 * without blocking, from the start or from a first attempt {@link FirstExchange} sent.
 */
final class ExchangeCall extends RetryCall implements SentGate {

	private final CallContext context;

	private final Scheduler scheduler;

	private final ClientRequest request;

	private final ReplayableBody body;

	/** What each attempt sends: the request with its body recorded or replayed, this call its gate. */
	private final ClientRequest sendable;

	private final ExchangeFunction next;

	/** Whether the call is in a wait or a hold, where a cancellation is an abandonment. */
	private boolean waiting;

	/** The retry being waited for, whose permit a cancellation gives back. */
	private RetryDecision.@Nullable Retry pending;

	/** Whether the subscriber went away, perhaps before a planned wait could begin. */
	private boolean cancelled;

	/** The invocation of an outer retry layer this call is one attempt of, if any. */
	private final @Nullable RetriedInvocation invocation;

	private final ClientSettings client;

	/** Whether the request as sent decides the cooldown key (see {@link SentRequestConnector}). */
	private final boolean partitioned;

	/** Whether the connector saw the current attempt as it was sent. */
	private volatile boolean seen;

	/** The refusal of the current attempt as it was being sent, if any. */
	private volatile @Nullable RetryRefusedException refusedAsSent;

	ExchangeCall(CallContext context, Scheduler scheduler, ClientSettings client, RequestFacts facts,
			ClientRequest request, ExchangeFunction next, @Nullable RetriedInvocation invocation) {
		super(context, client, facts);
		this.context = context;
		this.scheduler = scheduler;
		this.request = request;
		this.partitioned = context().partitioned(client.settings());
		// The application's filters run after this one and may add the partition headers
		// (an OAuth2 token), and the transport may follow a redirect to another origin: the
		// connector hands the call the request as sent, and where its response came from.
		ClientRequest sendable = client.settings().cooldown().enabled()
				? ClientRequest.from(request).attribute(ATTRIBUTE, this).build() : request;
		// A body is kept only when a response could make the call send it again.
		this.body = ReplayableBody.of(sendable,
				client.settings().maxAttempts() > 1 && RetryPlanner.isRepeatable(client.settings(), facts),
				context.recordedBytes());
		this.sendable = this.body.request();
		this.next = next;
		this.invocation = invocation;
		this.client = client;
	}

	/**
	 * Takes over after a first attempt the filter sent and counted itself ({@link FirstExchange}),
	 * whose outcome may be retried; no outer retry layer drives such a call.
	 * @param budget the client's retry budget, which already counted the request, or
	 * {@code null}
	 * @param startNanos when the request started, from {@link CallContext#firstAttemptStarts}
	 * @param body the body the first attempt was written through, recorded when a retry could
	 * send it again
	 */
	ExchangeCall(CallContext context, Scheduler scheduler, ClientSettings client, RequestFacts facts,
			ClientRequest request, ExchangeFunction next, @Nullable RetryBudget budget, long startNanos,
			ReplayableBody body) {
		super(client, facts, budget, startNanos);
		this.context = context;
		this.scheduler = scheduler;
		this.request = request;
		this.partitioned = context.partitioned(client.settings());
		this.body = body;
		// The first attempt went through the shortcut's own gate; the retries go through this
		// call's, which charges a redirected response to the origin that sent it.
		this.sendable = client.settings().cooldown().enabled()
				? ClientRequest.from(body.request()).attribute(ATTRIBUTE, this).build() : body.request();
		this.next = next;
		this.invocation = null;
		this.client = client;
	}

	/**
	 * Decides after a first response the shortcut did not settle, as if the call had sent it.
	 * @param response the first response
	 * @param responder the other origin it came from after a redirect, or {@code null}
	 */
	Mono<ClientResponse> continueWith(ClientResponse response, @Nullable URI responder) {
		ExchangeAttempt first;
		try {
			if (responder != null) {
				respondedFrom(responder);
			}
			first = ExchangeAttempt.responded(response, outcome(response.statusCode().value(),
					response.headers().asHttpHeaders()));
		}
		catch (RuntimeException | Error ex) {
			return response.releaseBody().then(Mono.error(ex));
		}
		return decide(first, 1);
	}

	/** Decides after a first attempt that failed with an I/O error, as if the call had sent it. */
	Mono<ClientResponse> continueWith(ExchangeAttempt failed) {
		return decide(failed, 1);
	}

	@Override
	protected @Nullable RetriedInvocation retriedInvocation() {
		return this.invocation;
	}

	@Override
	protected boolean takes(RetriedInvocation invocation, AttemptOutcome outcome) {
		return invocation.takes(outcome, true);
	}

	@Override
	protected CallContext context() {
		return this.context;
	}

	@Override
	protected URI uri() {
		return this.request.url();
	}

	@Override
	protected HttpHeaders requestHeaders() {
		return this.request.headers();
	}

	Mono<ClientResponse> start(@Nullable Object parent) {
		watch(parent);
		RetryDecision before = (this.invocation != null)
				? this.invocation.beforeNextAttempt(this.client.settings(), nanoTime()) : null;
		if (before instanceof RetryDecision.Stop stop) {
			stopped(stop.reason());
			return Mono.error(new RetryRefusedException(origin(), stop.reason(), timeLeft()));
		}
		if (before instanceof RetryDecision.Retry hold) {
			// The outer layer came back before the instant the server asked for: its one hold.
			return startWaiting(null) ? pause(hold.delay(), false).then(Mono.defer(() -> {
				sending();
				return admitAndSend();
			})) : Mono.empty();
		}
		return admitAndSend();
	}

	private Mono<ClientResponse> admitAndSend() {
		Admission admission = admission();
		if (admission instanceof Admission.Refuse refuse) {
			return Mono.error(new RetryRefusedException(origin(), StopReason.COOLDOWN, refuse.timeLeft()));
		}
		Mono<ClientResponse> send = Mono.defer(() -> {
			sending();
			firstAttemptSent();
			return attempt(1);
		});
		if (admission instanceof Admission.Wait wait) {
			// A wait for another route's probe ends with its answer known: ask again (once).
			Mono<ClientResponse> after = (wait.reason() != HoldReason.PROBE) ? send : Mono.defer(() -> {
				sending();
				return admitAndSend();
			});
			return startWaiting(null) ? pause(wait.delay(), true).then(after) : Mono.empty();
		}
		return send;
	}

	@Override
	public Mono<Void> sending(URI uri, HttpHeaders headers) {
		this.seen = true;
		if (!this.partitioned) {
			return Mono.empty();
		}
		Admission admission = admissionAsSent(uri, headers);
		if (admission instanceof Admission.Refuse refuse) {
			RetryRefusedException refusal = new RetryRefusedException(origin(), StopReason.COOLDOWN,
					refuse.timeLeft());
			this.refusedAsSent = refusal;
			return Mono.error(refusal);
		}
		if (admission instanceof Admission.Wait wait) {
			// A subscriber that went away never has its request sent.
			return startWaiting(null) ? pause(wait.delay(), true).doOnSuccess((done) -> sending()) : Mono.never();
		}
		return Mono.empty();
	}

	@Override
	public void responseFrom(URI responder) {
		respondedFrom(responder);
	}

	/** Reads the key from the request as sent when the connector did not see it, and warns. */
	private void notSeen(ClientResponse response) {
		if (this.partitioned && !this.seen) {
			context().notSeenAsSent(this.client, uri());
			HttpRequest sent = response.request();
			if (sent != null && sent.getURI() != null) {
				sentAs(sent.getURI(), sent.getHeaders());
			}
		}
	}

	private Mono<ClientResponse> attempt(int attempt) {
		this.seen = false;
		this.refusedAsSent = null;
		return this.next.exchange(this.sendable)
			.map((response) -> {
				notSeen(response);
				int status = response.statusCode().value();
				return ExchangeAttempt.responded(response, outcome(status, response.headers().asHttpHeaders()));
			})
			.onErrorResume((error) -> {
				RetryRefusedException refused = this.refusedAsSent;
				if (refused != null) {
					// Refused as sent: never an I/O failure, whatever wrapped it on the way back.
					return Mono.error(refused);
				}
				ExchangeAttempt failed = ExchangeAttempt.failed(error);
				return (failed != null) ? Mono.just(failed) : Mono.error(error);
			})
			.flatMap((result) -> decide(result, attempt));
	}

	private Mono<ClientResponse> decide(ExchangeAttempt result, int attempt) {
		bodyReplayable(this.body.replayable());
		RetryDecision decision;
		try {
			decision = decide(result.outcome(), attempt);
		}
		catch (RuntimeException | Error ex) {
			return result.discard().then(Mono.error(ex));
		}
		if (!(decision instanceof RetryDecision.Retry retry)) {
			return result.deliver();
		}
		if (!startWaiting(retry)) {
			return result.discard().then(Mono.empty());
		}
		// The copy is the call's own only for the wait; a cancellation during it releases it too.
		return result.keepForRetry(context().recordedBytes())
			.flatMap((kept) -> pause(retry.delay(), false).doFinally((signal) -> kept.release())
				.then(Mono.defer(() -> afterWait(kept, retry, attempt))));
	}

	/**
	 * Checks that a retry whose wait ended may still be sent, as the blocking adapter does:
	 * the deadline, then the cooldown (which may hold it once more, or refuse it).
	 */
	private Mono<ClientResponse> afterWait(ExchangeAttempt kept, RetryDecision.Retry retry, int attempt) {
		if (deadlinePassed()) {
			calledOff(retry);
			return kept.deliverInsteadOfRetry(origin(), StopReason.BUDGET_EXHAUSTED, timeLeft());
		}
		Admission admission = admission();
		if (admission instanceof Admission.Refuse refuse) {
			calledOff(retry);
			return kept.deliverInsteadOfRetry(origin(), StopReason.COOLDOWN, refuse.timeLeft());
		}
		Mono<ClientResponse> send = Mono.defer(() -> {
			sending();
			retrySent(retry);
			return attempt(attempt + 1).onErrorResume((error) -> {
				if (error != this.refusedAsSent) {
					return Mono.error(error);
				}
				// Refused as sent: as if refused here, the caller gets the last response.
				calledOff(retry);
				return kept.deliverInsteadOfRetry(origin(), StopReason.COOLDOWN, timeLeft());
			});
		});
		return (admission instanceof Admission.Wait wait) ? pause(wait.delay(), true).then(send) : send;
	}

	/**
	 * Waits on a timer: before a retry (reported as waited) or, when {@code hold}, while a
	 * cooldown holds the request (reported as held, then held again if a new cooldown asks).
	 */
	private Mono<Void> pause(Duration delay, boolean hold) {
		return Mono.defer(() -> {
			long since = waitStarts(delay, hold);
			return Mono.delay(delay, this.scheduler).flatMap((tick) -> {
				Admission.Wait again = hold ? held(since) : null;
				if (!hold) {
					waited(delay, since);
				}
				return (again != null) ? pause(again.delay(), true) : Mono.<Void>empty();
			});
		});
	}

	/**
	 * Enters a wait or a hold, unless the subscriber already went away: a cancellation that
	 * arrives between the decision and the wait (while the response is being read, say)
	 * abandons the call just as one during the wait does.
	 * @return whether to wait; {@code false} when the call was cancelled and reported so
	 */
	private synchronized boolean startWaiting(RetryDecision.@Nullable Retry retry) {
		if (this.cancelled) {
			if (retry != null) {
				retryCalledOff(retry);
			}
			stopped(StopReason.CANCELLED);
			return false;
		}
		this.waiting = true;
		this.pending = retry;
		return true;
	}

	private synchronized void sending() {
		this.waiting = false;
		this.pending = null;
	}

	private synchronized void calledOff(RetryDecision.Retry retry) {
		this.waiting = false;
		this.pending = null;
		retryCalledOff(retry);
	}

	/**
	 * The call ended, however (a response handed over, an error, a cancellation): the
	 * recorded request body is sent no more, and its bytes go back to the application's total.
	 */
	void ended(SignalType signal) {
		this.body.release();
	}

	/** The call ends with an error, which a watcher hears of if an attempt or wait is under way. */
	void errored(Throwable error) {
		failed(error);
	}

	/**
	 * The subscriber went away. During a wait or a hold that abandons the call: the timer
	 * is already cancelled, the retry's permit goes back and the reason is reported. During
	 * an exchange it is the connector's business, and nothing is reported.
	 */
	synchronized void cancelled() {
		this.cancelled = true;
		if (!this.waiting) {
			failed(null);
			return;
		}
		this.waiting = false;
		RetryDecision.Retry retry = this.pending;
		this.pending = null;
		if (retry != null) {
			retryCalledOff(retry);
		}
		stopped(StopReason.CANCELLED);
	}

}
