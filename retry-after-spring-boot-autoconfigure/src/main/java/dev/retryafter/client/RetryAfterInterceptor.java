package dev.retryafter.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

import dev.retryafter.core.Admission;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownPartition;
import dev.retryafter.core.HostCooldowns;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetryAfter;
import dev.retryafter.core.RetryAfterParser;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetryPermits;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.Sleeper;
import dev.retryafter.core.StopReason;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Retries requests as the policy core plans, honouring {@code Retry-After} (SPEC section 3).
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
 * flag and throws an {@link InterruptedIOException}.
 * <p>
 * It also protects the origin (SPEC section 5). Every retryable response with a valid
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
 * {@code RestTemplate}, which sorts its interceptors, keeps it first.
 *
 * @since 0.1.0
 */
public class RetryAfterInterceptor implements ClientHttpRequestInterceptor, Ordered {

	/**
	 * Most body bytes kept in memory from a response that is retried: 429 and 503 bodies are
	 * short, and only a called-off retry ever hands the copy back.
	 */
	static final int BODY_COPY_LIMIT = 64 * 1024;

	// Lower case: header maps are case-insensitive, and Spring's lower-cases the name of each
	// lookup, which costs nothing (no new string) for a name that is lower case already.
	private static final String RETRY_AFTER = "retry-after";

	private static final String DATE = "date";

	private static final RetryDecision.Stop OUTER_RETRY = new RetryDecision.Stop(StopReason.OUTER_RETRY);

	private final RetryClients clients;

	private final RetryListener listener;

	private final Sleeper sleeper;

	private final MonotonicClock monotonicClock;

	private final Clock wallClock;

	private final RandomGenerator random;

	private final CooldownStore cooldowns;

	private final RetryBudgets budgets;

	private final OuterRetryDetector outerRetry;

	private final RequestFactsResolver factsResolver = new RequestFactsResolver();

	/**
	 * Creates an interceptor on the system clocks, sleeping the calling thread.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 */
	public RetryAfterInterceptor(RetryClients clients, RetryListener listener) {
		this(clients, listener, localCooldowns(), new RetryBudgets(clients, MonotonicClock.SYSTEM));
	}

	/**
	 * Creates an interceptor on the system clocks, sleeping the calling thread, with the
	 * given origin protection.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param cooldowns the host cooldowns consulted before and recorded after each attempt
	 * @param budgets the retry budget of each client
	 */
	public RetryAfterInterceptor(RetryClients clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets) {
		this(clients, listener, cooldowns, budgets, OuterRetryDetector.NEVER);
	}

	/**
	 * Creates an interceptor on the system clocks, sleeping the calling thread, with the
	 * given origin protection, that sends a single attempt while an outer retry layer drives
	 * the call.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param cooldowns the host cooldowns consulted before and recorded after each attempt
	 * @param budgets the retry budget of each client
	 * @param outerRetry tells whether a retry layer around the client is retrying the call
	 */
	public RetryAfterInterceptor(RetryClients clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, OuterRetryDetector outerRetry) {
		// ThreadLocalRandom.current() is looked up per call: the interceptor is shared by
		// every calling thread, and the per-thread generator avoids contention.
		this(clients, listener, cooldowns, budgets, outerRetry, new ThreadSleeper(), MonotonicClock.SYSTEM,
				Clock.systemUTC(), () -> ThreadLocalRandom.current().nextLong());
	}

	/**
	 * Creates an interceptor on the given time, waiting and randomness seams.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param sleeper waits between attempts
	 * @param monotonicClock measures elapsed time and waits (all scheduling)
	 * @param wallClock only stamps the instant a response was received, for HTTP-dates
	 * @param random the jitter source
	 */
	RetryAfterInterceptor(RetryClients clients, RetryListener listener, Sleeper sleeper,
			MonotonicClock monotonicClock, Clock wallClock, RandomGenerator random) {
		this(clients, listener, localCooldowns(), new RetryBudgets(clients, monotonicClock), sleeper, monotonicClock,
				wallClock, random);
	}

