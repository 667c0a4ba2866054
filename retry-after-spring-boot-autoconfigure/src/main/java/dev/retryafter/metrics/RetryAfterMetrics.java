package dev.retryafter.metrics;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.DelaySource;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.StopReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter.MeterProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

/**
 * Records the retry meters from the interceptor's decision points.
 * <ul>
 * <li>{@code http.client.retry.attempts} (counter; {@code client}, {@code method},
 * {@code status}, {@code outcome}): one count per attempt that got a decision.</li>
 * <li>{@code http.client.retry.delay.planned} (timer; {@code client}, {@code source}): each
 * planned wait.</li>
 * <li>{@code http.client.retry.delay.actual} (timer; {@code client}): the time actually
 * waited, on the monotonic clock.</li>
 * <li>{@code http.client.retry.abandoned} (counter; {@code client}, {@code reason}): each time
 * retrying was given up.</li>
 * <li>{@code http.client.retry.cooldown.held} (timer; {@code client}, {@code reason}): the time
 * a request was held before it was sent, at most once per attempt: by a cooldown
 * ({@code cooldown}), behind the requests a cooldown held that were still leaving
 * ({@code release-window}), for its slot at the rate the origin was seen to accept
 * ({@code pacing}), or for its slot inside the quota the origin announced ({@code quota}).</li>
 * </ul>
 * <p>
 * Every tag value comes from a bounded set: {@code client} is the configured client name or
 * {@code default} (never a host), {@code method} is a standard method or {@code OTHER},
 * {@code status} is a status code or {@code IO_ERROR} (as in Spring Framework's
 * {@code http.client.requests}), {@code source} and {@code reason} are the enums' tag values.
 * <p>
 * The {@code outcome} tag here ({@code success}, {@code retried}, {@code abandoned},
 * {@code not-retryable}) says what the retry policy did with one attempt. It is not the
 * {@code outcome} tag of Framework's {@code http.client.requests} timer (HTTP status series
 * such as {@code SUCCESS} or {@code CLIENT_ERROR}, for the whole call): do not join the two.
 * <p>
 * When a spring-retry template backing off with {@code RetryAfterBackOffPolicy} drives the
 * call, the interceptor sends one attempt per template attempt and the template retries
 * (reason {@code outer-retry}). Each such attempt that the interceptor would otherwise have
 * retried counts as {@code outcome=retried}, with no planned or actual wait here (the
 * template waits), and the template giving up is not an abandonment here: the caller sees it
 * as the template's exception. So a call the template tries three times counts three
 * {@code retried} attempts, where the interceptor alone counts two and one {@code abandoned}.
 * <p>
 * Meters are looked up by their tags once and then kept, per client, in small tables
 * indexed by the bounded tag values, so recording an attempt allocates nothing. A meter
 * removed from the registry afterwards is therefore not re-registered by this listener.
 *
 * @since 0.1.0
 */
public class RetryAfterMetrics implements RetryListener {

	/** Name of the per-attempt counter. */
	public static final String ATTEMPTS = "http.client.retry.attempts";

	/** Name of the planned-wait timer. */
	public static final String DELAY_PLANNED = "http.client.retry.delay.planned";

	/** Name of the actual-wait timer. */
	public static final String DELAY_ACTUAL = "http.client.retry.delay.actual";

	/** Name of the abandonment counter. */
	public static final String ABANDONED = "http.client.retry.abandoned";

	/** Name of the cooldown hold timer. */
	public static final String COOLDOWN_HELD = "http.client.retry.cooldown.held";

	/** {@code status} tag value for an attempt that ended with an I/O failure. */
	public static final String IO_ERROR = "IO_ERROR";

	/** {@code method} tag value for a non-standard method. */
	public static final String OTHER_METHOD = "OTHER";

	private static final String[] STATUS_TAGS = new String[600];

	private static final String[] METHOD_TAGS = { "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS",
			"TRACE", OTHER_METHOD };

	private static final int OTHER_METHOD_INDEX = 8;

	private static final String[] OUTCOME_TAGS = { "success", "not-retryable", "abandoned", "retried" };

	private static final int OUTCOME_RETRIED = 3;

	// Statuses 100 to 599 (as Spring Framework's http.client.requests sees them), then IO_ERROR.
	private static final int FIRST_CACHED_STATUS = 100;

	private static final int STATUS_SLOTS = 600 - FIRST_CACHED_STATUS + 1;

	private static final int IO_ERROR_SLOT = STATUS_SLOTS - 1;

	private static final DelaySource[] SOURCES = DelaySource.values();

	private static final StopReason[] REASONS = StopReason.values();

	private static final HoldReason[] HOLD_REASONS = HoldReason.values();

	static {
		for (int status = 0; status < STATUS_TAGS.length; status++) {
			STATUS_TAGS[status] = Integer.toString(status);
		}
	}

	private final MeterProvider<Counter> attempts;

	private final MeterProvider<Timer> planned;

