package dev.retryafter.client;

import java.io.IOException;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

import dev.retryafter.api.IoFailures;
import dev.retryafter.api.RetryInterruptedException;
import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.call.AttemptsSpent;
import dev.retryafter.call.CallContext;
import dev.retryafter.call.FirstAttemptQuota;
import dev.retryafter.call.FirstAttemptRules;
import dev.retryafter.call.RecordedBytes;
import dev.retryafter.call.ResponseOutcomes;
import dev.retryafter.call.RetryCall;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.IdempotencyMark;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.Sleeper;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.spi.CallTime;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.CooldownStore;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Retries requests as the policy core plans, honouring {@code Retry-After}.
 * <p>
 * Each attempt's outcome (a response, or an {@link IOException} classified by
 * {@link IoFailures}) goes to {@link RetryPlanner#decide}. On a stop, the caller gets the last
 * response exactly as received, or the last exception. On a retry, the response is copied
 * into memory and closed (so its connection returns to the pool), the planned wait is slept
 * through the {@link Sleeper}, the deadline is checked again and the request is executed
 * again with the same headers (so the same {@code Idempotency-Key}) and the same body bytes.
 * <p>
 * The deadline check before each retry only stops once the whole {@code total-budget} is
 * spent: the plan already kept {@code attempt-reserve} back for the attempt, and a wait that
 * overran its plan eats into that reserve, which is what the reserve is for. When it does
 * stop (reason {@code budget-exhausted}) the caller gets the copy of the last response, or
 * a {@link RetryRefusedException} if that response's body was too long to keep. An interrupt
 * during a wait stops at once (reason {@code interrupted}), restores the thread's interrupt
 * flag and throws a {@link RetryInterruptedException}.
 * <p>
 * It also protects the origin. Every response with a cooldown status and a valid
 * {@code Retry-After} sets its origin's cooldown in the {@link CooldownStore}, even when
 * this request gives up. Before each attempt, first or retry, the store admits the request,
 * holds it until the cooldown ends (plus jitter) if that fits the budget, or refuses it
 * (reason {@code cooldown}): a refused first attempt throws a {@link RetryRefusedException},
 * a refused retry returns the last response. Each request that is sent counts towards its
 * client's {@link RetryBudgets retry budget}, which the planner asks before every retry.
 * <p>
 * When an {@link OuterRetryDetector} reports that a retry layer around the client (a
 * spring-retry template backing off with the same policy) drives the call, the interceptor
 * sends a single attempt: it still admits the request, records the cooldown and reports the
 * attempt, but hands an outcome it would have retried back to the caller as received (reason
 * {@code outer-retry}), so that only that layer retries and attempts never multiply.
 * <p>
 * It must be the outermost interceptor: re-executing re-runs every interceptor after it
 * (authentication, tracing) once per attempt, which Spring Framework 7 guarantees (its
 * intercepting request rebuilds the rest of the chain on each call). The customizers in this
 * package put it first, and it reports {@link Ordered#HIGHEST_PRECEDENCE} so that a
 * {@code RestTemplate}, which sorts its interceptors, keeps it first. Being outermost, it sees
 * the request before the application's interceptors add their headers (an OAuth2 token): with
 * {@code cooldown.partition-headers} set, the cooldown key is read from the request as the
 * {@link SentRequestFactory} sends it, and the request is admitted there under that key.
 *
 * @since 0.1.0
 */
public class RetryAfterInterceptor implements ClientHttpRequestInterceptor, Ordered {

	private final CallContext context;

	private final Sleeper sleeper;

	/**
	 * Creates an interceptor on the system clocks, sleeping the calling thread, with the
	 * given origin protection, that sends a single attempt while an outer retry layer drives
	 * the call.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param cooldowns the host cooldowns consulted before and recorded after each attempt
	 * @param budgets the retry budget of each client
	 * @param outerRetry tells whether a retry layer around the client is retrying the call
	 * ({@link OuterRetryDetector#NEVER} when there is none)
	 */
	public RetryAfterInterceptor(ClientSettingsCatalog clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, OuterRetryDetector outerRetry) {
		this(clients, listener, cooldowns, budgets, outerRetry, new RecordedBytes(RecordedBytes.DEFAULT_MAX));
	}

	/**
	 * Creates an interceptor as {@link #RetryAfterInterceptor(ClientSettingsCatalog, RetryListener,
	 * CooldownStore, RetryBudgets, OuterRetryDetector)} does, keeping the response copies of
	 * its waiting calls within a total of bytes other adapters may share.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param cooldowns the host cooldowns consulted before and recorded after each attempt
	 * @param budgets the retry budget of each client
	 * @param outerRetry tells whether a retry layer around the client is retrying the call
	 * @param recordedBytes the total of bytes kept for retries, across the application
	 */
	public RetryAfterInterceptor(ClientSettingsCatalog clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, OuterRetryDetector outerRetry, RecordedBytes recordedBytes) {
		// ThreadLocalRandom.current() is looked up per call: the interceptor is shared by
		// every calling thread, and the per-thread generator avoids contention.
		this(new CallContext(clients, listener, cooldowns, budgets, outerRetry, MonotonicClock.SYSTEM,
				Clock.systemUTC(), () -> ThreadLocalRandom.current().nextLong(), recordedBytes), new ThreadSleeper());
	}

	/**
	 * Creates an interceptor on the given time, with the given origin protection, that sends
	 * a single attempt while an outer retry layer drives the call: a test's virtual time
	 * ({@link CallTime}) makes its waits instant.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param cooldowns the host cooldowns consulted before and recorded after each attempt
	 * @param budgets the retry budget of each client, sliding on {@code time}'s monotonic clock
	 * @param outerRetry tells whether a retry layer around the client is retrying the call
	 * ({@link OuterRetryDetector#NEVER} when there is none)
	 * @param recordedBytes the total of bytes kept for retries, across the application
	 * @param time the clocks the calls read and the sleeper they wait with
	 * @since 0.2.0
	 */
	public RetryAfterInterceptor(ClientSettingsCatalog clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, OuterRetryDetector outerRetry, RecordedBytes recordedBytes, CallTime time) {
		this(new CallContext(clients, listener, cooldowns, budgets, outerRetry, time.monotonicClock(),
				time.wallClock(), () -> ThreadLocalRandom.current().nextLong(), recordedBytes), time.sleeper());
	}

	/**
	 * Creates an interceptor on the given seams: the time and randomness its calls share, and
	 * how it waits.
	 * @param context the collaborators shared by every call, with their clocks and jitter source
	 * @param sleeper waits between attempts and for cooldowns
	 */
	RetryAfterInterceptor(CallContext context, Sleeper sleeper) {
		this.context = Objects.requireNonNull(context, "context");
		this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		// The note is about the call that ended last on this thread, never an older one.
		AttemptsSpent.clear();
		FirstAttemptRules rules = this.context.rules(request.getURI(), request.getAttributes());
		boolean mayHold = this.context.mayHold(rules.settings(), request.getURI());
		if (mayHold && !this.context.watched()) {
			// An origin that announces its quota on every response may hold the next request,
			// but one far from spent holds nobody: such a request is admitted in one step.
			CooldownKey admitted = this.context.firstAttemptQuota()
				.admit(rules.settings(), request.getURI(), request.getHeaders());
			if (admitted != null) {
				return sendFirst(rules, admitted, request, body, execution);
			}
		}
		if (mayHold || this.context.watched()) {
			return whole(rules, mayHold, request, body, execution);
		}
		return sendFirst(rules, null, request, body, execution);
	}

	/**
	 * Runs the whole call as an {@link BlockingCall} from the start when an origin is cooling down
	 * (this request may be held or refused before it is sent) or the listener follows this
	 * call's attempts from their start (a tracer); otherwise the first attempt goes out
	 * through {@link #sendFirst} after all.
	 */
	private ClientHttpResponse whole(FirstAttemptRules rules, boolean mayHold, HttpRequest request, byte[] body,
			ClientHttpRequestExecution execution) throws IOException {
		RetryListener.Call watch = this.context.watched() ? this.context.listener().callStarted(rules.client().name(),
				FirstAttemptRules.methodName(request.getMethod()), null) : RetryListener.Call.NONE;
		if (watch == RetryListener.Call.NONE && !mayHold) {
			return sendFirst(rules, null, request, body, execution);
		}
		RequestFacts facts = this.context.facts(request, rules.settings());
		return new BlockingCall(this.context, this.sleeper, rules.client(), facts, request, body, execution).run(watch);
	}

	/**
	 * Sends the first attempt of a request no cooldown can hold, and settles it at once when
	 * {@link FirstAttemptRules#settledBy} says the planner's rule 1 ends it whatever else is
	 * known (a success, or a status that is not retried, without {@code Retry-After}): most
	 * calls end here, and allocate nothing. A success that announces its origin's quota ends
	 * here too, its quota recorded ({@link FirstAttemptQuota#settle}). Any
	 * other outcome goes on as an {@link BlockingCall}, which decides exactly as it would have
	 * from the start.
	 * @param admitted the request's key when {@link FirstAttemptQuota#admit} admitted it, or
	 * {@code null} when nothing could hold it
	 */
	private ClientHttpResponse sendFirst(FirstAttemptRules rules, @Nullable CooldownKey admitted, HttpRequest request,
			byte[] body, ClientHttpRequestExecution execution) throws IOException {
		CallContext context = this.context;
		// What rule 2 reads is read before the first send, as the whole call does: an
		// interceptor further down may change the headers or attributes. The key header
		// decides only for an unmarked request of a method not repeatable by itself.
		HttpMethod httpMethod = request.getMethod();
		String method = FirstAttemptRules.methodName(httpMethod);
		IdempotencyMark mark = context.mark(request.getAttributes());
		boolean keyDecides = rules.keyDecides(httpMethod, method, mark);
		boolean hasKey = keyDecides && context.hasIdempotencyKey(request.getHeaders(), rules.settings());
		long startNanos = context.firstAttemptStarts(rules);
		// The key is read from the request as sent, after the application's interceptors:
		// they may add the partition headers (an OAuth2 token) only then.
		SentRequest sent = context.partitioned(rules.settings()) ? SentRequest.expect(request, null) : null;
		ClientHttpResponse response;
		try {
			response = execution.execute(request, body);
		}
		catch (IOException ex) {
			return takeOver(new FirstAttempt(rules, method, mark, keyDecides, hasKey, startNanos, sent), request, body, execution)
				.continueWith(BlockingAttempt.failed(ex));
		}
		int status;
		RetryDecision.Stop stop;
		try {
			status = response.getStatusCode().value();
			// The reactive filter's shortcut settles by the same rule, so the two cannot drift.
			stop = rules.settledBy(status, response.getHeaders(), context.quotaFields());
			if (stop == null && status < 400 && !(response instanceof RedirectedResponse)) {
				stop = context.firstAttemptQuota()
					.settle(rules, admitted, request.getURI(), request.getHeaders(), status, response.getHeaders(),
							startNanos);
			}
		}
		catch (IOException ex) {
			response.close();
			return takeOver(new FirstAttempt(rules, method, mark, keyDecides, hasKey, startNanos, sent), request, body, execution)
				.continueWith(BlockingAttempt.failed(ex));
		}
		catch (RuntimeException | Error ex) {
			response.close();
			throw ex;
		}
		if (stop != null) {
			try {
				context.settledAtOnce(rules.settings(), request.getURI(), status, startNanos);
				context.listener().attemptCompleted(rules.client().name(), method, 1,
						ResponseOutcomes.outcome(status, RetryAfter.ABSENT), stop);
			}
			catch (RuntimeException | Error ex) {
				response.close();
				throw ex;
			}
			return response;
		}
		BlockingCall call = takeOver(new FirstAttempt(rules, method, mark, keyDecides, hasKey, startNanos, sent), request, body, execution);
		return call.continueWith(call.received(response, status));
	}

	/**
	 * Takes over a request whose first attempt {@link #sendFirst} sent, when a retry may
	 * follow.
	 */
	private BlockingCall takeOver(FirstAttempt first, HttpRequest request, byte[] body,
			ClientHttpRequestExecution execution) {
		FirstAttemptRules rules = first.rules();
		RequestFacts facts = facts(request, rules.settings(), first);
		return new BlockingCall(this.context, this.sleeper, rules.client(), facts, request, body, execution,
				rules.budget(), first.startNanos(), first.sent());
	}

	/**
	 * The request's facts once a retry may follow: those read before the first send, and
	 * the key header now if it did not decide then (it cannot decide now either).
	 */
	private RequestFacts facts(HttpRequest request, RetrySettings settings, FirstAttempt first) {
		boolean key = first.keyDecides() ? first.hasKey()
				: this.context.hasIdempotencyKey(request.getHeaders(), settings);
		// A ClientHttpRequestInterceptor always receives the whole body, so it can be sent again.
		return new RequestFacts(first.method(), first.mark(), key, true);
	}

	/**
	 * What {@link #sendFirst} read before the first attempt was sent, handed to the
	 * {@link BlockingCall} that takes the request over; built only then, never on a call settled
	 * by its first response.
	 * @param rules the client's first-attempt rules
	 * @param method the request method's name
	 * @param mark the caller's idempotency mark
	 * @param keyDecides whether the idempotency-key header decides whether it is repeatable
	 * @param hasKey whether it carried that header (read only when it decides)
	 * @param startNanos the monotonic reading the request's time budget runs from
	 * @param sent what the innermost element saw of the attempt, when the key is read from it
	 */
	private record FirstAttempt(FirstAttemptRules rules, String method, IdempotencyMark mark, boolean keyDecides,
			boolean hasKey, long startNanos, @Nullable SentRequest sent) {
	}

	/**
	 * Outermost: a sorting {@code RestTemplate} keeps this interceptor before every other.
	 * @return {@link Ordered#HIGHEST_PRECEDENCE}
	 */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