	RetryAfterInterceptor(RetryClients clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, Sleeper sleeper, MonotonicClock monotonicClock, Clock wallClock,
			RandomGenerator random) {
		this(clients, listener, cooldowns, budgets, OuterRetryDetector.NEVER, sleeper, monotonicClock, wallClock,
				random);
	}

	RetryAfterInterceptor(RetryClients clients, RetryListener listener, CooldownStore cooldowns,
			RetryBudgets budgets, OuterRetryDetector outerRetry, Sleeper sleeper, MonotonicClock monotonicClock,
			Clock wallClock, RandomGenerator random) {
		this.outerRetry = Objects.requireNonNull(outerRetry, "outerRetry");
		this.cooldowns = Objects.requireNonNull(cooldowns, "cooldowns");
		this.budgets = Objects.requireNonNull(budgets, "budgets");
		this.clients = Objects.requireNonNull(clients, "clients");
		this.listener = Objects.requireNonNull(listener, "listener");
		this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
		this.monotonicClock = Objects.requireNonNull(monotonicClock, "monotonicClock");
		this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
		this.random = Objects.requireNonNull(random, "random");
	}

	// SPEC section 4 default of retry-after.cooldown.max-hosts.
	private static CooldownStore localCooldowns() {
		return new LocalCooldownStore(new HostCooldowns(10_000));
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		URI uri = request.getURI();
		// The effective port: https://h/ and https://h:443/ must pick the same named client.
		ClientSettings client = this.clients.resolve((uri.getHost() != null) ? uri.getHost() : "",
				Origin.effectivePort(uri.getScheme(), uri.getPort()));
		RequestFacts facts = this.factsResolver.resolve(request, client.settings());
		return new Exchange(client, facts, request, body, execution).run();
	}

	/**
	 * Outermost: a sorting {@code RestTemplate} keeps this interceptor before every other.
	 * @return {@link Ordered#HIGHEST_PRECEDENCE}
	 */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	/**
	 * One call through the interceptor: the attempts of one request, and their shared clock.
	 */
	private final class Exchange {

		private final ClientSettings client;

		private final RetrySettings settings;

		private final RequestFacts facts;

		private final HttpRequest request;

		private final byte[] body;

		private final ClientHttpRequestExecution execution;

		/** The client's retry budget as the planner sees it (SPEC rule 4): each retry takes from it. */
		private final RetryPermits permits;

		/** The client's retry budget, which counts this request once it is sent; null if off. */
		private final @Nullable RetryBudget budget;

		/** The cooldown key, resolved on first use: most requests never need it. */
		private @Nullable CooldownKey cooldownKey;

		private boolean originResolved;

		private final long startNanos;

		Exchange(ClientSettings client, RequestFacts facts, HttpRequest request, byte[] body,
				ClientHttpRequestExecution execution) {
			this.client = client;
			this.settings = client.settings();
			this.facts = facts;
			this.request = request;
			this.body = body;
			this.execution = execution;
			this.budget = RetryAfterInterceptor.this.budgets.budget(client.name());
			this.permits = (this.budget != null) ? this.budget.permits() : RetryPermits.UNLIMITED;
			this.startNanos = RetryAfterInterceptor.this.monotonicClock.nanoTime();
		}

		ClientHttpResponse run() throws IOException {
			Admission.Refuse refused = admit();
			if (refused != null) {
				throw new RetryRefusedException(origin(), StopReason.COOLDOWN, refused.timeLeft());
			}
			// A request counts towards its client's retry budget once it is sent: one refused
			// by a cooldown was never made, and must not pay for other requests' retries.
			if (this.budget != null) {
				this.budget.recordRequest();
			}
			for (int attempt = 1;; attempt++) {
				Attempt result = send();
				RetryDecision decision = decide(result, attempt);
				if (!(decision instanceof RetryDecision.Retry retry)) {
					return result.deliver();
				}
				ClientHttpResponse calledOff = waitForRetry(result, retry);
				if (calledOff != null) {
					return calledOff;
				}
				if (retry.isServerPaced() && this.budget != null) {
					// A server-paced retry spends no budget but is a request the origin sees.
					this.budget.recordRequest();
				}
			}
		}

