package dev.retryafter.reactive;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

import dev.retryafter.call.OuterRetryDetector;
import dev.retryafter.call.RecordedBytes;
import dev.retryafter.call.ResponseOutcomes;
import dev.retryafter.call.RetriedInvocation;
import dev.retryafter.call.RetryCall;
import dev.retryafter.call.CallContext;
import dev.retryafter.call.CallTime;
import dev.retryafter.call.IoFailures;
import dev.retryafter.call.RetryRefusedException;
import dev.retryafter.core.Admission;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetryAfter;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.StopReason;
import dev.retryafter.store.CooldownStore;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;

/**
 * Retries {@code WebClient} exchanges as the policy core plans, honouring
 * {@code Retry-After}, with the same settings, origin protection, retry
 * budget and listener events as the blocking {@code RetryAfterInterceptor}: every decision is
 * taken by the shared {@link RetryCall}, and only the I/O differs.
 * <p>
 * Waits never block: a retry's planned wait and a cooldown hold are timers
 * ({@link Mono#delay(Duration, Scheduler)}), so no thread is parked while a call waits.
 * Cancelling the subscriber during a wait cancels the timer at once, gives back the retry's
 * budget permit and reports the abandonment (reason {@code cancelled}).
 * <p>
 * On a retry, the response's body is read into memory (at most
 * {@link RetryCall#BODY_COPY_LIMIT} bytes), which releases its connection to the pool, and
 * the exchange runs again with the same headers (so the same {@code Idempotency-Key}) and the
 * same body bytes ({@link ReplayableBody}). On a stop, the caller gets the last response
 * unchanged, or the last error. A retry called off after its wait (the deadline passed, a
 * cooldown refused it) hands back the copy of the last response, or a
 * {@link RetryRefusedException} if that body was too long to keep; a refused first attempt
 * errors with a {@link RetryRefusedException}.
 * <p>
 * It must be the outermost filter, so that the filters after it (authentication, tracing)
 * run once per attempt; {@link RetryAfterWebClientCustomizer} puts it first.
 * <p>
 * Inside a retry layer that puts a {@link RetriedInvocation} in the subscriber's Reactor
 * context (Spring Framework's {@code @Retryable} on a reactive method, the starter's Reactor
 * {@code Retry} spec), or that drives a blocking invocation on the subscribing thread (a
 * {@code @Retryable} method that calls {@code block()}), the filter sends one attempt per
 * subscription and hands a retryable outcome back (reason {@code outer-retry}); a
 * subscription that comes before the {@code Retry-After} instant of an answer handed back
 * earlier is held until that instant, or refused with a {@link RetryRefusedException} when
 * that hold does not fit {@code header.max-wait} or {@code total-budget}.
 *
 * @since 0.1.0
 */
public class RetryAfterExchangeFilter implements ExchangeFilterFunction {

	/**
	 * Micrometer's key for the current observation in a Reactor context (the value of
	 * {@code ObservationThreadLocalAccessor.KEY}, spelled out so this class needs no
	 * context-propagation library).
	 */
	private static final String OBSERVATION_KEY = "micrometer.observation";

	private final CallContext calls;

	private final Scheduler scheduler;

	/**
	 * Asked, on the subscribing thread, for the invocation of a blocking outer retry layer
	 * that subscribes and waits (a {@code @Retryable} method calling {@code block()}).
	 */
	private final OuterRetryDetector outerRetry;

	/**
	 * Creates a filter on the system clocks, timing its waits on Reactor's parallel scheduler,
	 * that also sends a single attempt when subscribed to on a thread where a blocking outer
	 * retry layer drives an invocation ({@link OuterRetryDetector#invocation()}).
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param cooldowns the cooldowns consulted before and recorded after each attempt
	 * @param budgets the retry budget of each client
	 * @param outerRetry tells, on the subscribing thread, which invocation of an outer retry
	 * layer the call is an attempt of ({@link OuterRetryDetector#NEVER} when there is none)
	 */
	public RetryAfterExchangeFilter(RetryClients clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, OuterRetryDetector outerRetry) {
		this(clients, listener, cooldowns, budgets, outerRetry, new RecordedBytes(RecordedBytes.DEFAULT_MAX));
	}

