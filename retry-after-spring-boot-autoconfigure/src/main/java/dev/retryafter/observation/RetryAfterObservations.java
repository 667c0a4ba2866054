package dev.retryafter.observation;

import java.util.Objects;

import dev.retryafter.core.RetryListener;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Observes every attempt ({@code http.client.retry.attempt}) and every wait or cooldown hold
 * ({@code http.client.retry.wait}) of the calls through the retrying clients, as children of
 * the observation each call runs in: Spring's {@code http.client.requests}, which covers the
 * whole call. With a tracer, a call answered {@code 429}, {@code 429}, {@code 200} then shows
 * three attempt spans and two wait spans under its client span, where Spring's span alone
 * carries only the last status.
 * <p>
 * A call is followed only when it has a parent observation: the current one on the calling
 * thread ({@code RestClient}, {@code RestTemplate}), or the one in the subscriber context
 * ({@code WebClient}). Without one, and with a no-op registry, nothing is created. By default
 * only a parent that a tracer follows (Micrometer Tracing's handler has started a span for it)
 * is given children: without a tracer the observations would only add timers next to the
 * {@code http.client.retry.*} meters, at the cost of one more observation per call. A followed
 * call gets an attempt observation for its first attempt, retried or not: it cannot know before
 * sending that it will be retried, and OpenTelemetry's HTTP conventions want one span per
 * attempt on the wire.
 * <p>
 * The attempt observations do not open a scope: the request sent by each attempt carries the
 * trace context that Spring's observation propagated, so the server's span is a child of the
 * call's span, a sibling of the attempt spans.
 *
 * @since 0.2.0
 */
public class RetryAfterObservations implements RetryListener {

	private final ObservationRegistry registry;

	private final @Nullable RetryAttemptObservationConvention attemptConvention;

	private final @Nullable RetryWaitObservationConvention waitConvention;

	private final boolean tracedOnly;

	/**
	 * Creates the observations on the default conventions.
	 * @param registry the registry the observations are made in
	 */
	public RetryAfterObservations(ObservationRegistry registry) {
		this(registry, null, null);
	}

	/**
	 * Creates the observations with conventions of the application's own.
	 * @param registry the registry the observations are made in
	 * @param attemptConvention replaces {@link DefaultRetryAttemptObservationConvention}, or
	 * {@code null}
	 * @param waitConvention replaces {@link DefaultRetryWaitObservationConvention}, or
	 * {@code null}
	 */
	public RetryAfterObservations(ObservationRegistry registry,
			@Nullable RetryAttemptObservationConvention attemptConvention,
			@Nullable RetryWaitObservationConvention waitConvention) {
		this(registry, attemptConvention, waitConvention, true);
	}

	/**
	 * Creates the observations with conventions of the application's own, choosing which
	 * calls to follow.
	 * @param registry the registry the observations are made in
	 * @param attemptConvention replaces {@link DefaultRetryAttemptObservationConvention}, or
	 * {@code null}
	 * @param waitConvention replaces {@link DefaultRetryWaitObservationConvention}, or
	 * {@code null}
	 * @param tracedOnly {@code true} to follow only calls whose observation a tracer follows;
	 * {@code false} to follow every call that has a parent observation (for handlers other
	 * than a tracer's)
	 */
	public RetryAfterObservations(ObservationRegistry registry,
			@Nullable RetryAttemptObservationConvention attemptConvention,
			@Nullable RetryWaitObservationConvention waitConvention, boolean tracedOnly) {
		this.registry = Objects.requireNonNull(registry, "registry");
		this.attemptConvention = attemptConvention;
		this.waitConvention = waitConvention;
		this.tracedOnly = tracedOnly;
	}

	@Override
	public boolean watchesCalls() {
		return !this.registry.isNoop();
	}

	@Override
	public Call callStarted(String client, String method, @Nullable Object parent) {
		Observation observation = (parent != null) ? asObservation(parent) : this.registry.getCurrentObservation();
		if (observation == null || observation.isNoop() || (this.tracedOnly && !Tracing.follows(observation))) {
			return Call.NONE;
		}
		return new ObservedCall(this, client, method, observation);
	}

	private static @Nullable Observation asObservation(Object parent) {
		return (parent instanceof Observation observation) ? observation : null;
	}

	Observation attempt(RetryAttemptContext context, Observation parent) {
		return Observation
			.createNotStarted(this.attemptConvention, DefaultRetryAttemptObservationConvention.INSTANCE, () -> context,
					this.registry)
			.parentObservation(parent)
			.start();
	}

	Observation wait(RetryWaitContext context, Observation parent) {
		return Observation
			.createNotStarted(this.waitConvention, DefaultRetryWaitObservationConvention.INSTANCE, () -> context,
					this.registry)
			.parentObservation(parent)
			.start();
	}

}