		/**
		 * Waits out a planned retry and checks it may still be sent.
		 * <p>
		 * The planner took a retry-budget permit for this retry (rule 4). A retry called off
		 * here (the deadline passed, a cooldown refused it, the wait was interrupted) is never
		 * sent, so its permit goes back, as the planner gives back one taken for a retry a
		 * later rule stopped.
		 * @return what the caller gets when the retry is called off, or {@code null} to send it
		 */
		private @Nullable ClientHttpResponse waitForRetry(Attempt result, RetryDecision.Retry retry)
				throws IOException {
			boolean sending = false;
			try {
				Attempt kept = result.keepForRetry();
				pause(retry.delay());
				if (!deadlineAllowsAnotherAttempt()) {
					listener().stoppedWithoutAttempt(this.client.name(), this.facts.method(),
							StopReason.BUDGET_EXHAUSTED);
					return kept.deliverInsteadOfRetry(origin(), StopReason.BUDGET_EXHAUSTED, timeLeft());
				}
				Admission.Refuse refused = admit();
				if (refused != null) {
					return kept.deliverInsteadOfRetry(origin(), StopReason.COOLDOWN, refused.timeLeft());
				}
				sending = true;
				return null;
			}
			finally {
				if (!sending && !retry.isServerPaced()) {
					this.permits.refund();
				}
			}
		}

		/**
		 * The cooldown this request honours and sets: its origin, split by the client's
		 * partition headers; {@code null} when the client's cooldown is off (or the URI has
		 * no usable origin).
		 */
		private @Nullable CooldownKey cooldownKey() {
			if (!this.originResolved) {
				this.cooldownKey = resolveCooldownKey();
				this.originResolved = true;
			}
			return this.cooldownKey;
		}

		private @Nullable CooldownKey resolveCooldownKey() {
			URI uri = this.request.getURI();
			if (!this.settings.cooldown().enabled() || uri.getScheme() == null || uri.getHost() == null) {
				return null;
			}
			Origin origin;
			try {
				origin = Origin.of(uri.getScheme(), uri.getHost(), uri.getPort());
			}
			catch (IllegalArgumentException ex) {
				return null;
			}
			HttpHeaders headers = this.request.getHeaders();
			return new CooldownKey(origin,
					CooldownPartition.of(this.settings.cooldown().partitionHeaders(), headers::get));
		}

		/**
		 * Admission before each send: a key cooling down holds the request (plus jitter)
		 * when that fits the budget, or refuses it. A request is held at most once per
		 * attempt: once its hold ends it is sent, even if other responses extended the
		 * cooldown meanwhile. Holding it again is what starved herds: every released request
		 * that met a fresh 429 re-held all the others, round after round, until their
		 * budgets ran out and they failed without ever being sent.
		 * @return the refusal, already reported to the listener, or {@code null} to send
		 */
		private Admission.@Nullable Refuse admit() throws InterruptedIOException {
			// With no origin cooling down at all, nothing can hold this request: skip building
			// its origin and asking the store. A cooldown another thread records while this
			// check runs may be missed by this one request, exactly as if the request had been
			// admitted a moment earlier; every request that checks after the record sees it.
			if (!this.settings.cooldown().enabled() || !RetryAfterInterceptor.this.cooldowns.hasCooldowns()) {
				return null;
			}
			CooldownKey key = cooldownKey();
			if (key == null) {
				return null;
			}
			MonotonicClock clock = RetryAfterInterceptor.this.monotonicClock;
			long now = clock.nanoTime();
			Admission admission = RetryAfterInterceptor.this.cooldowns.admit(key, now, timeLeft(),
					this.settings.attemptReserve(), this.settings.cooldown().mode(), this.settings.jitter(),
					RetryAfterInterceptor.this.random);
			if (admission instanceof Admission.Wait wait) {
				sleep(wait.delay(), true);
				listener().held(this.client.name(), this.facts.method(), key,
						Duration.ofNanos(clock.nanoTime() - now));
			}
			else if (admission instanceof Admission.Refuse refuse) {
				listener().stoppedWithoutAttempt(this.client.name(), this.facts.method(), StopReason.COOLDOWN);
				return refuse;
			}
			return null;
		}

