package dev.retryafter.store;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.Origin;
import dev.retryafter.core.header.RateLimitReading;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.core.protection.KeyProtection;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.protection.RateLimitPacing;
import dev.retryafter.core.protection.RateLimitState;
import org.jspecify.annotations.Nullable;

/**
 * Holds the host cooldowns (per origin, or per partition of one) a client consults before
 * each attempt. Every read is answered from the local {@link OriginProtection} map, so deciding
 * whether a request may go never waits for a network round trip; a shared store only adds
 * background propagation of the cooldowns it records.
 * <p>
 * Times come from the caller (a monotonic reading and the wall-clock instant taken with
 * it), so the client's clocks are the only ones a decision depends on.
 *
 * @since 0.1.0
 */
public interface CooldownStore {

	/**
	 * The store's name, used as the {@code store} tag of
	 * {@code http.client.retry.store.errors} and in the actuator endpoint.
	 * @return {@code local} or {@code redis}
	 */
	String name();

	/**
	 * Records that a request under {@code key} was answered with a cooldown status and a
	 * valid {@code Retry-After} of {@code delay}, cut to the longest cooldown; the later
	 * not-before instant wins. Returns promptly: a shared store propagates in the background.
	 * @param key the origin, or partition of an origin
	 * @param delay the server's delay, from now
	 * @param nowNanos the current monotonic reading
	 */
	void record(CooldownKey key, Duration delay, long nowNanos);

	/**
	 * Records that the origin accepted a request under {@code key}; see
	 * {@link OriginProtection#accepted}. Local: each instance learns the share of the origin's
	 * rate it gets.
	 * @param key the origin, or partition of an origin
	 * @param nowNanos the current monotonic reading
	 */
	default void accepted(CooldownKey key, long nowNanos) {
		protection().accepted(key, nowNanos);
	}

	/**
	 * Records that {@code host} accepted a request nothing could hold, without building its
	 * key; see {@link OriginProtection#acceptedAtOnce}. Local, as {@link #accepted}.
	 * @param host the request's host, any case
	 * @param nowNanos the current monotonic reading
	 * @since 0.3.0
	 */
	default void acceptedAtOnce(String host, long nowNanos) {
		protection().acceptedAtOnce(host, nowNanos);
	}

	/**
	 * Records what a response under {@code key} said about its origin's quota; see
	 * {@link OriginProtection#recordQuota}. Local to this instance.
	 * @param key the origin, or partition of an origin (or the bucket it named)
	 * @param reading the reading
	 * @param accepted whether the response was a success
	 * @param nowNanos the current monotonic reading
	 * @since 0.2.0
	 */
	default void recordQuota(CooldownKey key, RateLimitReading reading, boolean accepted, long nowNanos) {
		recordQuota(key, reading, accepted, -1, nowNanos);
	}

	/**
	 * Records what a response under {@code key} said about its origin's quota, with the round
	 * trip that bounds how late its reset may be named; see {@link RateLimitPacing#record}.
	 * Local to this instance.
	 * @param key the origin, or partition of an origin (or the bucket it named)
	 * @param reading the reading
	 * @param accepted whether the response was a success
	 * @param roundTripNanos from sending the request to reading the response, or negative when
	 * not known
	 * @param nowNanos the current monotonic reading
	 * @since 0.3.0
	 */
	default void recordQuota(CooldownKey key, RateLimitReading reading, boolean accepted, long roundTripNanos,
			long nowNanos) {
		protection().quotas().record(key, reading, accepted, roundTripNanos, nowNanos);
	}

	/**
	 * The key a refusal of a request under {@code key} records its cooldown under; see
	 * {@link OriginProtection#recordKey}.
	 * @param key the request's key
	 * @param nowNanos the current monotonic reading
	 * @return the key to record under
	 * @since 0.2.0
	 */
	default CooldownKey recordKey(CooldownKey key, long nowNanos) {
		return protection().recordKey(key, nowNanos);
	}

	/**
	 * The key a hold for {@code reason} is reported under; see {@link OriginProtection#holder}.
	 * @param key the request's key
	 * @param reason what held the request
	 * @param nowNanos the current monotonic reading
	 * @return the key that held it
	 * @since 0.2.0
	 */
	default CooldownKey holder(CooldownKey key, HoldReason reason, long nowNanos) {
		return protection().holder(key, reason, nowNanos);
	}

