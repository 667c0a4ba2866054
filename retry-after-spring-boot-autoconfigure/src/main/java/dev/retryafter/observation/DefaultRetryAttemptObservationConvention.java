package dev.retryafter.observation;

import java.util.Locale;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default names and key values of an {@code http.client.retry.attempt} observation.
 * <p>
 * Low cardinality: {@code client} (the configured name or {@code default}, never a host),
 * {@code method} (a standard method or {@code OTHER}), {@code status} (the status code, or
 * {@code IO_ERROR}), {@code outcome} ({@code success}, {@code retried}, {@code abandoned},
 * {@code not-retryable}: the same values as the {@code http.client.retry.attempts} counter)
 * and {@code decision} ({@code retry}, or the reason retrying stopped, such as
 * {@code success} or {@code max-attempts}). While the attempt is under way, or when it ended
 * by an error that is no outcome, the last three are {@code UNKNOWN} and {@code unknown}.
 * <p>
 * High cardinality: {@code http.request.resend_count} (from the second attempt on, as
 * OpenTelemetry's HTTP conventions define it: 1 on the first resend), {@code retry.after}
 * (the response's {@code Retry-After} as a delay in ISO-8601 to the millisecond, or {@code invalid}; only when
 * the response had one), {@code retry.delay.planned} (the wait planned before the next
 * attempt, when the decision is {@code retry}) and {@code io.failure} (the kind of I/O
 * failure). The actual wait is on the {@code http.client.retry.wait} observation that
 * follows: it is known only once the wait ends, after this attempt's span.
 *
 * @since 0.2.0
 */
public class DefaultRetryAttemptObservationConvention implements RetryAttemptObservationConvention {

	/** Name of the attempt observation. */
	public static final String NAME = "http.client.retry.attempt";

	/** Value of {@code status}, {@code outcome} and {@code decision} before the attempt ended. */
	public static final String UNKNOWN = "unknown";

	private static final String UNKNOWN_STATUS = "UNKNOWN";

	private static final String IO_ERROR = "IO_ERROR";

	private static final String RETRY = "retry";

	/**
	 * Shared instance.
	 */
	public static final DefaultRetryAttemptObservationConvention INSTANCE = new DefaultRetryAttemptObservationConvention();

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(RetryAttemptContext context) {
		return "http " + Methods.tag(context.getMethod()).toLowerCase(Locale.ROOT) + " attempt";
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(RetryAttemptContext context) {
		return KeyValues.of(KeyValue.of("client", context.getClient()),
				KeyValue.of("method", Methods.tag(context.getMethod())), KeyValue.of("status", status(context)),
				KeyValue.of("outcome", outcome(context)), KeyValue.of("decision", decision(context)));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(RetryAttemptContext context) {
		KeyValues values = KeyValues.empty();
		if (context.getAttempt() > 1) {
			values = values.and("http.request.resend_count", Integer.toString(context.getAttempt() - 1));
		}
		AttemptOutcome outcome = context.getOutcome();
		if (outcome instanceof AttemptOutcome.Response response) {
			RetryAfter retryAfter = response.retryAfter();
			if (retryAfter instanceof RetryAfter.Delay delay) {
				values = values.and("retry.after", Durations.text(delay.delay()));
			}
			else if (retryAfter instanceof RetryAfter.Invalid) {
				values = values.and("retry.after", "invalid");
			}
		}
		else if (outcome instanceof AttemptOutcome.IoFailure failure) {
			values = values.and("io.failure", failure.kind().tagValue());
		}
		if (context.getDecision() instanceof RetryDecision.Retry retry) {
			values = values.and("retry.delay.planned", Durations.text(retry.delay()));
		}
		return values;
	}

	private static String status(RetryAttemptContext context) {
		AttemptOutcome outcome = context.getOutcome();
		if (outcome instanceof AttemptOutcome.Response response) {
			return Integer.toString(response.status());
		}
		return (outcome != null) ? IO_ERROR : UNKNOWN_STATUS;
	}

	private static String outcome(RetryAttemptContext context) {
		RetryDecision decision = context.getDecision();
		if (decision == null) {
			return UNKNOWN;
		}
		if (decision instanceof RetryDecision.Stop stop) {
			return switch (stop.reason()) {
				case SUCCESS -> "success";
				case NOT_RETRYABLE -> "not-retryable";
				// Handed to the retry layer around the client, which retries it.
				case OUTER_RETRY -> "retried";
				default -> "abandoned";
			};
		}
		return "retried";
	}

	private static String decision(RetryAttemptContext context) {
		RetryDecision decision = context.getDecision();
		if (decision instanceof RetryDecision.Stop stop) {
			StopReason reason = stop.reason();
			return reason.tagValue();
		}
		return (decision != null) ? RETRY : UNKNOWN;
	}

}