		/**
		 * Starts the key's cooldown from a cooldown status's valid {@code Retry-After} (by
		 * default a 429's only: a 503 is often one sick backend behind a load balancer, so
		 * it paces only its own request), whatever this request does next.
		 */
		private void recordCooldown(int status, RetryAfter retryAfter, Instant receivedAt) {
			if (retryAfter instanceof RetryAfter.Delay delay && this.settings.cooldown().statuses().contains(status)) {
				CooldownKey key = cooldownKey();
				if (key != null) {
					RetryAfterInterceptor.this.cooldowns.record(key, delay.delay(),
							RetryAfterInterceptor.this.monotonicClock.nanoTime(), receivedAt);
				}
			}
		}

		private Attempt send() throws IOException {
			ClientHttpResponse response;
			try {
				response = this.execution.execute(this.request, this.body);
			}
			catch (IOException ex) {
				return Attempt.failed(ex);
			}
			try {
				// HttpURLConnection only reads the response when asked for its status, so
				// that is when it has been received (and when its read timeout can strike).
				int status = response.getStatusCode().value();
				HttpHeaders headers = response.getHeaders();
				List<String> fieldLines = headers.get(RETRY_AFTER);
				RetryAfter retryAfter = RetryAfter.ABSENT;
				// Without the field (most responses) there is nothing to parse, so no instant
				// to stamp either: the wall clock is read only when an HTTP-date may need it.
				if (fieldLines != null && !fieldLines.isEmpty()) {
					Instant receivedAt = RetryAfterInterceptor.this.wallClock.instant();
					retryAfter = RetryAfterParser.parse(fieldLines, receivedAt, headers.getFirst(DATE),
							this.settings.header().dateReference());
					recordCooldown(status, retryAfter, receivedAt);
				}
				return Attempt.responded(response, new AttemptOutcome.Response(status, retryAfter));
			}
			catch (IOException ex) {
				response.close();
				return Attempt.failed(ex);
			}
			catch (RuntimeException | Error ex) {
				response.close();
				throw ex;
			}
		}

		private RetryDecision decide(Attempt result, int attempt) {
			try {
				RetryDecision decision = RetryPlanner.decide(this.settings, this.facts, result.outcome(), attempt,
						elapsed(), this.permits, RetryAfterInterceptor.this.random);
				if (attempt == 1 && wouldContinue(decision)
						&& RetryAfterInterceptor.this.outerRetry.isOuterRetryActive()) {
					decision = handBack(decision);
				}
				listener().attemptCompleted(this.client.name(), this.facts.method(), attempt, result.outcome(),
						decision);
				return decision;
			}
			catch (RuntimeException | Error ex) {
				// An interceptor that throws after receiving a response must close it
				// (ClientHttpRequestInterceptor contract).
				result.discard();
				throw ex;
			}
		}

		/**
		 * Whether the planner's decision is anything but a normal end: only then can an outer
		 * retry layer matter, so a call that succeeds never asks for one.
		 */
		private boolean wouldContinue(RetryDecision decision) {
			return !(decision instanceof RetryDecision.Stop stop) || stop.reason().isAbandonment();
		}

		/**
		 * Leaves the retrying to the outer layer: it plans its own wait (from the same
		 * {@code Retry-After}) and decides whether to try again, so this interceptor neither
		 * waits nor spends a retry-budget permit, and gives back the one the planner took.
		 */
		private RetryDecision handBack(RetryDecision decision) {
			if (decision instanceof RetryDecision.Retry) {
				this.permits.refund();
			}
			return OUTER_RETRY;
		}

