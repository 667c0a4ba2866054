package dev.retryafter.client;

import java.net.URI;
import java.time.Clock;
import java.util.Objects;
import java.util.random.RandomGenerator;

import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetryListener;
import dev.retryafter.store.CooldownStore;

/**
 * What every call through a client adapter shares, whatever the HTTP client: the settings
 * per named client, the listener, the cooldown store, the retry budgets, the outer-retry
 * detector, the clocks and the jitter source. The blocking {@link RetryAfterInterceptor} and
 * the reactive exchange filter each hold one, and run each call as a {@link RetryCall} on it,
 * so that both apply the same policy and share the same origin protection when they are
 * built on the same store and budgets.
 *
 * @since 0.1.0
 */
public final class RetryCalls {

	final RetryClients clients;

	final RetryListener listener;

	final CooldownStore cooldowns;

	final RetryBudgets budgets;

	final OuterRetryDetector outerRetry;

	final MonotonicClock monotonicClock;

	final Clock wallClock;

	final RandomGenerator random;

	private final RequestFactsResolver factsResolver = new RequestFactsResolver();

	/**
	 * Creates the shared collaborators of the calls of one adapter.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param cooldowns the cooldowns consulted before and recorded after each attempt
	 * @param budgets the retry budget of each client
	 * @param outerRetry tells whether a retry layer around the client is retrying the call
	 * @param monotonicClock measures elapsed time and waits (all scheduling)
	 * @param wallClock only stamps the instant a response was received, for HTTP-dates
	 * @param random the jitter source
	 */
	public RetryCalls(RetryClients clients, RetryListener listener, CooldownStore cooldowns, RetryBudgets budgets,
			OuterRetryDetector outerRetry, MonotonicClock monotonicClock, Clock wallClock, RandomGenerator random) {
		this.clients = Objects.requireNonNull(clients, "clients");
		this.listener = Objects.requireNonNull(listener, "listener");
		this.cooldowns = Objects.requireNonNull(cooldowns, "cooldowns");
		this.budgets = Objects.requireNonNull(budgets, "budgets");
		this.outerRetry = Objects.requireNonNull(outerRetry, "outerRetry");
		this.monotonicClock = Objects.requireNonNull(monotonicClock, "monotonicClock");
		this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
		this.random = Objects.requireNonNull(random, "random");
	}

	/**
	 * The named client (or {@code default}) whose settings apply to a request to {@code uri}.
	 * @param uri the request URI
	 * @return the client and its settings
	 */
	public ClientSettings client(URI uri) {
		// The effective port: https://h/ and https://h:443/ must pick the same named client.
		return this.clients.resolve((uri.getHost() != null) ? uri.getHost() : "",
				Origin.effectivePort(uri.getScheme(), uri.getPort()));
	}

	/**
	 * Reads the facts the planner needs about requests.
	 * @return the resolver shared by this adapter's calls
	 */
	public RequestFactsResolver factsResolver() {
		return this.factsResolver;
	}

	/**
	 * The clock that times this adapter's calls, and against which their waits are measured.
	 * @return the monotonic clock
	 */
	public MonotonicClock monotonicClock() {
		return this.monotonicClock;
	}

}
