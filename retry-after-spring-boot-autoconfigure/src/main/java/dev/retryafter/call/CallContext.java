package dev.retryafter.call;

import java.net.URI;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

import dev.retryafter.api.RetryAfterAttributes;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.IdempotencyMark;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RequestFacts;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.CooldownStore;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRequest;

/**
 * What every call through a client adapter shares, whatever the HTTP client: the settings
 * per named client, the listener, the cooldown store, the retry budgets, the outer-retry
 * detector, the clocks and the jitter source. The blocking interceptor ({@code client}) and
 * the reactive exchange filter ({@code reactive}) each hold one, and run each call as a {@link RetryCall} on it,
 * so that both apply the same policy and share the same origin protection when they are
 * built on the same store and budgets.
 *
 * @since 0.1.0
 */
public final class CallContext {

	private final ClientSettingsCatalog clients;

	private final RetryListener listener;

	private final CooldownStore cooldowns;

	private final RetryBudgets budgets;

	private final OuterRetryDetector outerRetry;

	private final MonotonicClock monotonicClock;

	private final Clock wallClock;

	private final RandomGenerator random;

	/** Whether the listener follows calls as they happen: then no call takes the first-attempt shortcut. */
	private final boolean watched;

	private final RecordedBytes recordedBytes;

	private final RequestFactsResolver factsResolver = new RequestFactsResolver();

	private final RateLimitFieldReader quotaFields;

	private final FirstAttemptQuota firstAttemptQuota = new FirstAttemptQuota(this);

	private final PartitionWarnings partitionWarnings = new PartitionWarnings();

	/** The default client's first-attempt rules: most requests, and all without named clients. */
	private final FirstAttemptRules defaultRules;

	/** The named clients' first-attempt rules, by name; empty without named clients. */
	private final Map<String, FirstAttemptRules> namedRules;

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
	public CallContext(ClientSettingsCatalog clients, RetryListener listener, CooldownStore cooldowns, RetryBudgets budgets,
			OuterRetryDetector outerRetry, MonotonicClock monotonicClock, Clock wallClock, RandomGenerator random) {
		this(clients, listener, cooldowns, budgets, outerRetry, monotonicClock, wallClock, random,
				new RecordedBytes(RecordedBytes.DEFAULT_MAX));
	}

	/**
	 * Creates the shared collaborators of the calls of one adapter, bounding the bytes they
	 * keep for retries with a total that other adapters may share.
	 * @param clients the settings per named client
	 * @param listener notified at each decision point
	 * @param cooldowns the cooldowns consulted before and recorded after each attempt
	 * @param budgets the retry budget of each client
	 * @param outerRetry tells whether a retry layer around the client is retrying the call
	 * @param monotonicClock measures elapsed time and waits (all scheduling)
	 * @param wallClock only stamps the instant a response was received, for HTTP-dates
	 * @param random the jitter source
	 * @param recordedBytes the total of bytes kept for retries, across the application
	 */
	public CallContext(ClientSettingsCatalog clients, RetryListener listener, CooldownStore cooldowns, RetryBudgets budgets,
			OuterRetryDetector outerRetry, MonotonicClock monotonicClock, Clock wallClock, RandomGenerator random,
			RecordedBytes recordedBytes) {
		this.recordedBytes = Objects.requireNonNull(recordedBytes, "recordedBytes");
		this.clients = Objects.requireNonNull(clients, "clients");
		this.listener = Objects.requireNonNull(listener, "listener");
		this.cooldowns = Objects.requireNonNull(cooldowns, "cooldowns");
		this.budgets = Objects.requireNonNull(budgets, "budgets");
		this.outerRetry = Objects.requireNonNull(outerRetry, "outerRetry");
		this.monotonicClock = Objects.requireNonNull(monotonicClock, "monotonicClock");
		this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
		this.random = Objects.requireNonNull(random, "random");
		this.watched = listener.watchesCalls();
		this.quotaFields = new RateLimitFieldReader(cooldowns, monotonicClock, wallClock);
		this.defaultRules = rules(clients.defaults());
		Map<String, FirstAttemptRules> named = new HashMap<>();
		for (ClientSettings client : clients.all()) {
			if (client != clients.defaults()) {
				named.put(client.name(), rules(client));
			}
		}
		this.namedRules = Map.copyOf(named);
	}

