package dev.retryafter.springretry;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

import dev.retryafter.call.ResponseOutcomes;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.CauseChain;
import dev.retryafter.core.DurationMath;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import org.jspecify.annotations.Nullable;

import org.springframework.retry.RetryContext;
import org.springframework.retry.backoff.BackOffContext;
import org.springframework.retry.backoff.BackOffInterruptedException;
import org.springframework.retry.backoff.Sleeper;
import org.springframework.retry.backoff.SleepingBackOffPolicy;
import org.springframework.retry.backoff.ThreadWaitSleeper;
import org.springframework.web.client.RestClientResponseException;

/**
 * A spring-retry {@link org.springframework.retry.backoff.BackOffPolicy} that waits as the
 * Retry-After policy core plans, for code that retries with a spring-retry
 * {@code RetryTemplate} or {@code @Retryable} instead of the HTTP client interceptor.
 * <p>
 * When the retry context's last throwable is (or is caused by) a
 * {@link RestClientResponseException} carrying {@code Retry-After}, the wait follows the
 * header, never shorter, plus jitter; otherwise it is the local exponential backoff with
 * jitter. Both come from {@link RetryPlanner} with the same {@link RetrySettings} as the
 * interceptor.
 * <p>
 * Which exceptions are retried and how many times is the business of the template's
 * {@code RetryPolicy}: by the time this policy is asked to back off, that policy has already
 * decided to retry. So only the wait is planned ({@link RetryPlanner#planWait}); the retryable
 * statuses, the request's repeatability, {@code max-attempts} and the retry budget are not
 * consulted. When the planner stops (a {@code Retry-After}
 * longer than {@code header.max-wait}, a wait that does not fit {@code total-budget}, an
 * invalid header with {@code header.on-invalid=abandon}), this policy does not shorten the
 * wait: it throws a {@link BackOffInterruptedException} whose message names the reason and
 * whose cause is the last throwable. {@code RetryTemplate} propagates that exception to the
 * caller without a further attempt.
 * <p>
 * Time {@code total-budget} is measured on a monotonic clock from {@link #start}, which the
 * template calls before the first attempt. An HTTP-date {@code Retry-After} is measured from
 * the moment the back-off starts, just after the response arrived, so a wait is never shorter
 * than asked. Waits are handed to the {@link Sleeper} in whole milliseconds, rounded up.
 * <p>
 * {@link #start} marks the retry context ({@link #RETRYING_ATTRIBUTE}), so that the HTTP
 * client interceptor, through {@link BackOffPolicyRetryDetector}, sends a single attempt per
 * template attempt instead of retrying underneath the template.
 *
 * @since 0.1.0
 */
public class RetryAfterBackOffPolicy implements SleepingBackOffPolicy<RetryAfterBackOffPolicy> {

	/**
	 * Attribute {@link #start} sets on the retry context: a template (or a {@code @Retryable}
	 * interceptor) backing off with this policy is retrying whatever runs inside it.
	 */
	public static final String RETRYING_ATTRIBUTE = RetryAfterBackOffPolicy.class.getName() + ".RETRYING";

	private static final RandomGenerator THREAD_LOCAL_RANDOM = () -> ThreadLocalRandom.current().nextLong();

	private final RetrySettings settings;

	private final Sleeper sleeper;

	private final MonotonicClock monotonicClock;

	private final Clock wallClock;

	private final RandomGenerator random;

	/**
	 * Creates a policy on the system clocks that sleeps the calling thread.
	 * @param settings the settings to plan with, usually the default client's
	 */
	public RetryAfterBackOffPolicy(RetrySettings settings) {
		this(settings, new ThreadWaitSleeper(), MonotonicClock.SYSTEM, Clock.systemUTC(), THREAD_LOCAL_RANDOM);
	}

	RetryAfterBackOffPolicy(RetrySettings settings, Sleeper sleeper, MonotonicClock monotonicClock, Clock wallClock,
			RandomGenerator random) {
		this.settings = Objects.requireNonNull(settings, "settings");
		this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
		this.monotonicClock = Objects.requireNonNull(monotonicClock, "monotonicClock");
		this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
		this.random = Objects.requireNonNull(random, "random");
	}

