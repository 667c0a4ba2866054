package dev.retryafter.metrics;

import java.time.Duration;
import java.util.Locale;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.StopReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Records the SPEC section 6 retry meters from the interceptor's decision points.
 * <ul>
 * <li>{@code http.client.retry.attempts} (counter; {@code client}, {@code method},
 * {@code status}, {@code outcome}): one count per attempt that got a decision.</li>
 * <li>{@code http.client.retry.delay.planned} (timer; {@code client}, {@code source}): each
 * planned wait.</li>
 * <li>{@code http.client.retry.delay.actual} (timer; {@code client}): the time actually
 * waited, on the monotonic clock.</li>
 * <li>{@code http.client.retry.abandoned} (counter; {@code client}, {@code reason}): each time
 * retrying was given up.</li>
 * </ul>
 * <p>
 * Every tag value comes from a bounded set: {@code client} is the configured client name or
 * {@code default} (never a host), {@code method} is a standard method or {@code OTHER},
 * {@code status} is a status code or {@code IO_ERROR} (as in Spring Framework's
 * {@code http.client.requests}), {@code source} and {@code reason} are the enums' tag values.
 * <p>
 * The {@code outcome} tag here ({@code success}, {@code retried}, {@code abandoned},
 * {@code not-retryable}) says what the retry policy did with one attempt. It is not the
 * {@code outcome} tag of Framework's {@code http.client.requests} timer (HTTP status series
 * such as {@code SUCCESS} or {@code CLIENT_ERROR}, for the whole call): do not join the two.
 *
 * @since 0.1.0
 */
public class RetryAfterMetrics implements RetryListener {

	/** Name of the per-attempt counter. */
	public static final String ATTEMPTS = "http.client.retry.attempts";

	/** Name of the planned-wait timer. */
	public static final String DELAY_PLANNED = "http.client.retry.delay.planned";

	/** Name of the actual-wait timer. */
	public static final String DELAY_ACTUAL = "http.client.retry.delay.actual";

	/** Name of the abandonment counter. */
	public static final String ABANDONED = "http.client.retry.abandoned";

	/** {@code status} tag value for an attempt that ended with an I/O failure. */
	public static final String IO_ERROR = "IO_ERROR";

	/** {@code method} tag value for a non-standard method. */
	public static final String OTHER_METHOD = "OTHER";

	private static final String[] STATUS_TAGS = new String[600];

	static {
		for (int status = 0; status < STATUS_TAGS.length; status++) {
			STATUS_TAGS[status] = Integer.toString(status);
		}
	}

	private final MeterProvider<Counter> attempts;

	private final MeterProvider<Timer> planned;

	private final MeterProvider<Timer> actual;

	private final MeterProvider<Counter> abandoned;

	/**
	 * Creates the meters' providers on {@code registry}; meters are registered on first use.
	 * @param registry the registry to record to
	 */
	public RetryAfterMetrics(MeterRegistry registry) {
		this.attempts = Counter.builder(ATTEMPTS)
			.description("HTTP client attempts seen by the retry policy, by what the policy did next")
			.withRegistry(registry);
		this.planned = Timer.builder(DELAY_PLANNED)
			.description("Waits planned before a retry, by the term that set the wait")
			.withRegistry(registry);
		this.actual = Timer.builder(DELAY_ACTUAL)
			.description("Time actually waited before a retry, measured on the monotonic clock")
			.withRegistry(registry);
		this.abandoned = Counter.builder(ABANDONED)
			.description("Requests whose retrying was given up, by reason")
			.withRegistry(registry);
	}

	@Override
	public void attemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
			RetryDecision decision) {
		this.attempts
			.withTags("client", client, "method", methodTag(method), "status", statusTag(outcome), "outcome",
					outcomeTag(decision))
			.increment();
		if (decision instanceof RetryDecision.Retry retry) {
			this.planned.withTags("client", client, "source", retry.source().tagValue()).record(retry.delay());
		}
		else if (decision instanceof RetryDecision.Stop stop && stop.reason().isAbandonment()) {
			abandon(client, stop.reason());
		}
	}

	@Override
	public void waited(String client, Duration planned, Duration actual) {
		this.actual.withTags("client", client).record(actual);
	}

	@Override
	public void stoppedWithoutAttempt(String client, String method, StopReason reason) {
		// Only abandonments (interrupted, cooldown, deadline) arrive here; a normal end
		// without an attempt is not a failure to count.
		if (reason.isAbandonment()) {
			abandon(client, reason);
		}
	}

	private void abandon(String client, StopReason reason) {
		this.abandoned.withTags("client", client, "reason", reason.tagValue()).increment();
	}

	static String methodTag(String method) {
		// Bounded cardinality: an arbitrary extension method must not create a new series.
		return switch (method.toUpperCase(Locale.ROOT)) {
			case "GET" -> "GET";
			case "HEAD" -> "HEAD";
			case "POST" -> "POST";
			case "PUT" -> "PUT";
			case "PATCH" -> "PATCH";
			case "DELETE" -> "DELETE";
			case "OPTIONS" -> "OPTIONS";
			case "TRACE" -> "TRACE";
			default -> OTHER_METHOD;
		};
	}

	static String statusTag(AttemptOutcome outcome) {
		if (outcome instanceof AttemptOutcome.Response response) {
			int status = response.status();
			return (status >= 0 && status < STATUS_TAGS.length) ? STATUS_TAGS[status] : Integer.toString(status);
		}
		return IO_ERROR;
	}

	static String outcomeTag(RetryDecision decision) {
		if (decision instanceof RetryDecision.Stop stop) {
			return switch (stop.reason()) {
				case SUCCESS -> "success";
				case NOT_RETRYABLE -> "not-retryable";
				default -> "abandoned";
			};
		}
		return "retried";
	}

}
