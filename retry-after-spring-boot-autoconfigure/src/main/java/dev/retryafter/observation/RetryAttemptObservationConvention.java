package dev.retryafter.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and key values of the {@code http.client.retry.attempt} observations. Declare a bean
 * of this type to replace {@link DefaultRetryAttemptObservationConvention}, or extend that
 * class to add to it.
 *
 * @since 0.2.0
 */
public interface RetryAttemptObservationConvention extends ObservationConvention<RetryAttemptContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof RetryAttemptContext;
	}

}