	/**
	 * Creates a filter as {@link #RetryAfterExchangeFilter(RetryClients, RetryListener,
	 * CooldownStore, RetryBudgets, OuterRetryDetector)} does, keeping the recorded request
	 * bodies and response copies of its calls within a total of bytes other adapters may share.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param cooldowns the cooldowns consulted before and recorded after each attempt
	 * @param budgets the retry budget of each client
	 * @param outerRetry tells, on the subscribing thread, which invocation of an outer retry
	 * layer the call is an attempt of
	 * @param recordedBytes the total of bytes kept for retries, across the application
	 */
	public RetryAfterExchangeFilter(RetryClients clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, OuterRetryDetector outerRetry, RecordedBytes recordedBytes) {
		// The calls never ask the detector themselves: a decision runs on whatever thread the
		// response arrives on, where a thread-bound outer layer is not to be found.
		// ThreadLocalRandom.current() is looked up per draw: the filter is shared by every
		// thread that runs a call, and the per-thread generator avoids contention.
		this(new CallContext(clients, listener, cooldowns, budgets, OuterRetryDetector.NEVER, MonotonicClock.SYSTEM,
				Clock.systemUTC(), () -> ThreadLocalRandom.current().nextLong(), recordedBytes), Schedulers.parallel(),
				outerRetry);
	}

	/**
	 * Creates a filter on the given time, as {@link #RetryAfterExchangeFilter(RetryClients,
	 * RetryListener, CooldownStore, RetryBudgets, OuterRetryDetector)} does on the system's:
	 * a test's virtual time ({@link CallTime} and a scheduler that moves its clock) makes its
	 * waits instant.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param cooldowns the cooldowns consulted before and recorded after each attempt
	 * @param budgets the retry budget of each client, sliding on {@code time}'s monotonic clock
	 * @param outerRetry tells, on the subscribing thread, which invocation of an outer retry
	 * layer the call is an attempt of ({@link OuterRetryDetector#NEVER} when there is none)
	 * @param recordedBytes the total of bytes kept for retries, across the application
	 * @param time the clocks the calls read (its sleeper is not used: waits are timers)
	 * @param scheduler times the waits and holds; must move {@code time}'s clocks as real time
	 * does
	 * @since 0.2.0
	 */
	public RetryAfterExchangeFilter(RetryClients clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, OuterRetryDetector outerRetry, RecordedBytes recordedBytes, CallTime time,
			Scheduler scheduler) {
		this(new CallContext(clients, listener, cooldowns, budgets, OuterRetryDetector.NEVER, time.monotonicClock(),
				time.wallClock(), () -> ThreadLocalRandom.current().nextLong(), recordedBytes), scheduler, outerRetry);
	}

	/**
	 * Creates a filter on the given seams: the time and randomness its calls share, and the
	 * scheduler that times its waits.
	 * @param calls the collaborators shared by every call; their own outer-retry detector
	 * must be {@link OuterRetryDetector#NEVER}, as a call's decision runs on whatever thread
	 * the response arrives on
	 * @param scheduler times the waits and holds; must agree with the calls' monotonic clock
	 * @param outerRetry asked on the subscribing thread for the invocation of an outer retry
	 * layer
	 */
	RetryAfterExchangeFilter(CallContext calls, Scheduler scheduler, OuterRetryDetector outerRetry) {
		this.calls = Objects.requireNonNull(calls, "calls");
		if (calls.outerRetry() != OuterRetryDetector.NEVER) {
			throw new IllegalArgumentException(
					"calls.outerRetry() must be NEVER: the filter asks its own detector on the subscribing thread");
		}
		this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
		this.outerRetry = Objects.requireNonNull(outerRetry, "outerRetry");
	}

