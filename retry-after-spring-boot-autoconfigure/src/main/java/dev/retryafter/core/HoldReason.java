package dev.retryafter.core;

/**
 * What held a request before it was sent: each names a part of a key's state that the
 * {@code retryafter} endpoint shows, so every hold can be explained from it.
 *
 * @since 0.1.0
 */
public enum HoldReason {

	/** The key was cooling down: the request waited for the cooldown's instant plus jitter. */
	COOLDOWN("cooldown"),

	/**
	 * The cooldown's instant had passed while requests it held were still leaving: the
	 * request queued behind the last of them.
	 */
	RELEASE_WINDOW("release-window"),

	/** The request waited for its slot at the rate learned for the key. */
	PACING("pacing"),

	/** The request waited for its slot inside the quota the key's origin announced. */
	QUOTA("quota"),

	/**
	 * Another route of the origin was cooling down and a request to a third route was out to
	 * learn whether the whole origin refuses: the request waited for that answer.
	 * @since 0.2.0
	 */
	PROBE("probe");

	private final String tagValue;

	HoldReason(String tagValue) {
		this.tagValue = tagValue;
	}

	/**
	 * The value written in log lines (and usable as a tag value).
	 * @return for example {@code release-window}
	 */
	public String tagValue() {
		return this.tagValue;
	}

}