	/**
	 * Returns a copy of this policy that waits through {@code sleeper}.
	 * @param sleeper the sleeper to use
	 * @return the copy
	 */
	@Override
	public RetryAfterBackOffPolicy withSleeper(Sleeper sleeper) {
		return new RetryAfterBackOffPolicy(this.settings, sleeper, this.monotonicClock, this.wallClock, this.random);
	}

	/**
	 * Starts a back-off sequence; called by the template before the first attempt. Marks the
	 * retry context with {@link #RETRYING_ATTRIBUTE}.
	 * @param context the retry context, whose last throwable drives each back-off
	 * @return the back-off context
	 */
	@Override
	public BackOffContext start(RetryContext context) {
		context.setAttribute(RETRYING_ATTRIBUTE, Boolean.TRUE);
		return new Context(context, this.monotonicClock.nanoTime());
	}

	/**
	 * The HTTP error response behind what a template using this policy threw: the cause of the
	 * {@link BackOffInterruptedException} it throws when it stops before a wait, or the
	 * {@link RestClientResponseException} itself when the retry policy gave up. The cause
	 * chain is searched, at most 16 deep.
	 * @param thrown what the template threw
	 * @return the last error response, or {@code null} if none is in the chain (an I/O
	 * failure, or an interrupted wait)
	 */
	public static @Nullable RestClientResponseException lastResponse(@Nullable Throwable thrown) {
		return responseException(thrown);
	}

	/**
	 * Waits before the next attempt as the planner says.
	 * @param backOffContext the context returned by {@link #start}
	 * @throws BackOffInterruptedException if the planner stops (the message names the reason;
	 * the wait is never shortened to fit a cap or budget), or if the wait is interrupted (the
	 * thread's interrupt flag is restored)
	 */
	@Override
	public void backOff(BackOffContext backOffContext) throws BackOffInterruptedException {
		Context context = (Context) backOffContext;
		Throwable last = context.retryContext.getLastThrowable();
		int attempt = Math.max(1, context.retryContext.getRetryCount());
		Duration elapsed = Duration.ofNanos(this.monotonicClock.nanoTime() - context.startNanos);
		AttemptOutcome outcome = outcome(last);
		RetryDecision decision = RetryPlanner.planWait(this.settings, outcome, attempt, elapsed, this.random);
		if (decision instanceof RetryDecision.Stop stop) {
			throw new BackOffInterruptedException("Retry abandoned before attempt " + (attempt + 1) + ", reason "
					+ stop.reason().tagValue() + ": " + explain(stop.reason()), last);
		}
		sleep(((RetryDecision.Retry) decision).delay());
	}

	private AttemptOutcome outcome(@Nullable Throwable last) {
		RestClientResponseException response = responseException(last);
		if (response == null) {
			return new AttemptOutcome.IoFailure(IoFailureKind.OTHER);
		}
		return ResponseOutcomes.outcome(response.getStatusCode().value(), response.getResponseHeaders(), this.settings,
				this.wallClock.instant());
	}

	private static @Nullable RestClientResponseException responseException(@Nullable Throwable throwable) {
		return CauseChain.find(throwable, RestClientResponseException.class);
	}

	private String explain(StopReason reason) {
		return switch (reason) {
			case RETRY_AFTER_TOO_LONG -> "the server asked for a wait longer than header.max-wait ("
					+ this.settings.header().maxWait() + ")";
			case RETRY_AFTER_EXCEEDS_BUDGET -> "the server's wait does not fit the remaining total-budget ("
					+ this.settings.totalBudget() + ")";
			case BUDGET_EXHAUSTED -> "the backoff does not fit the remaining total-budget ("
					+ this.settings.totalBudget() + ")";
			case INVALID_RETRY_AFTER -> "the Retry-After header is invalid and header.on-invalid is abandon";
			default -> "the retry policy core refused to wait";
		};
	}

	private void sleep(Duration delay) {
		try {
			this.sleeper.sleep(DurationMath.ceilMillis(delay));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new BackOffInterruptedException("Thread interrupted while waiting to retry", ex);
		}
	}

	/**
	 * State of one back-off sequence.
	 */
	private static final class Context implements BackOffContext {

		private static final long serialVersionUID = 1L;

		private final transient RetryContext retryContext;

		private final long startNanos;

		Context(RetryContext retryContext, long startNanos) {
			this.retryContext = retryContext;
			this.startNanos = startNanos;
		}

	}

}
