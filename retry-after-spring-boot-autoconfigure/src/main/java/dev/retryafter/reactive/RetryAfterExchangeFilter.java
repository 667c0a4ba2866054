package dev.retryafter.reactive;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.call.CallContext;
import dev.retryafter.call.FirstAttemptRules;
import dev.retryafter.call.RecordedBytes;
import dev.retryafter.call.RetryCall;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.spi.CallTime;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.spi.RetriedInvocation;
import dev.retryafter.store.CooldownStore;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

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
 * Most exchanges end at their first response, so the first attempt of one that no cooldown
 * can hold, with no watching listener, no outer retry layer and no cooldown key read from the
 * request as sent, goes out before any call is built, as the blocking interceptor's does: a
 * response that settles the call is reported and handed over untouched, and any other outcome
 * goes on as a call that decides exactly as it would have from the start.
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

	private final CallContext context;

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
	public RetryAfterExchangeFilter(ClientSettingsCatalog clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, OuterRetryDetector outerRetry) {
		this(clients, listener, cooldowns, budgets, outerRetry, new RecordedBytes(RecordedBytes.DEFAULT_MAX));
	}

	/**
	 * Creates a filter as {@link #RetryAfterExchangeFilter(ClientSettingsCatalog, RetryListener,
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
	public RetryAfterExchangeFilter(ClientSettingsCatalog clients, RetryListener listener, CooldownStore cooldowns,
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
	 * Creates a filter on the given time, as {@link #RetryAfterExchangeFilter(ClientSettingsCatalog,
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
	public RetryAfterExchangeFilter(ClientSettingsCatalog clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, OuterRetryDetector outerRetry, RecordedBytes recordedBytes, CallTime time,
			Scheduler scheduler) {
		this(new CallContext(clients, listener, cooldowns, budgets, OuterRetryDetector.NEVER, time.monotonicClock(),
				time.wallClock(), () -> ThreadLocalRandom.current().nextLong(), recordedBytes), scheduler, outerRetry);
	}

	/**
	 * Creates a filter on the given seams: the time and randomness its calls share, and the
	 * scheduler that times its waits.
	 * @param context the collaborators shared by every call; their own outer-retry detector
	 * must be {@link OuterRetryDetector#NEVER}, as a call's decision runs on whatever thread
	 * the response arrives on
	 * @param scheduler times the waits and holds; must agree with the calls' monotonic clock
	 * @param outerRetry asked on the subscribing thread for the invocation of an outer retry
	 * layer
	 */
	RetryAfterExchangeFilter(CallContext context, Scheduler scheduler, OuterRetryDetector outerRetry) {
		this.context = Objects.requireNonNull(context, "context");
		if (context.outerRetry() != OuterRetryDetector.NEVER) {
			throw new IllegalArgumentException(
					"context.outerRetry() must be NEVER: the filter asks its own detector on the subscribing thread");
		}
		this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
		this.outerRetry = Objects.requireNonNull(outerRetry, "outerRetry");
	}

	@Override
	public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
		// Per subscription: a caller that subscribes again (its own retry operator) starts a
		// new call with its own time budget.
		return Mono.deferContextual((context) -> {
			FirstAttemptRules rules = this.context.rules(request.url(), request.attributes());
			RetriedInvocation invocation = context.getOrDefault(RetriedInvocation.class, null);
			if (invocation == null) {
				invocation = this.outerRetry.invocation();
			}
			if (shortcut(rules, request, invocation)) {
				return FirstExchange.send(this.context, this.scheduler, rules, request, next);
			}
			ClientSettings client = rules.client();
			RequestFacts facts = this.context.facts(request.method(), request.attributes(), request.headers(),
					client.settings(), true);
			ExchangeCall call = new ExchangeCall(this.context, this.scheduler, client, facts, request, next,
					invocation);
			if (!this.context.watched()) {
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
	 * Whether the first attempt may go out before any call is built, as the blocking
	 * interceptor sends it: only when nothing needs the call from the start. A cooldown may
	 * hold or refuse the request, a watching listener follows the call from its start, an
	 * outer retry layer may hold it until the instant it was asked to come back, and a key
	 * read from the request as sent is admitted by the connector, under the call.
	 */
	private boolean shortcut(FirstAttemptRules rules, ClientRequest request, @Nullable RetriedInvocation invocation) {
		return invocation == null && !this.context.watched() && !this.context.mayHold(rules.settings(), request.url())
				&& !this.context.partitioned(rules.settings());
	}

}