	/**
	 * Whether a client splits cooldowns by request headers, so that the request as sent (after
	 * the application's interceptors or filters) decides its cooldown key.
	 * @param settings the client's settings
	 * @return whether {@code cooldown.partition-headers} names any header, with cooldowns on
	 */
	public boolean partitioned(RetrySettings settings) {
		return settings.cooldown().enabled() && !settings.cooldown().partitionHeaders().isEmpty();
	}

	/**
	 * Warns, once per client and origin, that an adapter's innermost element did not see a
	 * request of a {@link #partitioned} client as it was sent.
	 * @param client the client
	 * @param uri the request URI
	 */
	public void notSeenAsSent(ClientSettings client, URI uri) {
		this.partitionWarnings.notSeenAsSent(client.name(), client.settings(), RequestOrigins.originText(uri));
	}

	/** The warnings about cooldown keys that could not be split by their partition headers. */
	PartitionWarnings partitionWarnings() {
		return this.partitionWarnings;
	}

	private FirstAttemptRules rules(ClientSettings client) {
		return new FirstAttemptRules(client, this.budgets.budget(client.name()), this.monotonicClock);
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
	 * The named client whose settings apply to a request: the one its
	 * {@link RetryAfterAttributes#CLIENT} attribute names (an HTTP service group's), else the
	 * one its host resolves to.
	 * @param uri the request URI
	 * @param attributes the request attributes
	 * @return the client and its settings
	 */
	public ClientSettings client(URI uri, Map<String, Object> attributes) {
		ClientSettings named = named(attributes);
		return (named != null) ? named : client(uri);
	}

	private @Nullable ClientSettings named(Map<String, Object> attributes) {
		if (this.namedRules.isEmpty()) {
			return null;
		}
		return (attributes.get(RetryAfterAttributes.CLIENT) instanceof String name) ? this.clients.named(name) : null;
	}

	/**
	 * The first-attempt rules of the client whose settings apply to a request.
	 * @param uri the request URI
	 * @param attributes the request attributes
	 * @return the rules of the client {@link #client(URI, Map)} picks
	 */
	public FirstAttemptRules rules(URI uri, Map<String, Object> attributes) {
		if (this.namedRules.isEmpty()) {
			return this.defaultRules;
		}
		ClientSettings client = client(uri, attributes);
		FirstAttemptRules rules = this.namedRules.get(client.name());
		return (rules != null && rules.client() == client) ? rules : this.defaultRules;
	}

	/**
	 * Whether a cooldown could hold or refuse this request before it is sent, or learn from
	 * its response: only while cooldowns are on and some origin is cooling down or paced, or
	 * a quota is kept for the request's own host (so that one origin's quota does not send
	 * every other origin's calls down the whole call path). The one place this check is
	 * written.
	 * @param settings the client's settings
	 * @param uri the request's URI
	 * @return {@code false} when the request is certainly admitted at once
	 */
	public boolean mayHold(RetrySettings settings, URI uri) {
		return settings.cooldown().enabled() && this.cooldowns.mayHold(uri.getHost());
	}

	/**
	 * A first attempt sent at once was answered with {@code status} and settled by it: when
	 * the status starts no cooldown, its host counts one acceptance, so that a first
	 * rejection already knows the rate the host accepted ({@link CooldownStore#acceptedAtOnce}).
	 * @param settings the client's settings
	 * @param uri the request's URI
	 * @param status the response's status
	 * @param nowNanos a monotonic reading of the attempt (its start will do)
	 */
	public void settledAtOnce(RetrySettings settings, URI uri, int status, long nowNanos) {
		if (status < 400 || !settings.cooldown().statuses().contains(status)) {
			acceptedAtOnce(settings, uri, nowNanos);
		}
	}

	/** Counts one acceptance for {@code uri}'s host, when the client's cooldowns are on. */
	void acceptedAtOnce(RetrySettings settings, URI uri, long nowNanos) {
		String host = uri.getHost();
		if (settings.cooldown().enabled() && host != null) {
			this.cooldowns.acceptedAtOnce(host, nowNanos);
		}
	}

	/**
	 * Starts a request whose first attempt is sent at once (no cooldown held it): its time
	 * budget runs from the returned reading, and it counts towards its client's retry budget,
	 * on that same reading when the budget slides on the same clock.
	 * @param rules the client's first-attempt rules
	 * @return the monotonic reading the request's time budget runs from
	 */
	public long firstAttemptStarts(FirstAttemptRules rules) {
		long now = this.monotonicClock.nanoTime();
		RetryBudget budget = rules.budget();
		if (budget != null) {
			if (rules.budgetOnCallClock()) {
				budget.recordRequest(now);
			}
			else {
				budget.recordRequest();
			}
		}
		return now;
	}

	/**
	 * Resolves the facts the planner needs about one request from its parts, for a client
	 * whose requests are not {@code HttpRequest}s (the reactive {@code ClientRequest}).
	 * @param method the request method
	 * @param attributes the request attributes (for the caller's marks)
	 * @param headers the request headers (for the idempotency key)
	 * @param settings the settings in force for it (for the idempotency-key header name)
	 * @param bodyReplayable whether every attempt can send the request body again
	 * @return the facts
	 */
	public RequestFacts facts(HttpMethod method, Map<String, Object> attributes, HttpHeaders headers,
			RetrySettings settings, boolean bodyReplayable) {
		return this.factsResolver.resolve(method, attributes, headers, settings, bodyReplayable);
	}

	/**
	 * Resolves the facts the planner needs about one {@code HttpRequest}.
	 * @param request the request
	 * @param settings the settings in force for it
	 * @return the facts
	 */
	public RequestFacts facts(HttpRequest request, RetrySettings settings) {
		return this.factsResolver.resolve(request, settings);
	}

	/**
	 * The caller's idempotency mark among a request's attributes.
	 * @param attributes the request attributes
	 * @return the mark, or the absence of one
	 */
	public IdempotencyMark mark(Map<String, Object> attributes) {
		return this.factsResolver.mark(attributes);
	}

	/**
	 * Whether a request carries the idempotency-key header its settings name.
	 * @param headers the request headers
	 * @param settings the settings in force for it
	 * @return whether the key is there
	 */
	public boolean hasIdempotencyKey(HttpHeaders headers, RetrySettings settings) {
		return this.factsResolver.hasIdempotencyKey(headers, settings);
	}

	/**
	 * The listener notified at each decision point of every call.
	 * @return the listener
	 */
	public RetryListener listener() {
		return this.listener;
	}

	/**
	 * The cooldowns consulted before and recorded after each attempt.
	 * @return the cooldown store
	 */
	public CooldownStore cooldowns() {
		return this.cooldowns;
	}

	/**
	 * The retry budget of each client.
	 * @return the budgets
	 */
	public RetryBudgets budgets() {
		return this.budgets;
	}

	/**
	 * Tells whether a retry layer around the client is retrying the call.
	 * @return the outer-retry detector
	 */
	public OuterRetryDetector outerRetry() {
		return this.outerRetry;
	}

	/**
	 * The total of bytes the calls keep for retries (response copies, request bodies).
	 * @return the bound they share
	 */
	public RecordedBytes recordedBytes() {
		return this.recordedBytes;
	}

	/**
	 * The clock that only stamps the instant a response was received, for HTTP-dates.
	 * @return the wall clock
	 */
	public Clock wallClock() {
		return this.wallClock;
	}

	/**
	 * The jitter source.
	 * @return the random source
	 */
	public RandomGenerator random() {
		return this.random;
	}

	/**
	 * Where this adapter's calls look for and read responses' quota fields.
	 * @return the adapter's quota field reader
	 */
	public RateLimitFieldReader quotaFields() {
		return this.quotaFields;
	}

	/**
	 * The first-attempt shortcut of requests whose origin announces its quota.
	 * @return the adapter's shortcut
	 */
	public FirstAttemptQuota firstAttemptQuota() {
		return this.firstAttemptQuota;
	}

	/**
	 * Whether the listener follows calls as they happen: then no call takes the first-attempt
	 * shortcut.
	 * @return whether calls are watched
	 */
	public boolean watched() {
		return this.watched;
	}

	/**
	 * The clock that times this adapter's calls, and against which their waits are measured.
	 * @return the monotonic clock
	 */
	public MonotonicClock monotonicClock() {
		return this.monotonicClock;
	}

}
