package dev.retryafter.core;

/**
 * The term that set a planned wait's base: the server's delay or the local backoff.
 *
 * @since 0.1.0
 */
public enum DelaySource {

	/** A {@code Retry-After} delay-seconds value. */
	RETRY_AFTER_SECONDS("retry-after-seconds"),

	/** A {@code Retry-After} HTTP-date value. */
	RETRY_AFTER_DATE("retry-after-date"),

	/** A millisecond hint ({@code retry-after-ms} or {@code x-ms-retry-after-ms}). */
	RETRY_AFTER_MS("retry-after-ms"),

	/** The reset of a quota a refusal announced spent ({@code x-ratelimit-remaining: 0} and its reset). */
	QUOTA_RESET("quota-reset"),

	/** Local exponential backoff (also used for I/O failures and absent or invalid headers). */
	BACKOFF("backoff");

	private final String tagValue;

	DelaySource(String tagValue) {
		this.tagValue = tagValue;
	}

	/**
	 * The value used for the {@code source} meter tag and in log lines.
	 * @return the tag value
	 */
	public String tagValue() {
		return this.tagValue;
	}

}
