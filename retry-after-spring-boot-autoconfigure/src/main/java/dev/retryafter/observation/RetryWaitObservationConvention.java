package dev.retryafter.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and key values of the {@code http.client.retry.wait} observations. Declare a bean of
 * this type to replace {@link DefaultRetryWaitObservationConvention}, or extend that class to
 * add to it.
 *
 * @since 0.2.0
 */
public interface RetryWaitObservationConvention extends ObservationConvention<RetryWaitContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof RetryWaitContext;
	}

}
