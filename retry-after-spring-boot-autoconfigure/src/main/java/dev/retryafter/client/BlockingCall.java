package dev.retryafter.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

import dev.retryafter.api.RetryInterruptedException;
import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.call.AttemptsSpent;
import dev.retryafter.call.CallContext;
import dev.retryafter.call.ResponseOutcomes;
import dev.retryafter.call.RetryCall;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.Sleeper;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.protection.Admission;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * One call through the {@link RetryAfterInterceptor}: the attempts of one request, sent on
 * the calling thread, with the waits slept through the {@link Sleeper}.
 * <p>
 * When the client splits cooldowns by request headers, each attempt carries a
 * {@link SentRequest}, through which the {@link SentRequestFactory} hands the call the request
 * as it is sent: the call admits it again there under the key of its headers as sent, holding
 * the thread or refusing it, since the application's interceptors may have added those
 * headers after this one ran.
 */
final class BlockingCall extends RetryCall {

	private final CallContext context;

	private final Sleeper sleeper;

	private final HttpRequest request;

	private final byte[] body;

	private final ClientHttpRequestExecution execution;

	private final ClientSettings client;

	/** Whether the request as sent decides the cooldown key: then each attempt carries a {@link SentRequest}. */
	private final boolean partitioned;

	/** What stopped the request where it was being sent (a refusal, an interrupted hold), if anything. */
	private @Nullable IOException stoppedAsSent;

	/** Whether the call is ending with its retries spent (see {@link AttemptsSpent}). */
	private boolean spent;

	/** The copy of the last response, kept while a retry is sent in case it is refused as sent. */
	private @Nullable BlockingAttempt kept;

	BlockingCall(CallContext context, Sleeper sleeper, ClientSettings client, RequestFacts facts, HttpRequest request,
			byte[] body, ClientHttpRequestExecution execution) {
		super(context, client, facts);
		this.context = context;
		this.sleeper = sleeper;
		this.request = request;
		this.body = body;
		this.execution = execution;
		this.client = client;
		this.partitioned = context.partitioned(client.settings());
	}

	/**
	 * Takes over after a first attempt the interceptor sent and counted.
	 * @param sent what the innermost element saw of that attempt, {@code null} when the
	 * client does not split cooldowns by request headers
	 */
	BlockingCall(CallContext context, Sleeper sleeper, ClientSettings client, RequestFacts facts, HttpRequest request,
			byte[] body, ClientHttpRequestExecution execution, @Nullable RetryBudget budget, long startNanos,
			@Nullable SentRequest sent) {
		super(client, facts, budget, startNanos);
		this.context = context;
		this.sleeper = sleeper;
		this.request = request;
		this.body = body;
		this.execution = execution;
		this.client = client;
		this.partitioned = (sent != null);
		if (sent != null) {
			seen(sent);
		}
	}

	/** Takes the cooldown key from the attempt as sent, or warns that it was not seen. */
	private void seen(SentRequest sent) {
		URI uri = sent.uri();
		HttpHeaders headers = sent.headers();
		if (uri != null && headers != null) {
			sentAs(uri, headers);
		}
		else {
			this.context.notSeenAsSent(this.client, this.request.getURI());
		}
	}

	/**
	 * Admits the attempt as the {@link SentRequestFactory} is about to send it: a cooldown of
	 * the key of its headers as sent may hold this thread, or refuse it.
	 * @param uri the URI as sent
	 * @param headers the headers as sent
	 * @throws IOException the refusal, or the interruption of the hold
	 */
	void sending(URI uri, HttpHeaders headers) throws IOException {
		try {
			Admission admission = admissionAsSent(uri, headers);
			if (admission instanceof Admission.Wait wait) {
				hold(wait);
			}
			else if (admission instanceof Admission.Refuse refuse) {
				throw new RetryRefusedException(origin(), StopReason.COOLDOWN, refuse.timeLeft());
			}
		}
		catch (IOException ex) {
			// The application's interceptors between here and the call may wrap it: the call
			// tells its own stop by this field, not by what reaches it.
			this.stoppedAsSent = ex;
			throw ex;
		}
	}

