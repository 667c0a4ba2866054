package dev.retryafter.frameworkretry;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.IdempotencyMark;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetryPlanner;
import dev.retryafter.core.StopReason;
import dev.retryafter.spi.RetriedInvocation;
import org.jspecify.annotations.Nullable;

/**
 * What the Spring Framework retry adapters share: the settings, budgets, listener, clocks and
 * jitter source, and the two decisions they take with the planner. One per application;
 * thread-safe.
 *
 * @since 0.1.0
 */
public final class FrameworkRetryContext {

	/** The method named in events when the failure does not say which request it was. */
	static final String UNKNOWN_METHOD = "UNKNOWN";

	private final ClientSettingsCatalog clients;

	private final RetryBudgets budgets;

	private final RetryListener listener;

	private final MonotonicClock monotonicClock;

	private final Clock wallClock;

	private final RandomGenerator random;

	/**
	 * Creates the shared collaborators.
	 * @param clients the settings per named client; the default client's decide for failures
	 * that name no client
	 * @param budgets the retry budget of each client, asked before every retry the outer
	 * layer schedules by itself
	 * @param listener notified of abandonments and waits, as the meters and DEBUG lines are
	 * @param monotonicClock measures elapsed time and holds
	 * @param wallClock only stamps the instant a failure is read, for HTTP-dates
	 * @param random the jitter source
	 */
	public FrameworkRetryContext(ClientSettingsCatalog clients, RetryBudgets budgets, RetryListener listener,
			MonotonicClock monotonicClock, Clock wallClock, RandomGenerator random) {
		this.clients = Objects.requireNonNull(clients, "clients");
		this.budgets = Objects.requireNonNull(budgets, "budgets");
		this.listener = Objects.requireNonNull(listener, "listener");
		this.monotonicClock = Objects.requireNonNull(monotonicClock, "monotonicClock");
		this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
		this.random = Objects.requireNonNull(random, "random");
	}

	MonotonicClock monotonicClock() {
		return this.monotonicClock;
	}

	Clock wallClock() {
		return this.wallClock;
	}

	RetryListener listener() {
		return this.listener;
	}

	/**
	 * The client a failure belongs to: the one whose request the client adapter handed back
	 * last in the invocation, else the default client.
	 */
	ClientSettings client(RetriedInvocation.@Nullable Handback handback) {
		if (handback != null) {
			for (ClientSettings client : this.clients.all()) {
				if (client.name().equals(handback.client())) {
					return client;
				}
			}
		}
		return this.clients.defaults();
	}

	/**
	 * Decides whether the outer layer retries after its attempt {@code attempt} failed with
	 * {@code outcome}, and how long it waits: the planner's decision for a repeatable request
	 * (the application chose to repeat the whole operation), never earlier than the instant
	 * the last handed-back response asked for. A stop that abandons is reported.
	 * @param client the client whose settings decide
	 * @param method the request method, for the events
	 * @param outcome how the attempt failed
	 * @param attempt the outer attempt that failed, 1 for the first
	 * @param startNanos when the outer layer's first attempt started
	 * @param notBeforeNanos the instant the last handed-back response asked for, or
	 * {@code null}
	 * @return the decision
	 */
	RetryDecision next(ClientSettings client, String method, AttemptOutcome outcome, int attempt, long startNanos,
			@Nullable Long notBeforeNanos) {
		long now = this.monotonicClock.nanoTime();
		RequestFacts facts = new RequestFacts(method, IdempotencyMark.REPEATABLE, false, true);
		RetryDecision decision = plan(client, facts, outcome, attempt, Duration.ofNanos(now - startNanos));
		if (decision instanceof RetryDecision.Stop stop) {
			stopped(client.name(), method, stop.reason());
			return decision;
		}
		RetryDecision.Retry retry = (RetryDecision.Retry) decision;
		if (notBeforeNanos != null && notBeforeNanos - now > retry.delay().toNanos()) {
			// The response was read a moment before the failure reached this layer: measured
			// from its arrival, the wait must still not end before the server's instant.
			return new RetryDecision.Retry(Duration.ofNanos(notBeforeNanos - now), retry.base(), retry.source());
		}
		return retry;
	}

	private RetryDecision plan(ClientSettings client, RequestFacts facts, AttemptOutcome outcome,
			int attempt, Duration elapsed) {
		return RetryPlanner.decide(client.settings(), facts, outcome, attempt, elapsed,
				this.budgets.permits(client.name()), this.random);
	}

	/**
	 * What the outer layer's next attempt of an invocation must do before it is sent (see
	 * {@link RetriedInvocation#beforeNextAttempt}); an abandonment is reported.
	 * @param invocation the invocation
	 * @return {@code null} to go on now, a hold, or a stop
	 */
	@Nullable RetryDecision beforeNextAttempt(RetriedInvocation invocation) {
		RetriedInvocation.Handback handback = invocation.last();
		if (handback == null) {
			return null;
		}
		RetryDecision decision = invocation.beforeNextAttempt(client(handback).settings(),
				this.monotonicClock.nanoTime());
		if (decision instanceof RetryDecision.Stop stop) {
			stopped(handback.client(), handback.method(), stop.reason());
		}
		return decision;
	}

	void waited(String client, Duration planned, long sinceNanos) {
		this.listener.waited(client, planned, Duration.ofNanos(this.monotonicClock.nanoTime() - sinceNanos));
	}

	private void stopped(String client, String method, StopReason reason) {
		this.listener.stoppedWithoutAttempt(client, method, reason);
	}

}