	/**
	 * Records that a request held under {@code key} was sent now; see
	 * {@link OriginProtection#left}. Local: the requests a cooldown holds are this instance's.
	 * @param key the key that held the request
	 * @param reason what held it
	 * @param nowNanos the current monotonic reading
	 * @since 0.2.0
	 */
	default void left(CooldownKey key, HoldReason reason, long nowNanos) {
		protection().left(key, reason, nowNanos);
	}

	/**
	 * Records that the retry of a request refused under {@code key} is planned; see
	 * {@link OriginProtection#retryPlanned}. Local: the retries are this instance's.
	 * @param key the key the refusal was recorded under
	 * @param delay the retry's planned wait from now
	 * @param nowNanos the current monotonic reading
	 * @since 0.3.0
	 */
	default void retryPlanned(CooldownKey key, Duration delay, long nowNanos) {
		protection().retryPlanned(key, delay, nowNanos);
	}

	/**
	 * Learns the bucket an origin named for a route; see {@link OriginProtection#learnBucket}.
	 * @param route the request's key, scoped to its route
	 * @param bucket the bucket
	 * @since 0.2.0
	 */
	default void learnBucket(CooldownKey route, CooldownScope bucket) {
		protection().learnBucket(route, bucket);
	}

	/**
	 * The bucket learned for a route; see {@link OriginProtection#bucketOf}.
	 * @param route a key scoped to its route
	 * @return the bucket, or {@code null}
	 * @since 0.2.0
	 */
	default @Nullable CooldownScope bucketOf(CooldownKey route) {
		return protection().bucketOf(route);
	}

	/**
	 * The door every decision goes through, answered locally: for the store's own
	 * implementations and tests. Code outside the store asks the store's own methods, so a
	 * shared store sees every change.
	 * @return the origin protection
	 */
	OriginProtection protection();

	/**
	 * Whether any origin may be cooling down: when not, every {@link #admit} would proceed,
	 * so a client may skip asking (and building the request's {@link Origin}). Answered
	 * from {@link #protection()}, like every read; it may still be true for cooldowns that
	 * have just ended.
	 * @return {@code false} only if no cooldown is held
	 */
	default boolean hasCooldowns() {
		return !protection().isEmpty();
	}

	/**
	 * Whether a request to {@code host} may be held before it is sent: as
	 * {@link #hasCooldowns()}, but an origin's announced quota counts only for requests to
	 * its own host.
	 * @param host the request's host, or {@code null} when it has none
	 * @return {@code false} only if the request would certainly be admitted at once
	 */
	default boolean mayHold(@Nullable String host) {
		return protection().mayHold(host);
	}

	/**
	 * Whether nothing but a quota can hold a request now; see
	 * {@link OriginProtection#holdsByQuotaOnly}.
	 * @return whether no cooldown, learned rate or route probe is kept
	 * @since 0.3.0
	 */
	default boolean holdsByQuotaOnly() {
		return protection().holdsByQuotaOnly();
	}

	/**
	 * Lets a first attempt no cooldown holds go now when its quota needs no slot for it; see
	 * {@link RateLimitPacing#takeAtOnce}. Never waits on anything: a fleet's shared slots are
	 * taken only by a request its quota holds ({@link #admit}).
	 * @param key the request's declared cooldown key
	 * @param nowNanos the current monotonic reading
	 * @return whether the request may go now
	 * @since 0.3.0
	 */
	default boolean takeQuotaAtOnce(CooldownKey key, long nowNanos) {
		return protection().quotas().takeAtOnce(key, nowNanos);
	}

	/**
	 * Decides whether a request may be sent now; see {@link OriginProtection#admit}.
	 * @param request the request, its budget and its cooldown settings
	 * @return the admission
	 */
	default Admission admit(AdmissionRequest request) {
		return protection().admit(request);
	}

	/**
	 * The time left until {@code key}'s not-before instant.
	 * @param key the origin, or partition of an origin
	 * @param nowNanos the current monotonic reading
	 * @return the time left, or {@link Duration#ZERO}
	 */
	default Duration remaining(CooldownKey key, long nowNanos) {
		return protection().remaining(key, nowNanos);
	}

