package dev.retryafter.observation;

import java.time.Duration;
import java.util.Locale;

import dev.retryafter.core.StopReason;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default names and key values of an {@code http.client.retry.wait} observation.
 * <p>
 * Low cardinality: {@code client} and {@code method} (as on the attempt observation),
 * {@code kind} ({@code retry} for a retry's planned wait, {@code cooldown} for a hold for an
 * origin's cooldown or its paced slot) and {@code outcome} ({@code completed}, or the reason
 * retrying stopped during the wait: {@code interrupted}, {@code cancelled}; {@code unknown}
 * while waiting or when the call ended by an error).
 * <p>
 * High cardinality: {@code retry.delay.planned} and, once the wait ran its course,
 * {@code retry.delay.actual} (the time actually waited on the monotonic clock), both in
 * ISO-8601 to the millisecond.
 *
 * @since 0.2.0
 */
public class DefaultRetryWaitObservationConvention implements RetryWaitObservationConvention {

	/** Name of the wait observation. */
	public static final String NAME = "http.client.retry.wait";

	/**
	 * Shared instance.
	 */
	public static final DefaultRetryWaitObservationConvention INSTANCE = new DefaultRetryWaitObservationConvention();

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(RetryWaitContext context) {
		return context.isHold() ? "http " + Methods.tag(context.getMethod()).toLowerCase(Locale.ROOT) + " cooldown hold"
				: "http " + Methods.tag(context.getMethod()).toLowerCase(Locale.ROOT) + " retry wait";
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(RetryWaitContext context) {
		return KeyValues.of(KeyValue.of("client", context.getClient()),
				KeyValue.of("method", Methods.tag(context.getMethod())),
				KeyValue.of("kind", context.isHold() ? "cooldown" : "retry"),
				KeyValue.of("outcome", outcome(context)));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(RetryWaitContext context) {
		KeyValues values = KeyValues.of("retry.delay.planned", Durations.text(context.getPlanned()));
		Duration actual = context.getActual();
		return (actual != null) ? values.and("retry.delay.actual", Durations.text(actual)) : values;
	}

	private static String outcome(RetryWaitContext context) {
		StopReason reason = context.getStopReason();
		if (reason != null) {
			return reason.tagValue();
		}
		return (context.getActual() != null) ? "completed" : DefaultRetryAttemptObservationConvention.UNKNOWN;
	}

}
