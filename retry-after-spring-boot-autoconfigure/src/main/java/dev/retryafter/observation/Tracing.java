package dev.retryafter.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Tells whether a tracer follows an observation: Micrometer Tracing's handlers keep the span
 * of each observation they follow in its context, under their {@code TracingContext} class.
 * Looked up by name, so Micrometer Tracing stays optional: without it nothing is traced.
 */
final class Tracing {

	private static final @Nullable Class<?> TRACING_CONTEXT = tracingContext();

	private Tracing() {
	}

	static boolean follows(Observation observation) {
		return TRACING_CONTEXT != null && observation.getContextView().containsKey(TRACING_CONTEXT);
	}

	private static @Nullable Class<?> tracingContext() {
		String name = "io.micrometer.tracing.handler.TracingObservationHandler$TracingContext";
		ClassLoader loader = Tracing.class.getClassLoader();
		return ClassUtils.isPresent(name, loader) ? ClassUtils.resolveClassName(name, loader) : null;
	}

}