	private final MeterProvider<Timer> actual;

	private final MeterProvider<Counter> abandoned;

	private final MeterProvider<Timer> held;

	// Bounded: client names are the configured ones.
	private final ConcurrentHashMap<String, ClientMeters> byClient = new ConcurrentHashMap<>();

	// The default client's meters, found without a map look-up: most requests are its. Its
	// meters are still registered on first use only.
	private final ClientMeters defaultClient = new ClientMeters(ClientSettings.DEFAULT_NAME);

	/**
	 * Creates the meters' providers on {@code registry}; meters are registered on first use.
	 * @param registry the registry to record to
	 */
	public RetryAfterMetrics(MeterRegistry registry) {
		this.attempts = Counter.builder(ATTEMPTS)
			.description("HTTP client attempts seen by the retry policy, by what the policy did next")
			.withRegistry(registry);
		this.planned = Timer.builder(DELAY_PLANNED)
			.description("Waits planned before a retry, by the term that set the wait")
			.withRegistry(registry);
		this.actual = Timer.builder(DELAY_ACTUAL)
			.description("Time actually waited before a retry, measured on the monotonic clock")
			.withRegistry(registry);
		this.abandoned = Counter.builder(ABANDONED)
			.description("Requests whose retrying was given up, by reason")
			.withRegistry(registry);
		this.held = Timer.builder(COOLDOWN_HELD)
			.description("Time a request was held before it was sent, by why it was held: a cooldown, its release window, a paced slot or a quota slot")
			.withRegistry(registry);
	}

