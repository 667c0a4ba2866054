package dev.retryafter.core.header;

/**
 * The quota dialects a client reads ({@code retry-after.rate-limit.fields}): the IETF draft's
 * structured fields, the plain {@code X-RateLimit-*} fields, and the forms of the APIs that
 * speak their own. A response is read in one dialect, recognised by its field names.
 *
 * @since 0.2.0
 */
public enum RateLimitFields {

	/**
	 * {@code RateLimit-Policy} and {@code RateLimit}, the IETF httpapi working group's
	 * structured fields (draft-ietf-httpapi-ratelimit-headers), as Cloudflare sends them.
	 */
	IETF("ietf"),

	/**
	 * {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset}
	 * (seconds from now, or a Unix time), and the same with {@code X-Rate-Limit-} as X sends
	 * them; used when neither GitHub's nor Discord's own fields are there.
	 */
	X_RATELIMIT("x-ratelimit"),

	/**
	 * GitHub's {@code x-ratelimit-limit}, {@code -remaining}, {@code -used}, {@code -reset} (a
	 * Unix time) and {@code -resource}; recognised by {@code -used} or {@code -resource}.
	 */
	GITHUB("github"),

	/**
	 * GitLab's plain {@code RateLimit-Limit}, {@code -Remaining}, {@code -Reset} (a Unix time)
	 * and {@code -ResetTime} (an HTTP-date), not the draft's structured {@code RateLimit}.
	 */
	GITLAB("gitlab"),

	/**
	 * OpenAI's {@code x-ratelimit-limit-requests}, {@code x-ratelimit-remaining-requests} and
	 * {@code x-ratelimit-reset-requests} (a Go duration such as {@code 6m0s}), and the same
	 * three for {@code -tokens}.
	 */
	OPENAI("openai"),

	/**
	 * Anthropic's {@code anthropic-ratelimit-requests-limit}, {@code -remaining} and
	 * {@code -reset} (an RFC 3339 timestamp), and the same for {@code tokens},
	 * {@code input-tokens} and {@code output-tokens}.
	 */
	ANTHROPIC("anthropic"),

	/**
	 * Discord's {@code X-RateLimit-Limit}, {@code -Remaining}, {@code -Reset} (a Unix time with a
	 * fraction), {@code -Reset-After} (seconds with a fraction) and {@code -Bucket}; recognised
	 * by {@code -Reset-After} or {@code -Bucket}.
	 */
	DISCORD("discord");

	private final String wireName;

	RateLimitFields(String wireName) {
		this.wireName = wireName;
	}

	/**
	 * The name the property value, the endpoint and the logs use.
	 * @return the dialect's lower-case name, such as {@code ietf} or {@code openai}
	 */
	public String wireName() {
		return this.wireName;
	}

}