	@Override
	public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
		// Per subscription: a caller that subscribes again (its own retry operator) starts a
		// new call with its own time budget.
		return Mono.deferContextual((context) -> {
			ClientSettings client = this.calls.client(request.url(), request.attributes());
			RequestFacts facts = this.calls.facts(request.method(), request.attributes(), request.headers(),
					client.settings(), true);
			RetriedInvocation invocation = context.getOrDefault(RetriedInvocation.class, null);
			Call call = new Call(client, facts, request, next,
					(invocation != null) ? invocation : this.outerRetry.invocation());
			if (!this.calls.watched()) {
				return call.start(null).doOnCancel(call::cancelled).doFinally(call::ended);
			}
			// WebClient runs its filters under its http.client.requests observation, put in the
			// subscriber context under this key: a tracer's attempts become its children.
			return call.start(context.getOrDefault(OBSERVATION_KEY, null))
				.doOnError(call::errored)
				.doOnCancel(call::cancelled)
				.doFinally(call::ended);
		});
	}

	/**
	 * One call through the filter: the attempts of one request, chained without blocking.
	 */
	private final class Call extends RetryCall implements SentGate {

		private final ClientRequest request;

		private final ReplayableBody body;

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

		Call(ClientSettings client, RequestFacts facts, ClientRequest request, ExchangeFunction next,
				@Nullable RetriedInvocation invocation) {
			super(RetryAfterExchangeFilter.this.calls, client, facts);
			this.request = request;
			this.partitioned = calls().partitioned(client.settings());
			// The application's filters run after this one and may add the partition headers
			// (an OAuth2 token), and the transport may follow a redirect to another origin: the
			// connector hands the call the request as sent, and where its response came from.
			ClientRequest sendable = client.settings().cooldown().enabled()
					? ClientRequest.from(request).attribute(ATTRIBUTE, this).build() : request;
			// A body is kept only when a response could make the call send it again.
			this.body = ReplayableBody.of(sendable,
					client.settings().maxAttempts() > 1 && RetryPlanner.isRepeatable(client.settings(), facts),
					RetryAfterExchangeFilter.this.calls.recordedBytes());
			this.next = next;
			this.invocation = invocation;
			this.client = client;
		}

		@Override
		protected @Nullable RetriedInvocation retriedInvocation() {
			return this.invocation;
		}

		@Override
		protected CallContext calls() {
			return RetryAfterExchangeFilter.this.calls;
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
				calls().notSeenAsSent(this.client, uri());
				HttpRequest sent = response.request();
				if (sent != null && sent.getURI() != null) {
					sentAs(sent.getURI(), sent.getHeaders());
				}
			}
		}

		private Mono<ClientResponse> attempt(int attempt) {
			this.seen = false;
			this.refusedAsSent = null;
			return this.next.exchange(this.body.request())
				.map((response) -> {
					notSeen(response);
					int status = response.statusCode().value();
					RetryAfter retryAfter = retryAfter(status, response.headers().asHttpHeaders());
					return ExchangeAttempt.responded(response, ResponseOutcomes.outcome(status, retryAfter));
				})
				.onErrorResume((error) -> {
					RetryRefusedException refused = this.refusedAsSent;
					if (refused != null) {
						// Refused as sent: never an I/O failure, whatever wrapped it on the way back.
						return Mono.error(refused);
					}
					IoFailureKind kind = IoFailures.classifyCause(error);
					return (kind != null) ? Mono.just(ExchangeAttempt.failed(error, kind)) : Mono.error(error);
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
			return result.keepForRetry(calls().recordedBytes())
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
		 * cooldown holds the request (reported as held).
		 */
		private Mono<Void> pause(Duration delay, boolean hold) {
			return Mono.defer(() -> {
				long since = waitStarts(delay, hold);
				return Mono.delay(delay, RetryAfterExchangeFilter.this.scheduler).doOnNext((tick) -> {
					if (hold) {
						held(since);
					}
					else {
						waited(delay, since);
					}
				}).then();
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

}
