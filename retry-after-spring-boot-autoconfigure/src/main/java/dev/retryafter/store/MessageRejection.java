package dev.retryafter.store;

/**
 * Why a shared store dropped a message heard from the fleet: the {@code reason} tag of
 * {@code http.client.retry.store.rejected}. Only a store with a partition secret signs and
 * checks its messages; without one nothing is rejected.
 *
 * @since 0.2.0
 */
public enum MessageRejection {

	/**
	 * Without a valid signature: another instance has a different
	 * {@code retry-after.cooldown.partition-secret}, or none, or someone without it published.
	 */
	SIGNATURE("signature"),

	/**
	 * Signed, but stamped more than 30 s away from Redis's time now, or without a stamp (an
	 * instance of a version before stamps): a message recorded and published again later.
	 */
	STALE("stale"),

	/**
	 * Signed and recent, but heard before: the same message published again.
	 */
	REPLAYED("replayed");

	private final String tag;

	MessageRejection(String tag) {
		this.tag = tag;
	}

	/**
	 * The value of the meter's {@code reason} tag.
	 * @return {@code signature}, {@code stale} or {@code replayed}
	 */
	public String tag() {
		return this.tag;
	}

}