	/**
	 * Ends cooldowns at once, as an operator may ask through the actuator endpoint.
	 * @param origin the origin whose cooldowns (every partition of it) end, or {@code null}
	 * to end every cooldown
	 * @return the keys whose cooldown was ended
	 */
	default List<CooldownKey> end(@Nullable Origin origin) {
		return protection().endAll(origin);
	}

	/**
	 * The keys cooling down now, with their time left.
	 * @param nowNanos the current monotonic reading
	 * @return an unmodifiable map from key to time left
	 */
	default Map<CooldownKey, Duration> snapshot(long nowNanos) {
		return protection().snapshot(nowNanos);
	}

	/**
	 * What can hold a first attempt under each key now; see
	 * {@link OriginProtection#protection}. Reads only.
	 * @param nowNanos the current monotonic reading
	 * @return one view per key
	 * @since 0.2.0
	 */
	default List<KeyProtection> holds(long nowNanos) {
		return protection().protection(nowNanos);
	}

	/**
	 * The quotas kept now; see {@link OriginProtection#quotas(long)}. Reads only.
	 * @param nowNanos the current monotonic reading
	 * @return an unmodifiable map from key to the quota's state
	 * @since 0.2.0
	 */
	default Map<CooldownKey, RateLimitState> quotas(long nowNanos) {
		return protection().quotas(nowNanos);
	}

	/**
	 * How many origins are cooling down now; see {@link OriginProtection#activeCount}. Reads
	 * only.
	 * @param nowNanos the current monotonic reading
	 * @return the number of origins with time left
	 * @since 0.2.0
	 */
	default int activeCount(long nowNanos) {
		return protection().activeCount(nowNanos);
	}

	/**
	 * Forgets the cooldowns that have ended; see {@link OriginProtection#purgeExpired}.
	 * @param nowNanos the current monotonic reading
	 * @since 0.2.0
	 */
	default void purgeExpired(long nowNanos) {
		protection().purgeExpired(nowNanos);
	}

	/**
	 * How many store failures have been counted so far (the
	 * {@code http.client.retry.store.errors} counter): a shared store counts each lost or
	 * failed connection, subscription or command once, not each retry during an outage.
	 * @return the number of failures; always zero for a local store
	 */
	default long errorCount() {
		return 0;
	}

	/**
	 * How many cooldowns were not shared because the store's write queue was full (the
	 * {@code http.client.retry.store.dropped} counter). Not an outage: the store was only
	 * slower than the cooldowns came in. The cooldowns still hold in this instance.
	 * @return the number of dropped writes; always zero for a local store
	 */
	default long droppedCount() {
		return 0;
	}

	/**
	 * How many paced first attempts took a local share of their quota instead of the fleet's
	 * slot (the {@code http.client.retry.store.quota.fallbacks} counter): the shared store was
	 * not connected, slower than its bound, or failed.
	 * @return the number of fallbacks; always zero for a local store
	 * @since 0.2.0
	 */
	default long quotaFallbackCount() {
		return 0;
	}

	/**
	 * How many first attempts held by a learned rate kept their local slot instead of the
	 * fleet's (the {@code http.client.retry.store.quota.fallbacks} counter, tagged
	 * {@code reason=pacing}): the shared store was not connected, slower than its bound, or
	 * failed.
	 * @return the number of fallbacks; always zero for a local store
	 * @since 0.2.0
	 */
	default long pacingFallbackCount() {
		return 0;
	}

	/**
	 * How many messages heard from the fleet were dropped for {@code reason} (the
	 * {@code http.client.retry.store.rejected} counter): a sign of instances with another
	 * secret, or of someone who publishes on the store's channel.
	 * @param reason why they were dropped
	 * @return the number of dropped messages; always zero for a local store
	 * @since 0.2.0
	 */
	default long rejectedCount(MessageRejection reason) {
		return 0;
	}

	/**
	 * The store's state for the actuator endpoint.
	 * @return the state; a store that shares nothing is always connected, since the JVM
	 * started
	 */
	default StoreState state() {
		return new StoreState(name(), true, JvmStart.INSTANT, errorCount());
	}

	/**
	 * The secret partition digests are keyed with ({@code cooldown.partition-headers}):
	 * instances that share cooldowns must share it, or the same tenant gets a different key on
	 * each of them.
	 * @return the secret; for a store that shares nothing, this JVM's random one
	 */
	default PartitionSecret partitionSecret() {
		return PartitionSecret.perJvm();
	}

}
