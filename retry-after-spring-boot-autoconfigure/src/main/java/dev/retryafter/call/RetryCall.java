package dev.retryafter.call;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.header.RetryAfterParser;
import dev.retryafter.core.header.ServerHints;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.spi.RetriedInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * One logical call through a client adapter: the attempts of one request, their shared clock,
 * and every decision about them that does not depend on how the HTTP client does its I/O.
 * The blocking interceptor ({@code client.BlockingCall}) and the reactive exchange filter
 * ({@code reactive.ExchangeCall}) add only their sending and waiting, and follow these steps,
 * each but the first a method here, in this order:
 * <ol>
 * <li>The first-attempt shortcut, in both adapters: most calls end at their first response,
 * so while no cooldown may hold the request ({@link CallContext#mayHold}) and nothing needs a
 * call from the start (a listener watching calls; for the reactive filter, an outer retry
 * layer or a key read from the request as sent), the adapter sends the first attempt
 * without one ({@link CallContext#firstAttemptStarts} counts it). A response
 * {@link FirstAttemptRules#settledBy} settles is reported and handed back, no call built;
 * any other outcome goes on at step 6 in a call that takes over, deciding as one would have
 * from the start.</li>
 * <li>{@link #watch}: a listener that follows calls gets this one (spans, DEBUG lines).</li>
 * <li>{@link #admission}: the cooldown store's door decides whether the first attempt may go
 * now; a hold is waited out ({@link #waitStarts}, then {@link #held}, which may add one), a
 * refusal ends the call ({@code CallCooldown} keeps the key, the hold's reason, holder).</li>
 * <li>{@link #admissionAsSent} (or {@link #sentAs}): the adapter's innermost element, after
 * the application's own interceptors or filters, admits the request again under the key of
 * its headers as sent, unless the attempt was held already.</li>
 * <li>{@link #firstAttemptSent} (later: {@link #retrySent}): the request counts towards the
 * retry budget.</li>
 * <li>{@link #respondedFrom}: a response from another origin, after a redirect, is charged
 * to that origin.</li>
 * <li>{@link #outcome}: the response's {@code Retry-After}, hints and quota fields become the
 * outcome, its cooldown, quota or acceptance are recorded.</li>
 * <li>{@link #decide}: the planner decides, with the retry budget's permits, or an outer
 * retry layer takes the decision back.</li>
 * <li>For a retry: {@link #deadlinePassed}, the planned wait ({@link #waitStarts}, then
 * {@link #waited}), {@link #admission} again (a retry is neither queued nor paced, but a
 * cooldown may refuse it), and back to step 4; {@link #retryCalledOff} gives the permit back
 * for a retry never sent.</li>
 * <li>{@link #stopped}: the reason the call ended, for the meters and the listener.</li>
 * </ol>
 * <p>
 * A call is used by one caller at a time (its attempts are sequential), never shared. It
 * holds only its own state: the subclass gives the collaborators, the URI and the headers
 * ({@link #context()}, {@link #uri()}, {@link #requestHeaders()}) from what it holds anyway.
 *
 * @since 0.1.0
 */
public abstract class RetryCall {

	/**
	 * Most body bytes kept in memory from a response that is retried: 429 and 503 bodies are
	 * short, and only a called-off retry ever hands the copy back.
	 */
	public static final int BODY_COPY_LIMIT = 64 * 1024;

	private final ClientSettings client;

	private final RetrySettings settings;

	private RequestFacts facts;

	/** The call's time budget, and its client's retry budget as the call spends it. */
	private final CallBudget budget;

	/** The cooldown side of the call: its key, its admissions, what its responses record. */
	private final CallCooldown cooldown;

	/** Follows this call's attempts and waits as they happen; nothing unless {@link #watch} found a watcher. */
	private RetryListener.Call watch = RetryListener.Call.NONE;

	/** Attempts sent so far, for the watcher. */
	private int sent;

	/**
	 * Starts a call: its time budget runs from now.
	 * @param context the collaborators shared by the adapter's calls, as {@link #context()} gives them
	 * @param client the named client the request belongs to
	 * @param facts the facts the planner needs about the request
	 */
	protected RetryCall(CallContext context, ClientSettings client, RequestFacts facts) {
		this(client, facts, context.budgets().budget(client.name()), context.monotonicClock().nanoTime(), false);
	}

	/**
	 * Takes over a request whose first attempt has been sent and answered without this call,
	 * when that answer may be retried: the adapter built nothing more for the common case.
	 * @param client the named client the request belongs to
	 * @param facts the facts the planner needs about the request
	 * @param budget the client's retry budget, which already counted the request, or
	 * {@code null}
	 * @param startNanos when the request started, from {@link CallContext#firstAttemptStarts}
	 */
	protected RetryCall(ClientSettings client, RequestFacts facts, @Nullable RetryBudget budget, long startNanos) {
		this(client, facts, budget, startNanos, true);
	}

	private RetryCall(ClientSettings client, RequestFacts facts, @Nullable RetryBudget budget, long startNanos,
			boolean firstSent) {
		this.client = client;
		this.settings = client.settings();
		this.facts = facts;
		this.budget = new CallBudget(client, budget, startNanos, firstSent);
		// It asks this call for its collaborators, URI and headers only when used, never now.
		this.cooldown = new CallCooldown(this, this.settings, client.name(), firstSent, startNanos);
	}

	/**
	 * The collaborators shared by the adapter's calls: the same as given to the constructor.
	 * @return the adapter's calls
	 */
	protected abstract CallContext context();

	/**
	 * The request URI: its origin is the cooldown key's, and names the origin in exceptions.
	 * @return the URI
	 */
	protected abstract URI uri();

	/**
	 * The request headers, read for the cooldown partition.
	 * @return the headers
	 */
	protected abstract HttpHeaders requestHeaders();

	/**
	 * Lets a listener that watches calls (a tracer) follow this one from its start: the
	 * adapter calls this once, before the first admission. Nothing happens unless the
	 * listener {@link RetryListener#watchesCalls() watches calls}.
	 * @param parent what the adapter found of the context the call runs in, or {@code null}
	 * when it runs on the calling thread
	 * @since 0.2.0
	 */
	protected final void watch(@Nullable Object parent) {
		if (!context().watched()) {
			return;
		}
		this.watch = context().listener().callStarted(this.client.name(), this.facts.method(), parent);
	}

	/** Follows {@code call}, which the adapter asked {@link RetryListener#callStarted} for itself. */
	protected final void watching(RetryListener.Call call) {
		this.watch = call;
	}

	/**
	 * Reports that the call ended by an error that is no attempt's outcome, or that its caller
	 * went away ({@code null}), so a watcher ends the attempt or wait under way.
	 * @param error the error, or {@code null}
	 * @since 0.2.0
	 */
	protected final void failed(@Nullable Throwable error) {
		this.watch.failed(error);
	}

	/**
	 * Reads the clock as a wait begins: a retry's planned wait, or a cooldown hold.
	 * @param planned how long the wait is planned to last
	 * @param hold whether it is a cooldown hold
	 * @return the reading to hand to {@link #waited} or {@link #held} when it ends
	 * @since 0.2.0
	 */
	protected final long waitStarts(Duration planned, boolean hold) {
		this.watch.waitStarted(planned, hold);
		return nanoTime();
	}

	/** The upper-case request method, as the planner and the listener see it. */
	protected final String method() {
		return this.facts.method();
	}

	/** Says whether the request body can still be sent again, for the decisions that follow. */
	protected final void bodyReplayable(boolean replayable) {
		RequestFacts current = this.facts;
		if (current.bodyReplayable() != replayable) {
			this.facts = new RequestFacts(current.method(), current.mark(), current.hasIdempotencyKey(), replayable);
		}
	}

	/**
	 * Admission before each send: a key cooling down holds the request (plus jitter) when
	 * that fits the budget, or refuses it. A request is held once per attempt, then sent even
	 * if other responses extended the cooldown meanwhile (holding it again starved herds: each
	 * fresh 429 re-held all the others); only a learned-pace slot a new cooldown overtook
	 * holds it once more, once per call ({@link #held(long)}).
	 * @return {@code null} to send now; an {@link Admission.Wait} to hold the request for its
	 * delay, then report {@link #held(long)} and send; or an {@link Admission.Refuse}, already
	 * reported to the listener, to send nothing
	 */
	protected final @Nullable Admission admission() {
		return reported(this.cooldown.admit(!this.budget.firstSent()));
	}

	private @Nullable Admission reported(@Nullable Admission admission) {
		if (admission instanceof Admission.Refuse) {
			stopped(StopReason.COOLDOWN);
		}
		return admission;
	}

	/**
	 * Admission of the request as the adapter's innermost element saw it about to be sent
	 * (after the application's interceptors or filters), under the key of its headers as sent,
	 * which its response then records under too.
	 * @param uri the URI as sent
	 * @param headers the headers as sent
	 * @return as {@link #admission()}
	 */
	protected final @Nullable Admission admissionAsSent(URI uri, HttpHeaders headers) {
		return reported(this.cooldown.admitAsSent(uri, headers));
	}

	/** Says how the request was sent, when no admission is wanted there (see {@link #admissionAsSent}). */
	protected final void sentAs(URI uri, HttpHeaders headers) {
		this.cooldown.sentAs(uri, headers);
	}

	/** Charges the response to the other origin that sent it: the transport followed a redirect there. */
	protected final void respondedFrom(URI responder) {
		this.cooldown.respondedFrom(responder);
	}

	/**
	 * Reports that the hold {@link #admission()} asked for has ended.
	 * @param sinceNanos when the hold began, from {@link #nanoTime()}
	 * @return a hold still ahead, when a new cooldown overtook the learned-pace slot the
	 * request waited for (once per call), or {@code null} to send the request now
	 */
	protected final Admission.@Nullable Wait held(long sinceNanos) {
		CooldownKey key = this.cooldown.holder();
		Duration heldFor = this.cooldown.left(sinceNanos);
		this.watch.waitEnded(heldFor);
		if (key != null) {
			context().listener().held(this.client.name(), this.facts.method(), key, heldFor, this.cooldown.holdReason());
		}
		return this.cooldown.holdAgain();
	}

	/**
	 * Counts the request towards its retry budget as first sent (one a cooldown refused never pays).
	 */
	protected final void firstAttemptSent() {
		this.sent = 1;
		this.cooldown.attemptSent(nanoTime());
		this.watch.attemptStarted(1);
		this.budget.firstAttemptSent();
	}

	/**
	 * Counts a retry being sent: a server-paced one spends no budget (the planner took no
	 * permit for it) but is a request the origin sees.
	 * @param retry the retry being sent
	 */
	protected final void retrySent(RetryDecision.Retry retry) {
		this.watch.attemptStarted(++this.sent);
		this.cooldown.attemptSent(nanoTime());
		this.budget.retrySent(retry);
	}

	/**
	 * Gives back the planner's permit for a retry never sent (the deadline passed, a cooldown
	 * refused it, the wait was interrupted or cancelled), as for a retry a later rule stopped.
	 * @param retry the retry called off
	 */
	protected final void retryCalledOff(RetryDecision.Retry retry) {
		this.budget.retryCalledOff(retry);
	}

	/**
	 * Reads a response's {@code Retry-After} and retry hints into its outcome, and starts its
	 * key's cooldown from a cooldown status's valid delay (by default a 429's only: a 503 is
	 * often one sick backend behind a load balancer, so it paces only its own request) or a
	 * rate-limited 403's, whatever this request does next.
	 * @param status the response status
	 * @param headers the response headers
	 * @return the outcome
	 */
	protected final AttemptOutcome.Response outcome(int status, HttpHeaders headers) {
		ServerHints hints = (status >= 400) ? ResponseOutcomes.hints(headers, this.settings, context().wallClock()::instant)
				: ServerHints.NONE;
		this.cooldown.quota(status, headers);
		List<String> fieldLines = headers.get(ResponseOutcomes.RETRY_AFTER);
		// Without the field (most responses) nothing is parsed: the wall clock is read only
		// when an HTTP-date may need it.
		RetryAfter retryAfter = (fieldLines == null || fieldLines.isEmpty()) ? RetryAfter.ABSENT
				: RetryAfterParser.parse(fieldLines, context().wallClock().instant(), headers.getFirst(HttpHeaders.DATE),
						this.settings.header().dateReference());
		retryAfter = ServerHints.combine(retryAfter, hints);
		AttemptOutcome.Response outcome = ResponseOutcomes.outcome(status, retryAfter, hints);
		if (!this.settings.cooldown().statuses().contains(status)
				&& !RetryPlanner.isRateLimitedForbidden(this.settings, outcome)) {
			this.cooldown.accepted();
		}
		else if (retryAfter instanceof RetryAfter.Delay delay) {
			this.cooldown.record(delay.delay(), headers);
		}
		return outcome;
	}

	/**
	 * Plans what follows an attempt, with the client's retry-budget permits, and reports it.
	 * Under an outer retry layer that retries it, a first attempt that would continue is
	 * handed back to it instead (reason {@code outer-retry}).
	 * @param outcome how the attempt ended
	 * @param attempt the attempt number, 1 for the first
	 * @return the decision
	 */
	protected final RetryDecision decide(AttemptOutcome outcome, int attempt) {
		RetryDecision decision = this.budget.plan(this, this.facts, outcome, attempt);
		this.cooldown.planned(decision);
		context().listener().attemptCompleted(this.client.name(), this.facts.method(), attempt, outcome, decision);
		this.watch.attemptEnded(attempt, outcome, decision);
		return decision;
	}

	/**
	 * The invocation of an outer retry layer (Spring Framework's retry) this call runs in,
	 * which learns the {@code Retry-After} instant of an outcome handed back to it. Asked
	 * only once a first attempt would continue.
	 * @return the invocation, or {@code null} when none drives this call
	 */
	protected @Nullable RetriedInvocation retriedInvocation() {
		return context().outerRetry().invocation();
	}

	/** Whether an outer layer takes this failure: it is the blocking client's (the reactive adapter's own). */
	protected boolean takes(RetriedInvocation invocation, AttemptOutcome outcome) {
		return invocation.takes(outcome, false);
	}

	/**
	 * The deadline check right before a retry is sent. The planner already kept
	 * {@code attempt-reserve} of the budget for the next attempt, so only a budget spent
	 * entirely stops here. A wait that overran its plan (a late wake-up, a paused VM) eats
	 * into the reserve, which is what it is for: sending is still within the caller's budget.
	 * @return whether the whole budget is spent; if so it was reported (reason
	 * {@code budget-exhausted})
	 */
	protected final boolean deadlinePassed() {
		if (!this.budget.timeSpent(nanoTime())) {
			return false;
		}
		stopped(StopReason.BUDGET_EXHAUSTED);
		return true;
	}

	/** Reports that retrying stopped outside an attempt's decision, for {@code reason}. */
	protected final void stopped(StopReason reason) {
		context().listener().stoppedWithoutAttempt(this.client.name(), this.facts.method(), reason);
		this.watch.stopped(reason);
	}

	/**
	 * Reports a planned wait that ended.
	 * @param planned the planned wait
	 * @param sinceNanos when the wait began, from {@link #nanoTime()}
	 */
	protected final void waited(Duration planned, long sinceNanos) {
		Duration actual = Duration.ofNanos(context().monotonicClock().nanoTime() - sinceNanos);
		context().listener().waited(this.client.name(), planned, actual);
		this.watch.waitEnded(actual);
	}

	/** The monotonic clock this call is timed on, read now, in nanoseconds. */
	protected final long nanoTime() {
		return context().monotonicClock().nanoTime();
	}

	/** What is left of the call's total time budget, never negative. */
	protected final Duration timeLeft() {
		return this.budget.timeLeft(nanoTime());
	}

	/** The request's origin, as exception messages name it. */
	protected final String origin() {
		return RequestOrigins.originText(uri());
	}

}
