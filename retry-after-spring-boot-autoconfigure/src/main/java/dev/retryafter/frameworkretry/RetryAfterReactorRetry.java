package dev.retryafter.frameworkretry;

import java.util.Objects;

import dev.retryafter.api.IoFailures;
import dev.retryafter.call.ResponseOutcomes;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.spi.RetriedInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;

/**
 * A Reactor {@link Retry} spec that retries {@code WebClient} calls as the Retry-After policy
 * core plans: a {@link WebClientResponseException} whose status is in
 * {@code retryable-statuses}, or a {@link WebClientRequestException} that {@code io-errors}
 * retries, is retried after the larger of the local backoff and the response's
 * {@code Retry-After}, plus jitter, within {@code max-attempts}, the retry budget,
 * {@code header.max-wait} and {@code total-budget}; any other error, and the last failure
 * when the planner stops, is passed on (an abandonment is reported to the listeners, so it
 * reaches {@code http.client.retry.abandoned} and the DEBUG line). Waits are timers on
 * Reactor's parallel scheduler: no thread is parked.
 * <p>
 * For one retry layer, apply it with {@link #retry(Mono)} (or {@link #retry(Flux)}) rather
 * than {@code retryWhen(spec)} alone: besides {@code retryWhen(this)}, that writes a
 * {@link RetriedInvocation} into the Reactor context, where the {@code WebClient} filter
 * finds it, sends one request per subscription and holds a subscription that comes before
 * the server's instant. A spec cannot reach the context of what it retries by itself.
 * <p>
 * The operation is taken as repeatable: the application chose to repeat it.
 *
 * @since 0.1.0
 */
public class RetryAfterReactorRetry extends Retry {

	private final FrameworkRetryContext retries;

	private final Scheduler scheduler;

	/**
	 * Creates a spec timing its waits on Reactor's parallel scheduler.
	 * @param retries the settings, budgets, listener and clocks it decides with
	 */
	public RetryAfterReactorRetry(FrameworkRetryContext retries) {
		this(retries, Schedulers.parallel());
	}

	RetryAfterReactorRetry(FrameworkRetryContext retries, Scheduler scheduler) {
		this.retries = Objects.requireNonNull(retries, "retries");
		this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
	}

	/**
	 * Retries a call with this spec, one retry layer with the {@code WebClient} filter.
	 * @param <T> the element type
	 * @param call the call, e.g. {@code webClient.get()...retrieve().bodyToMono(...)}
	 * @return the retried call
	 */
	public <T> Mono<T> retry(Mono<T> call) {
		return call.retryWhen(this)
			.contextWrite((context) -> context.put(RetriedInvocation.class,
					new RetriedInvocation(this.retries.monotonicClock().nanoTime())));
	}

	/**
	 * Retries a call with this spec, one retry layer with the {@code WebClient} filter.
	 * @param <T> the element type
	 * @param call the call, e.g. {@code webClient.get()...retrieve().bodyToFlux(...)}
	 * @return the retried call
	 */
	public <T> Flux<T> retry(Flux<T> call) {
		return call.retryWhen(this)
			.contextWrite((context) -> context.put(RetriedInvocation.class,
					new RetriedInvocation(this.retries.monotonicClock().nanoTime())));
	}

	@Override
	public Publisher<?> generateCompanion(Flux<RetrySignal> retrySignals) {
		// One companion per subscription of retryWhen: its budget runs from here, and from
		// the invocation's start when the context holds one.
		return Flux.deferContextual((context) -> {
			RetriedInvocation invocation = context.getOrDefault(RetriedInvocation.class, null);
			long startNanos = (invocation != null) ? invocation.startNanos()
					: this.retries.monotonicClock().nanoTime();
			return retrySignals.concatMap((signal) -> next(signal, invocation, startNanos));
		});
	}

	private Mono<Long> next(RetrySignal signal, @Nullable RetriedInvocation invocation, long startNanos) {
		Throwable failure = signal.failure();
		RetriedInvocation.Handback handback = (invocation != null) ? invocation.last() : null;
		ClientSettings client = this.retries.client(handback);
		AttemptOutcome outcome = outcome(failure, client);
		if (outcome == null || RetryPlanner.stopIfFinal(client.settings(), outcome) != null) {
			return Mono.error(failure);
		}
		String method = method(failure, handback);
		int attempt = (int) Math.min(Integer.MAX_VALUE - 1, signal.totalRetries()) + 1;
		RetryDecision decision = this.retries.next(client, method, outcome, attempt, startNanos,
				(handback != null) ? handback.notBeforeNanos() : null);
		if (!(decision instanceof RetryDecision.Retry retry)) {
			return Mono.error(failure);
		}
		long since = this.retries.monotonicClock().nanoTime();
		return Mono.delay(retry.delay(), this.scheduler)
			.doOnNext((tick) -> this.retries.waited(client.name(), retry.delay(), since));
	}

	private @Nullable AttemptOutcome outcome(Throwable failure, ClientSettings client) {
		if (failure instanceof WebClientResponseException response) {
			return ResponseOutcomes.outcome(response.getStatusCode().value(), response.getHeaders(), client.settings(),
					this.retries.wallClock().instant());
		}
		if (failure instanceof WebClientRequestException request) {
			IoFailureKind kind = IoFailures.classifyCause(request);
			return new AttemptOutcome.IoFailure((kind != null) ? kind : IoFailureKind.OTHER);
		}
		return null;
	}

	private static String method(Throwable failure, RetriedInvocation.@Nullable Handback handback) {
		if (handback != null) {
			return handback.method();
		}
		if (failure instanceof WebClientResponseException response && response.getRequest() != null) {
			return response.getRequest().getMethod().name();
		}
		if (failure instanceof WebClientRequestException request) {
			return request.getMethod().name();
		}
		return FrameworkRetryContext.UNKNOWN_METHOD;
	}

}
