package dev.retryafter.frameworkretry;

import java.time.Duration;
import java.util.Objects;

import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.call.AttemptsSpent;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.DurationMath;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.spi.RetriedInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.core.retry.RetryPolicy;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;

/**
 * A Spring Framework {@link RetryPolicy} that decides as the Retry-After policy core plans,
 * for code that retries with {@code org.springframework.core.retry.RetryTemplate}: the
 * counterpart of the spring-retry {@code RetryAfterBackOffPolicy}.
 * <p>
 * {@link #shouldRetry} accepts what the HTTP client interceptor would retry: an error
 * response ({@code RestClientResponseException}) whose status is in
 * {@code retryable-statuses}, and an I/O failure ({@code ResourceAccessException}) that
 * {@code io-errors} retries; any other exception is not retried. Its {@link BackOff} then
 * asks the planner, with the same settings: {@code max-attempts} (the template's attempts,
 * the first included), the retry budget, {@code header.max-wait}, {@code total-budget}, and
 * a wait of the larger of the local backoff and the failure's {@code Retry-After}, plus
 * jitter. When the planner stops, the back-off says so ({@link BackOffExecution#STOP}), the
 * template throws its {@code RetryException} with the last failure as the cause, and the
 * reason is reported to the listeners ({@code http.client.retry.abandoned}, the DEBUG line).
 * The operation is taken as repeatable: the application chose to repeat it.
 * <p>
 * One retry layer needs the template to be seen from its first attempt on, which Spring
 * Framework's {@code RetryTemplate} gives no hook for: use a {@link RetryAfterRetryTemplate}
 * (the {@code retryAfterRetryTemplate} bean). Inside it the HTTP client adapters send one
 * attempt per template attempt, and this policy learns the exact instant each response's
 * {@code Retry-After} asked for. In a plain {@code RetryTemplate} the interceptor spends its
 * own attempts inside the first template attempt, and this policy then retries nothing it
 * hands back with its retries spent (the thread's {@code AttemptsSpent} note): one layer
 * still, the interceptor's.
 * <p>
 * A request the interceptor refused because its origin is cooling down
 * ({@code RetryRefusedException}, reason {@code cooldown}) was never sent: it is retried no
 * earlier than the instant the cooldown ends, and not at all when that wait does not fit
 * {@code header.max-wait} or what is left of {@code total-budget}. A refusal for any other
 * reason is not retried.
 * <p>
 * The template calls {@link #shouldRetry} and then the back-off's {@code nextBackOff()}
 * right after it, on the same thread; the failure is handed from one to the other through a
 * thread-local slot, so one shared policy serves any number of threads and nested templates.
 * {@code total-budget} is measured on the monotonic clock from the template's first attempt
 * (from the first failure in a plain template, which says nothing before it). Waits are
 * rounded up to whole milliseconds, never down.
 *
 * @since 0.1.0
 */
public class RetryAfterRetryPolicy implements RetryPolicy {

	private static final ThreadLocal<@Nullable Failure> LAST_FAILURE = new ThreadLocal<>();

	private final FrameworkRetryContext retries;

	/**
	 * Creates a policy.
	 * @param retries the settings, budgets, listener and clocks it decides with
	 */
	public RetryAfterRetryPolicy(FrameworkRetryContext retries) {
		this.retries = Objects.requireNonNull(retries, "retries");
	}

	FrameworkRetryContext retries() {
		return this.retries;
	}

