package dev.retryafter.reactive;

import java.net.URI;

import dev.retryafter.call.CallContext;
import dev.retryafter.call.FirstAttemptRules;
import dev.retryafter.call.ResponseOutcomes;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.header.RetryAfter;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;
import reactor.core.scheduler.Scheduler;

import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFunction;

/**
 * The first-attempt shortcut of the {@link RetryAfterExchangeFilter}, as the blocking
 * interceptor has one: the first attempt of an exchange no cooldown can hold, sent before any
 * {@link ExchangeCall} is built. A response {@link FirstAttemptRules#settledBy} settles (most
 * calls end at their first response) is reported and handed to the subscriber untouched;
 * anything else (a response that may be retried or records a cooldown or a quota, an I/O
 * failure) goes on in an {@link ExchangeCall} that takes over, deciding exactly as one built
 * from the start would have.
 * <p>
 * What a retry needs is kept from the start all the same: the facts are read before the
 * send, the request counts towards the retry budget as it goes out, and its body is written
 * through a {@link ReplayableBody}, since an inserter may be one-shot and a call that takes
 * over could not send it again otherwise (nor tell a body never written from one written).
 * While cooldowns are on, this is the connector's gate for the attempt, which only learns
 * which origin a redirected response came from: the filter takes no shortcut for a client
 * that reads its cooldown key from the request as sent.
 */
final class FirstExchange implements SentGate {

	private final CallContext context;

	private final Scheduler scheduler;

	private final FirstAttemptRules rules;

	private final ClientRequest request;

	private final ExchangeFunction next;

	private final RequestFacts facts;

	private final ReplayableBody body;

	private final long startNanos;

	/** The other origin the response came from after a redirect, if any, set by the connector. */
	private volatile @Nullable URI responder;

	private FirstExchange(CallContext context, Scheduler scheduler, FirstAttemptRules rules, ClientRequest request,
			ExchangeFunction next) {
		this.context = context;
		this.scheduler = scheduler;
		this.rules = rules;
		this.request = request;
		this.next = next;
		RetrySettings settings = rules.settings();
		// Read before the send, as a call built from the start reads them.
		this.facts = context.facts(request.method(), request.attributes(), request.headers(), settings, true);
		ClientRequest sendable = settings.cooldown().enabled()
				? ClientRequest.from(request).attribute(ATTRIBUTE, this).build() : request;
		// Recorded on the same condition as a call's: only when a response could send it again.
		this.body = ReplayableBody.of(sendable,
				settings.maxAttempts() > 1 && RetryPlanner.isRepeatable(settings, this.facts),
				context.recordedBytes());
		this.startNanos = context.firstAttemptStarts(rules);
	}

	/**
	 * Sends the first attempt of a request, on subscription.
	 * @param context the filter's collaborators
	 * @param scheduler times the waits of a call that takes over
	 * @param rules the first-attempt rules of the request's client
	 * @param request the request as the filter received it
	 * @param next the rest of the exchange
	 * @return the first response when it settles the call, else what the call that took over
	 * hands back
	 */
	static Mono<ClientResponse> send(CallContext context, Scheduler scheduler, FirstAttemptRules rules,
			ClientRequest request, ExchangeFunction next) {
		FirstExchange first = new FirstExchange(context, scheduler, rules, request, next);
		// However the call ends (settled, taken over, failed, cancelled), the recorded body
		// is sent no more and its bytes go back to the application's total.
		// Deferred, as a call's attempt is: an exchange that throws is that attempt's failure.
		return Mono.defer(() -> next.exchange(first.body.request()))
			.materialize()
			.flatMap(first::answered)
			.doFinally((signal) -> first.body.release());
	}

	@Override
	public Mono<Void> sending(URI uri, HttpHeaders headers) {
		// Not partitioned: the key is the request's own, and nothing more admits it here.
		return Mono.empty();
	}

	@Override
	public void responseFrom(URI responder) {
		this.responder = responder;
	}

	private Mono<ClientResponse> answered(Signal<ClientResponse> signal) {
		ClientResponse response = signal.get();
		if (response != null) {
			return responded(response);
		}
		Throwable error = signal.getThrowable();
		if (error == null) {
			return Mono.empty();
		}
		// Not an I/O failure: the caller's own error, no attempt's outcome, passes through.
		ExchangeAttempt failed = ExchangeAttempt.failed(error);
		if (failed == null) {
			return Mono.error(error);
		}
		ExchangeCall call = takeOver();
		return taken(call, Mono.defer(() -> call.continueWith(failed)));
	}

	private Mono<ClientResponse> responded(ClientResponse response) {
		try {
			int status = response.statusCode().value();
			RetryDecision.Stop stop = this.rules.settledBy(status, response.headers().asHttpHeaders(),
					this.context.quotaFields());
			if (stop != null) {
				this.context.settledAtOnce(this.rules.settings(), this.request.url(), status, this.startNanos);
				this.context.listener()
					.attemptCompleted(this.rules.client().name(), this.facts.method(), 1,
							ResponseOutcomes.outcome(status, RetryAfter.ABSENT), stop);
				return Mono.just(response);
			}
		}
		catch (RuntimeException | Error ex) {
			// As a call does: a response never handed over is released, not left to leak.
			return response.releaseBody().then(Mono.error(ex));
		}
		ExchangeCall call = takeOver();
		return taken(call, Mono.defer(() -> call.continueWith(response, this.responder)));
	}

	private ExchangeCall takeOver() {
		return new ExchangeCall(this.context, this.scheduler, this.rules.client(), this.facts, this.request,
				this.next, this.rules.budget(), this.startNanos, this.body);
	}

	/**
	 * The rest of a call that took over, which learns of a cancellation as one built from the
	 * start does: during a wait, the retry's permit goes back and the abandonment is reported.
	 */
	private static Mono<ClientResponse> taken(ExchangeCall call, Mono<ClientResponse> rest) {
		return rest.doOnCancel(call::cancelled).doFinally(call::ended);
	}

}