	@Override
	protected CallContext context() {
		return this.context;
	}

	@Override
	protected URI uri() {
		return this.request.getURI();
	}

	@Override
	protected HttpHeaders requestHeaders() {
		return this.request.getHeaders();
	}

	ClientHttpResponse run(RetryListener.Call watch) throws IOException {
		watching(watch);
		try {
			Admission.Refuse refused = admit();
			if (refused != null) {
				throw new RetryRefusedException(origin(), StopReason.COOLDOWN, refused.timeLeft());
			}
			firstAttemptSent();
			return continueWith(send());
		}
		catch (IOException | RuntimeException | Error ex) {
			failed(ex);
			throw ex;
		}
	}

	/**
	 * Decides after the first attempt, and retries for as long as the planner says. When it
	 * ends with the retries spent, the thread's {@link AttemptsSpent} note says so, for a
	 * retry layer around the client on the same policy.
	 * @param first the first attempt's result
	 */
	ClientHttpResponse continueWith(BlockingAttempt first) throws IOException {
		try {
			ClientHttpResponse response = attempts(first);
			if (this.spent) {
				AttemptsSpent.responded(response.getStatusCode().value());
			}
			return response;
		}
		catch (IOException ex) {
			if (this.spent) {
				AttemptsSpent.failed(ex);
			}
			throw ex;
		}
	}

	private ClientHttpResponse attempts(BlockingAttempt first) throws IOException {
		BlockingAttempt result = first;
		for (int attempt = 1;; attempt++) {
			RetryDecision decision = decideOrDiscard(result, attempt);
			if (!(decision instanceof RetryDecision.Retry retry)) {
				this.spent = spends(decision);
				return result.deliver();
			}
			// Called off from here on (deadline, cooldown, interruption): the retries are spent.
			this.spent = true;
			ClientHttpResponse calledOff = waitForRetry(result, retry);
			if (calledOff != null) {
				return calledOff;
			}
			this.spent = false;
			retrySent(retry);
			try {
				result = send();
			}
			catch (RetryRefusedException ex) {
				// Refused as sent: as if refused before, the caller gets the last response.
				this.spent = true;
				retryCalledOff(retry);
				return Objects.requireNonNull(this.kept).deliverInsteadOfRetry(origin(), ex.getReason(), timeLeft());
			}
			catch (IOException ex) {
				this.spent = true;
				retryCalledOff(retry);
				throw ex;
			}
		}
	}

	/**
	 * Whether a stop leaves nothing for an outer layer on the same settings to retry: every
	 * abandonment but a method the client would not repeat, which an outer layer that chose
	 * to repeat the whole operation may.
	 */
	private static boolean spends(RetryDecision decision) {
		StopReason reason = ((RetryDecision.Stop) decision).reason();
		return reason.isAbandonment() && reason != StopReason.NON_IDEMPOTENT;
	}