		private void pause(Duration planned) throws InterruptedIOException {
			MonotonicClock clock = RetryAfterInterceptor.this.monotonicClock;
			long before = clock.nanoTime();
			sleep(planned, false);
			listener().waited(this.client.name(), planned, Duration.ofNanos(clock.nanoTime() - before));
		}

		/**
		 * Waits {@code planned}: a retry's planned wait, or a hold for the origin's cooldown.
		 */
		private void sleep(Duration planned, boolean cooldownHold) throws InterruptedIOException {
			try {
				RetryAfterInterceptor.this.sleeper.sleep(planned);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				listener().stoppedWithoutAttempt(this.client.name(), this.facts.method(), StopReason.INTERRUPTED);
				String wait = RetryRefusedException.format(planned);
				InterruptedIOException interrupted = new InterruptedIOException(cooldownHold
						? this.facts.method() + " request to " + origin() + " interrupted while held " + wait
								+ " for the origin's cooldown"
						: "Retry of " + this.facts.method() + " request to " + origin() + " interrupted while waiting "
								+ wait + " before the next attempt");
				interrupted.initCause(ex);
				throw interrupted;
			}
		}

		/**
		 * The planner already kept {@code attempt-reserve} of the budget for the next
		 * attempt, so only a budget spent entirely stops here. A wait that overran its plan
		 * (a late wake-up, a paused VM) eats into the reserve: that is what the reserve is
		 * for, and sending then is still within the caller's budget.
		 */
		private boolean deadlineAllowsAnotherAttempt() {
			return elapsed().compareTo(this.settings.totalBudget()) < 0;
		}

		private Duration elapsed() {
			return Duration.ofNanos(RetryAfterInterceptor.this.monotonicClock.nanoTime() - this.startNanos);
		}

		private Duration timeLeft() {
			Duration left = this.settings.totalBudget().minus(elapsed());
			return left.isNegative() ? Duration.ZERO : left;
		}

		private String origin() {
			return RetryRefusedException.originOf(this.request.getURI());
		}

		private RetryListener listener() {
			return RetryAfterInterceptor.this.listener;
		}

	}

	/**
	 * How one attempt ended: a response or an exception, and its outcome for the planner.
	 */
	private static final class Attempt {

		private final @Nullable ClientHttpResponse response;

		private final @Nullable IOException failure;

		private final AttemptOutcome outcome;

		private Attempt(@Nullable ClientHttpResponse response, @Nullable IOException failure,
				AttemptOutcome outcome) {
			this.response = response;
			this.failure = failure;
			this.outcome = outcome;
		}

		static Attempt responded(ClientHttpResponse response, AttemptOutcome.Response outcome) {
			return new Attempt(response, null, outcome);
		}

		static Attempt failed(IOException failure) {
			return new Attempt(null, failure, new AttemptOutcome.IoFailure(IoFailures.classify(failure)));
		}

		AttemptOutcome outcome() {
			return this.outcome;
		}

		/** Hands the caller what the attempt produced, exactly as received. */
		ClientHttpResponse deliver() throws IOException {
			if (this.response != null) {
				return this.response;
			}
			throw Objects.requireNonNull(this.failure);
		}

		/**
		 * Releases the attempt's connection before waiting, keeping an in-memory copy of the
		 * response in case the retry is called off.
		 */
		Attempt keepForRetry() throws IOException {
			if (this.response == null) {
				return this;
			}
			return new Attempt(ResponseCopy.of(this.response, BODY_COPY_LIMIT), null, this.outcome);
		}

		/**
		 * Hands the caller the last outcome when the next attempt is called off; a response
		 * whose body was too long to keep cannot be handed back, so the caller learns why
		 * nothing more was sent instead.
		 */
		ClientHttpResponse deliverInsteadOfRetry(String origin, StopReason reason, Duration timeLeft)
				throws IOException {
			if (this.response instanceof ResponseCopy copy && !copy.isComplete()) {
				throw new RetryRefusedException(origin, reason, timeLeft);
			}
			return deliver();
		}

		void discard() {
			if (this.response != null) {
				this.response.close();
			}
		}

	}

}
