package dev.retryafter.core;

/**
 * Why a request was held before it was sent: the {@code reason} tag of
 * {@code http.client.retry.cooldown.held}.
 *
 * @since 0.2.0
 */
public enum HoldReason {

	/** The origin asked for a pause with {@code Retry-After}: the request waited it out. */
	COOLDOWN("cooldown"),

	/** The request waited for its slot at the rate the origin was seen to accept. */
	PACING("pacing"),

	/** The request waited for its slot inside the quota the origin announced. */
	QUOTA("quota");

	private final String tagValue;

	HoldReason(String tagValue) {
		this.tagValue = tagValue;
	}

	/**
	 * The value of the {@code reason} tag.
	 * @return {@code cooldown}, {@code pacing} or {@code quota}
	 */
	public String tagValue() {
		return this.tagValue;
	}

}