	/**
	 * Waits out a planned retry and checks it may still be sent.
	 * <p>
	 * The planner took a retry-budget permit for this retry (rule 4). A retry called off
	 * here (the deadline passed, a cooldown refused it, the wait was interrupted) is never
	 * sent, so its permit goes back.
	 * @return what the caller gets when the retry is called off, or {@code null} to send it
	 */
	private @Nullable ClientHttpResponse waitForRetry(BlockingAttempt result, RetryDecision.Retry retry)
			throws IOException {
		boolean sending = false;
		BlockingAttempt kept = null;
		try {
			kept = result.keepForRetry(this.context.recordedBytes());
			// Kept for a retry refused as sent too; its bytes are given back below all the same,
			// since a refusal there is rare and the copy is dropped with the call.
			this.kept = kept;
			pause(retry.delay());
			if (deadlinePassed()) {
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
			// Sent, handed to the caller, or interrupted: the call keeps the copy no longer.
			if (kept != null) {
				kept.release();
			}
			if (!sending) {
				retryCalledOff(retry);
			}
		}
	}

	/**
	 * Admits the request before a send, holding it on this thread when the cooldown
	 * asks for it.
	 * @return the refusal, already reported to the listener, or {@code null} to send
	 */
	private Admission.@Nullable Refuse admit() throws InterruptedIOException {
		Admission admission = admission();
		if (admission instanceof Admission.Wait wait) {
			hold(wait);
			// A wait for another route's probe ends with its answer known: ask again (once).
			return (wait.reason() == HoldReason.PROBE) ? admit() : null;
		}
		return (Admission.Refuse) admission;
	}

	/** Holds this thread for {@code wait}, and for the hold a new cooldown may add to it. */
	private void hold(Admission.Wait wait) throws InterruptedIOException {
		long since = waitStarts(wait.delay(), true);
		sleep(wait.delay(), true);
		Admission.Wait again = held(since);
		if (again != null) {
			hold(again);
		}
	}

	/**
	 * Sends one attempt.
	 * @throws IOException only what stopped the request as it was being sent
	 * ({@link #sending}); every other failure is the attempt's outcome
	 */
	private BlockingAttempt send() throws IOException {
		SentRequest sent = this.partitioned ? SentRequest.expect(this.request, this) : null;
		this.stoppedAsSent = null;
		ClientHttpResponse response;
		try {
			response = this.execution.execute(this.request, this.body);
		}
		catch (IOException | RuntimeException ex) {
			if (this.stoppedAsSent != null) {
				throw this.stoppedAsSent;
			}
			if (ex instanceof RuntimeException runtime) {
				throw runtime;
			}
			return BlockingAttempt.failed((IOException) ex);
		}
		if (sent != null && !sent.seen()) {
			this.context.notSeenAsSent(this.client, this.request.getURI());
		}
		int status;
		try {
			// HttpURLConnection only reads the response when asked for its status, so
			// that is when it has been received (and when its read timeout can strike).
			status = response.getStatusCode().value();
		}
		catch (IOException ex) {
			response.close();
			return BlockingAttempt.failed(ex);
		}
		catch (RuntimeException | Error ex) {
			response.close();
			throw ex;
		}
		return received(response, status);
	}

	/**
	 * Reads a received response's {@code Retry-After} (which may start its origin's
	 * cooldown) into the attempt's outcome.
	 */
	BlockingAttempt received(ClientHttpResponse response, int status) {
		try {
			if (response instanceof RedirectedResponse redirected) {
				respondedFrom(redirected.responder());
			}
			return BlockingAttempt.responded(response, outcome(status, response.getHeaders()));
		}
		catch (RuntimeException | Error ex) {
			response.close();
			throw ex;
		}
	}

	private RetryDecision decideOrDiscard(BlockingAttempt result, int attempt) {
		try {
			return decide(result.outcome(), attempt);
		}
		catch (RuntimeException | Error ex) {
			// An interceptor that throws after receiving a response must close it
			// (ClientHttpRequestInterceptor contract).
			result.discard();
			throw ex;
		}
	}

	private void pause(Duration planned) throws InterruptedIOException {
		long before = waitStarts(planned, false);
		sleep(planned, false);
		waited(planned, before);
	}

	/**
	 * Waits {@code planned}: a retry's planned wait, or a hold for the origin's cooldown.
	 */
	private void sleep(Duration planned, boolean cooldownHold) throws InterruptedIOException {
		try {
			this.sleeper.sleep(planned);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			stopped(StopReason.INTERRUPTED);
			String wait = RetryRefusedException.format(planned);
			throw new RetryInterruptedException(cooldownHold
					? method() + " request to " + origin() + " interrupted while held " + wait
							+ " for the origin's cooldown"
					: "Retry of " + method() + " request to " + origin() + " interrupted while waiting " + wait
							+ " before the next attempt", ex);
		}
	}

}
