package dev.retryafter.metrics;

import java.util.Objects;

import dev.retryafter.core.MonotonicClock;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.MessageRejection;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of origin protection, read from the {@link CooldownStore} when a
 * registry asks:
 * <ul>
 * <li>{@code http.client.retry.cooldown.hosts} (gauge, no tags): origins cooling down now;</li>
 * <li>{@code http.client.retry.store.errors} (function counter; {@code store}, the store's
 * name, {@code local} or {@code redis}): failed store operations, each of which fell back to
 * this instance's cooldowns, counted once per outage (a lost or failed connection,
 * subscription or command, or a missing heartbeat), not once per retry;</li>
 * <li>{@code http.client.retry.store.dropped} (function counter; {@code store}): cooldowns not
 * shared because the store's write queue was full; Redis was slow, not down;</li>
 * <li>{@code http.client.retry.store.rejected} (function counter; {@code store},
 * {@code reason}, a {@link MessageRejection#tag()}: {@code signature}, {@code stale} or
 * {@code replayed}): messages heard from the fleet and dropped, a sign of instances with
 * another secret or of someone publishing on the store's channel.</li>
 * </ul>
 *
 * @since 0.1.0
 */
public class CooldownStoreMetrics implements MeterBinder {

	/** Name of the gauge of origins cooling down. */
	public static final String COOLDOWN_HOSTS = "http.client.retry.cooldown.hosts";

	/** Name of the counter of failed cooldown store operations. */
	public static final String STORE_ERRORS = "http.client.retry.store.errors";

	/** Name of the counter of cooldowns not shared because the write queue was full. */
	public static final String STORE_DROPPED = "http.client.retry.store.dropped";

	/**
	 * Name of the counter of paced requests that took a local share of their quota or learned
	 * rate, tagged {@code reason}.
	 */
	public static final String STORE_QUOTA_FALLBACKS = "http.client.retry.store.quota.fallbacks";

	/** Name of the counter of messages heard from the fleet and dropped. */
	public static final String STORE_REJECTED = "http.client.retry.store.rejected";

	// One description for both reasons: Prometheus keeps one HELP line per name.
	private static final String FALLBACKS_DESCRIPTION = "Paced requests that took a local share of their quota "
			+ "(reason=quota) or learned rate (reason=pacing): the fleet's slot was out of reach";

	private final CooldownStore store;

	private final MonotonicClock clock;

	/**
	 * Creates the binder on the system's monotonic clock (the interceptor's).
	 * @param store the cooldown store
	 */
	public CooldownStoreMetrics(CooldownStore store) {
		this(store, MonotonicClock.SYSTEM);
	}

	/**
	 * Creates the binder on the calls' monotonic clock, when they do not run on the system's
	 * (a test's virtual time), so that a cooldown stops counting when the calls' time passes it.
	 * @param store the cooldown store
	 * @param clock the calls' monotonic clock
	 * @since 0.2.0
	 */
	public CooldownStoreMetrics(CooldownStore store, MonotonicClock clock) {
		this.store = Objects.requireNonNull(store, "store");
		this.clock = Objects.requireNonNull(clock, "clock");
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder(COOLDOWN_HOSTS, this.store, (store) -> activeCount(store))
			.description("Origins currently cooling down after a Retry-After; requests to them are held or refused")
			.strongReference(true)
			.register(registry);
		FunctionCounter.builder(STORE_ERRORS, this.store, CooldownStore::errorCount)
			.tag("store", this.store.name())
			.description("Failed operations of the cooldown store; each fell back to this instance's cooldowns")
			.register(registry);
		FunctionCounter.builder(STORE_DROPPED, this.store, CooldownStore::droppedCount)
			.tag("store", this.store.name())
			.description("Cooldowns not shared because the store's write queue was full; they still hold here")
			.register(registry);
		FunctionCounter.builder(STORE_QUOTA_FALLBACKS, this.store, CooldownStore::quotaFallbackCount)
			.tag("store", this.store.name())
			.tag("reason", "quota")
			.description(FALLBACKS_DESCRIPTION)
			.register(registry);
		FunctionCounter.builder(STORE_QUOTA_FALLBACKS, this.store, CooldownStore::pacingFallbackCount)
			.tag("store", this.store.name())
			.tag("reason", "pacing")
			.description(FALLBACKS_DESCRIPTION)
			.register(registry);
		for (MessageRejection reason : MessageRejection.values()) {
			FunctionCounter.builder(STORE_REJECTED, this.store, (store) -> store.rejectedCount(reason))
				.tag("store", this.store.name())
				.tag("reason", reason.tag())
				.description("Messages heard from the fleet and dropped: badly signed, stale or replayed")
				.register(registry);
		}
	}

	/**
	 * The gauge's value. Each poll also forgets the cooldowns that have ended (housekeeping
	 * the store's views no longer do): an idle map empties, and first attempts take the
	 * shortcut again.
	 */
	private double activeCount(CooldownStore store) {
		long nowNanos = this.clock.nanoTime();
		store.purgeExpired(nowNanos);
		return store.activeCount(nowNanos);
	}

}
