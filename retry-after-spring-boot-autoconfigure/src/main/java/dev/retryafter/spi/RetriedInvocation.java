package dev.retryafter.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BiPredicate;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.header.RetryAfter;
import org.jspecify.annotations.Nullable;

/**
 * One invocation that a retry layer around the HTTP client drives (a Spring Framework
 * {@code @Retryable} method, a {@code RetryTemplate}, a Reactor {@code retryWhen}): it spans
 * all of that layer's attempts. Inside it the client adapters send one attempt per outer
 * attempt and hand a retryable outcome back (reason {@code outer-retry}), recording here the
 * instant its {@code Retry-After} asked for, so that the outer layer's next attempt is held
 * until then: its one hold.
 * <p>
 * The outer layer's adapter creates one per invocation and makes it visible to the client
 * adapters: bound to the calling thread for blocking calls (through an
 * {@link OuterRetryDetector#invocation()}), and in the Reactor context under this class as the
 * key for reactive ones. Thread-safe: a reactive invocation's attempts may run on different
 * threads, one after the other.
 *
 * @since 0.1.0
 */
public final class RetriedInvocation {

	/** The status of the outcome the hold is planned on: the planner's rules 6 and 7 ignore it. */
	private static final int SERVICE_UNAVAILABLE = 503;

	private final long startNanos;

	/** Which outcomes the outer layer retries once it sees the failure they become. */
	private final BiPredicate<AttemptOutcome, Boolean> takes;

	private @Nullable Handback last;

	/**
	 * Starts an invocation whose outer layer retries every outcome handed back to it: its
	 * {@code total-budget} runs from {@code startNanos}.
	 * @param startNanos the monotonic reading at the invocation's first attempt
	 */
	public RetriedInvocation(long startNanos) {
		this(startNanos, (outcome, reactive) -> true);
	}

	/**
	 * Starts an invocation whose outer layer retries only some failures (a
	 * {@code @Retryable} whose {@code includes} do not cover every HTTP failure): an outcome
	 * it would not retry is not handed back, and the client adapter retries it itself.
	 * @param startNanos the monotonic reading at the invocation's first attempt
	 * @param takes whether the outer layer retries the failure an outcome becomes, given the
	 * outcome and whether the reactive adapter ({@code true}) or the blocking one produced it
	 * @since 0.3.0
	 */
	public RetriedInvocation(long startNanos, BiPredicate<AttemptOutcome, Boolean> takes) {
		this.startNanos = startNanos;
		this.takes = Objects.requireNonNull(takes, "takes");
	}

	/**
	 * Whether the outer layer retries the failure this outcome becomes, so that the client
	 * adapter may hand it back instead of retrying it itself.
	 * @param outcome how the attempt ended
	 * @param reactive whether the reactive adapter produced it (its failure is then a
	 * {@code WebClient} exception)
	 * @return {@code true} to hand it back
	 * @since 0.3.0
	 */
	public boolean takes(AttemptOutcome outcome, boolean reactive) {
		return this.takes.test(outcome, reactive);
	}

	/**
	 * When the invocation started, on the monotonic clock of the adapters.
	 * @return the monotonic reading at the first attempt
	 */
	public long startNanos() {
		return this.startNanos;
	}

	/**
	 * Records an outcome a client adapter handed back to the outer layer.
	 * @param client the named client of the request
	 * @param method the request method
	 * @param outcome how the attempt ended
	 * @param receivedNanos when it ended, on the monotonic clock
	 */
	public synchronized void handedBack(String client, String method, AttemptOutcome outcome, long receivedNanos) {
		long notBefore = receivedNanos;
		if (outcome instanceof AttemptOutcome.Response response
				&& response.retryAfter() instanceof RetryAfter.Delay delay) {
			notBefore = receivedNanos + saturatedNanos(delay.delay());
		}
		// Several calls in one attempt, or an answer without the field after one with it:
		// the latest instant any answer asked for still holds, never an earlier one.
		if (this.last != null && this.last.notBeforeNanos - notBefore > 0) {
			notBefore = this.last.notBeforeNanos;
		}
		this.last = new Handback(client, method, outcome, receivedNanos, notBefore);
	}

	/**
	 * The last outcome handed back, if any.
	 * @return the last hand-back, or {@code null} before the first
	 */
	public synchronized @Nullable Handback last() {
		return this.last;
	}

	/**
	 * What the outer layer's next attempt must do before it is sent: nothing, a hold until
	 * the latest instant a handed-back response's {@code Retry-After} asked for, or an
	 * abandonment when that hold does not fit {@code header.max-wait} or {@code total-budget}
	 * (the planner's rules 6 and 7 decide, on the time still to wait). The hold is exactly the
	 * time left to the instant: the outer layer plans its own backoff and jitter.
	 * @param settings the settings of the request's client
	 * @param nowNanos the monotonic reading now
	 * @return {@code null} to send now; a {@link RetryDecision.Retry} whose delay is the hold;
	 * or a {@link RetryDecision.Stop} naming why the attempt must not be sent
	 */
	public @Nullable RetryDecision beforeNextAttempt(RetrySettings settings, long nowNanos) {
		Handback handback = last();
		if (handback == null) {
			return null;
		}
		long leftNanos = handback.notBeforeNanos() - nowNanos;
		if (leftNanos <= 0) {
			return null;
		}
		// The planner's rules 6 and 7 on the time left, as if the server had asked for just
		// that: no local backoff and no jitter, so a retry's delay is exactly the time left.
		RetrySettings holdOnly = settings
			.withBackoff(new RetrySettings.Backoff(Duration.ZERO, settings.backoff().multiplier(), Duration.ZERO))
			.withJitter(0);
		AttemptOutcome left = new AttemptOutcome.Response(SERVICE_UNAVAILABLE,
				new RetryAfter.Delay(Duration.ofNanos(leftNanos), RetryAfter.Form.SECONDS));
		return RetryPlanner.planWait(holdOnly, left, 1, Duration.ofNanos(nowNanos - this.startNanos), () -> 0L);
	}

	private static long saturatedNanos(Duration delay) {
		try {
			return delay.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE / 2;
		}
	}

	/**
	 * An outcome a client adapter handed back to the outer layer.
	 *
	 * @param client the named client of the request
	 * @param method the request method
	 * @param outcome how the attempt ended
	 * @param receivedNanos when it ended, on the monotonic clock
	 * @param notBeforeNanos the latest instant a response handed back in the invocation
	 * asked for with its {@code Retry-After} (at least {@code receivedNanos}), on the
	 * monotonic clock
	 */
	public record Handback(String client, String method, AttemptOutcome outcome, long receivedNanos,
			long notBeforeNanos) {

		public Handback {
			Objects.requireNonNull(client, "client");
			Objects.requireNonNull(method, "method");
			Objects.requireNonNull(outcome, "outcome");
		}

	}

}