	/**
	 * Whether the failure is one the HTTP client adapters would retry (the planner's first
	 * rule); the back-off then decides the rest.
	 * @param throwable what the operation threw
	 * @return whether to go on to the back-off
	 */
	@Override
	public boolean shouldRetry(Throwable throwable) {
		LAST_FAILURE.remove();
		if (AttemptsSpent.take(throwable, HttpFailures.status(throwable))) {
			// The interceptor already spent the retries on the same settings: retrying the
			// operation again would multiply its attempts.
			return false;
		}
		RetriedInvocation invocation = FrameworkRetryDetector.current();
		RetriedInvocation.Handback handback = (invocation != null) ? invocation.last() : null;
		ClientSettings client = this.retries.client(handback);
		AttemptOutcome outcome = HttpFailures.outcome(throwable, client.settings(),
				this.retries.wallClock().instant());
		if (outcome == null || RetryPlanner.stopIfFinal(client.settings(), outcome) != null) {
			return false;
		}
		String method = (handback != null) ? handback.method() : FrameworkRetryContext.UNKNOWN_METHOD;
		Long notBefore = (handback != null) ? handback.notBeforeNanos() : null;
		RetryRefusedException refused = HttpFailures.refusal(throwable);
		if (refused != null) {
			if (refused.getReason() != StopReason.COOLDOWN) {
				return false;
			}
			// Never sent: not before the cooldown's instant, which the refusal names.
			notBefore = this.retries.monotonicClock().nanoTime() + saturatedNanos(refused.getTimeLeft());
		}
		LAST_FAILURE.set(new Failure(client, method, outcome, notBefore, refused != null));
		return true;
	}

	/**
	 * A back-off that asks the planner before each retry of the template.
	 * @return the back-off
	 */
	@Override
	public BackOff getBackOff() {
		return Execution::new;
	}

	/**
	 * The failure {@link #shouldRetry} accepted, for the back-off that follows it.
	 */
	private record Failure(ClientSettings client, String method, AttemptOutcome outcome, @Nullable Long notBefore,
			boolean refused) {
	}

	/** At most the longest wait a setting allows ({@code header.max-wait} is below it). */
	private static long saturatedNanos(Duration duration) {
		return (duration.compareTo(RetryAfter.MAX_DELAY) >= 0) ? RetryAfter.MAX_DELAY.toNanos() : duration.toNanos();
	}

	/**
	 * The back-off of one template execution.
	 */
	private final class Execution implements BackOffExecution {

		private final long startNanos;

		/** The template attempt that just failed: the back-off starts after the first. */
		private int attempt = 1;

		Execution() {
			RetriedInvocation invocation = FrameworkRetryDetector.current();
			this.startNanos = (invocation != null) ? invocation.startNanos()
					: RetryAfterRetryPolicy.this.retries.monotonicClock().nanoTime();
		}

		@Override
		public long nextBackOff() {
			Failure failure = LAST_FAILURE.get();
			LAST_FAILURE.remove();
			if (failure == null) {
				// Asked without a failure this policy accepted: nothing to plan a retry for.
				return STOP;
			}
			RetryDecision decision = RetryAfterRetryPolicy.this.retries.next(failure.client(), failure.method(),
					failure.outcome(), this.attempt, this.startNanos, failure.notBefore());
			if (!(decision instanceof RetryDecision.Retry retry)) {
				return STOP;
			}
			if (failure.refused() && !fits(failure, retry.delay())) {
				return STOP;
			}
			this.attempt++;
			return DurationMath.ceilMillis(retry.delay());
		}

		/**
		 * Whether the wait for a refusing cooldown fits {@code header.max-wait} and what is
		 * left of {@code total-budget}, as a server-asked wait must; if not, the stop is
		 * reported and the refusal is not retried.
		 */
		private boolean fits(Failure failure, Duration delay) {
			FrameworkRetryContext retries = RetryAfterRetryPolicy.this.retries;
			RetrySettings settings = failure.client().settings();
			Duration elapsed = Duration.ofNanos(retries.monotonicClock().nanoTime() - this.startNanos);
			StopReason reason = null;
			if (delay.compareTo(settings.header().maxWait()) > 0) {
				reason = StopReason.RETRY_AFTER_TOO_LONG;
			}
			else if (elapsed.plus(delay).compareTo(settings.totalBudget()) > 0) {
				reason = StopReason.RETRY_AFTER_EXCEEDS_BUDGET;
			}
			if (reason == null) {
				return true;
			}
			retries.listener().stoppedWithoutAttempt(failure.client().name(), failure.method(), reason);
			return false;
		}

	}

}
