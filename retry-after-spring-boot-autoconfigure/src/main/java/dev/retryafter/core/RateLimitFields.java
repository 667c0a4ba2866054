package dev.retryafter.core;

/**
 * Which quota fields a client reads ({@code retry-after.rate-limit.fields}).
 *
 * @since 0.2.0
 */
public enum RateLimitFields {

	/**
	 * {@code RateLimit-Policy} and {@code RateLimit}, the IETF httpapi working group's fields
	 * (draft-ietf-httpapi-ratelimit-headers-11).
	 */
	IETF("ietf"),

	/**
	 * {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset},
	 * and the same with {@code X-Rate-Limit-}, as GitHub, X and many others send them.
	 */
	X_RATELIMIT("x-ratelimit");

	private final String wireName;

	RateLimitFields(String wireName) {
		this.wireName = wireName;
	}

	/**
	 * The name the property value, the endpoint and the logs use.
	 * @return {@code ietf} or {@code x-ratelimit}
	 */
	public String wireName() {
		return this.wireName;
	}

}