	@Override
	public void attemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
			RetryDecision decision) {
		ClientMeters meters = meters(client);
		Success success = meters.success;
		if (success != null && success.outcome == outcome && success.decision == decision
				&& success.method == method) {
			// The very same inputs as that success: the same series, and nothing else to record.
			success.counter.increment();
			return;
		}
		Counter counter = meters.attempts(methodIndex(method), outcomeIndex(decision), outcome);
		counter.increment();
		if (success == null && decision instanceof RetryDecision.Stop stop && stop.reason() == StopReason.SUCCESS) {
			meters.success = new Success(method, outcome, decision, counter);
		}
		if (decision instanceof RetryDecision.Retry retry) {
			meters.planned(retry.source()).record(retry.delay());
		}
		else if (decision instanceof RetryDecision.Stop stop && stop.reason().isAbandonment()) {
			abandon(client, stop.reason());
		}
	}

	@Override
	public void waited(String client, Duration planned, Duration actual) {
		meters(client).actual().record(actual);
	}

	@Override
	public void held(String client, String method, CooldownKey key, Duration heldFor) {
		held(client, method, key, heldFor, HoldReason.COOLDOWN);
	}

	@Override
	public void held(String client, String method, CooldownKey key, Duration heldFor, HoldReason reason) {
		// Tagged by client and reason only: the origin and partition are unbounded, the
		// endpoint shows them.
		meters(client).held(reason).record(heldFor);
	}

	@Override
	public void stoppedWithoutAttempt(String client, String method, StopReason reason) {
		// Only abandonments (interrupted, cooldown, deadline) arrive here; a normal end
		// without an attempt is not a failure to count.
		if (reason.isAbandonment()) {
			abandon(client, reason);
		}
	}

	private void abandon(String client, StopReason reason) {
		meters(client).abandoned(reason).increment();
	}

	private ClientMeters meters(String client) {
		if (ClientSettings.DEFAULT_NAME.equals(client)) {
			return this.defaultClient;
		}
		ClientMeters meters = this.byClient.get(client);
		return (meters != null) ? meters : this.byClient.computeIfAbsent(client, ClientMeters::new);
	}

	private static int methodIndex(String method) {
		// The adapters report a standard method by its constant name, the same string as the
		// tag: found by identity without hashing it.
		for (int i = 0; i < OTHER_METHOD_INDEX; i++) {
			if (METHOD_TAGS[i] == method) {
				return i;
			}
		}
		// Only another spelling is upper-cased (which allocates unless it is upper case
		// already) and looked up again.
		int index = upperCaseMethodIndex(method);
		return (index != OTHER_METHOD_INDEX) ? index : upperCaseMethodIndex(method.toUpperCase(Locale.ROOT));
	}

	private static int upperCaseMethodIndex(String method) {
		// Bounded cardinality: an arbitrary extension method must not create a new series.
		return switch (method) {
			case "GET" -> 0;
			case "HEAD" -> 1;
			case "POST" -> 2;
			case "PUT" -> 3;
			case "PATCH" -> 4;
			case "DELETE" -> 5;
			case "OPTIONS" -> 6;
			case "TRACE" -> 7;
			default -> OTHER_METHOD_INDEX;
		};
	}

	private static int outcomeIndex(RetryDecision decision) {
		if (decision instanceof RetryDecision.Stop stop) {
			return switch (stop.reason()) {
				case SUCCESS -> 0;
				case NOT_RETRYABLE -> 1;
				// Handed to the retry layer around the client, which retries it unless its own
				// policy is spent: the per-attempt view of that layer's retries.
				case OUTER_RETRY -> OUTCOME_RETRIED;
				default -> 2;
			};
		}
		return OUTCOME_RETRIED;
	}

	private static String statusTag(AttemptOutcome outcome) {
		if (outcome instanceof AttemptOutcome.Response response) {
			int status = response.status();
			return (status >= 0 && status < STATUS_TAGS.length) ? STATUS_TAGS[status] : Integer.toString(status);
		}
		return IO_ERROR;
	}

	/**
	 * One client's meters, registered on first use and kept. Tables are filled lazily and
	 * racily: two threads may both look a meter up, and the registry hands both the same one.
	 */
	private final class ClientMeters {

		private final String client;

		// Per method and outcome, a table by status slot; allocated on first use.
		private final AtomicReferenceArray<AtomicReferenceArray<Counter>> attempts = new AtomicReferenceArray<>(
				METHOD_TAGS.length * OUTCOME_TAGS.length);

		private final AtomicReferenceArray<Timer> planned = new AtomicReferenceArray<>(SOURCES.length);

		private final AtomicReferenceArray<Counter> abandoned = new AtomicReferenceArray<>(REASONS.length);

		private volatile @Nullable Timer actual;

		private final AtomicReferenceArray<Timer> held = new AtomicReferenceArray<>(HOLD_REASONS.length);

		/**
		 * The client's first success recorded, found again by the identity of its inputs: the
		 * adapters pass a standard method's constant name, one shared outcome per status
		 * without {@code Retry-After} and one shared stop per reason, and most attempts of a
		 * client are that one series. Set by the first success (by each of the first
		 * successes that race for it) and never after, so recording writes nothing shared
		 * and allocates nothing; a plain field, as {@link Success} publishes its final fields
		 * safely and a thread that misses it only looks the series up.
		 */
		private @Nullable Success success;

		ClientMeters(String client) {
			this.client = client;
		}

		Counter attempts(int method, int outcome, AttemptOutcome attemptOutcome) {
			int slot = statusSlot(attemptOutcome);
			if (slot < 0) {
				// A status outside 100..599 is rare enough to be looked up each time.
				return attemptsCounter(method, outcome, statusTag(attemptOutcome));
			}
			int table = method * OUTCOME_TAGS.length + outcome;
			AtomicReferenceArray<Counter> byStatus = this.attempts.get(table);
			if (byStatus == null) {
				this.attempts.compareAndSet(table, null, new AtomicReferenceArray<>(STATUS_SLOTS));
				byStatus = this.attempts.get(table);
			}
			Counter counter = byStatus.get(slot);
			if (counter == null) {
				counter = attemptsCounter(method, outcome, statusTag(attemptOutcome));
				byStatus.set(slot, counter);
			}
			return counter;
		}

		private Counter attemptsCounter(int method, int outcome, String status) {
			return RetryAfterMetrics.this.attempts
				.withTags("client", this.client, "method", METHOD_TAGS[method], "status", status, "outcome",
						OUTCOME_TAGS[outcome]);
		}

		Timer planned(DelaySource source) {
			Timer timer = this.planned.get(source.ordinal());
			if (timer == null) {
				timer = RetryAfterMetrics.this.planned.withTags("client", this.client, "source", source.tagValue());
				this.planned.set(source.ordinal(), timer);
			}
			return timer;
		}

		Timer actual() {
			Timer timer = this.actual;
			if (timer == null) {
				timer = RetryAfterMetrics.this.actual.withTags("client", this.client);
				this.actual = timer;
			}
			return timer;
		}

		Timer held(HoldReason reason) {
			Timer timer = this.held.get(reason.ordinal());
			if (timer == null) {
				timer = RetryAfterMetrics.this.held.withTags("client", this.client, "reason", reason.tagValue());
				this.held.set(reason.ordinal(), timer);
			}
			return timer;
		}

		Counter abandoned(StopReason reason) {
			Counter counter = this.abandoned.get(reason.ordinal());
			if (counter == null) {
				counter = RetryAfterMetrics.this.abandoned.withTags("client", this.client, "reason",
						reason.tagValue());
				this.abandoned.set(reason.ordinal(), counter);
			}
			return counter;
		}

		private static int statusSlot(AttemptOutcome outcome) {
			if (outcome instanceof AttemptOutcome.Response response) {
				int status = response.status();
				return (status >= FIRST_CACHED_STATUS && status < 600) ? status - FIRST_CACHED_STATUS : -1;
			}
			return IO_ERROR_SLOT;
		}

	}

	/**
	 * A series of the attempts counter with the exact inputs that named it.
	 *
	 * @param method the method as reported
	 * @param outcome the outcome as reported
	 * @param decision the decision as reported
	 * @param counter the series' counter
	 */
	private record Success(String method, AttemptOutcome outcome, RetryDecision decision, Counter counter) {
	}

}
