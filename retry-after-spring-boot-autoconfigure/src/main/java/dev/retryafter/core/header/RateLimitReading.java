package dev.retryafter.core.header;

import java.time.Duration;
import java.util.Objects;

/**
 * What one response said about its origin's quota: how many requests remain until the quota
 * resets, when it resets, and (when the server said) how many requests each window allows.
 *
 * @param policy the policy's name as the server gave it (a GitHub resource, an OpenAI
 * {@code tokens}), empty when it gave none; never a partition key
 * @param remaining requests left until the reset, at least 0
 * @param resetIn time from the response until the quota resets, not negative
 * @param quota requests the quota allows per window, or 0 when not known
 * @param window the quota's window, or {@link Duration#ZERO} when not known
 * @param fields the dialect it was read in
 * @param partitionKey a one-way digest of the partition key ({@code pk}) the server named for
 * this quota, empty when it named none: the quota is then that partition's, not the
 * origin's; the raw key is never kept, it may be derived from a credential
 * @since 0.2.0
 */
public record RateLimitReading(String policy, long remaining, Duration resetIn, long quota, Duration window,
		RateLimitFields fields, String partitionKey) {

	public RateLimitReading {
		Objects.requireNonNull(policy, "policy");
		Objects.requireNonNull(partitionKey, "partitionKey");
		Objects.requireNonNull(resetIn, "resetIn");
		Objects.requireNonNull(window, "window");
		Objects.requireNonNull(fields, "fields");
		if (remaining < 0 || quota < 0 || resetIn.isNegative() || window.isNegative()) {
			throw new IllegalArgumentException("negative quota values");
		}
	}

	/**
	 * A reading of a quota the server named no partition key for.
	 * @param policy the policy's name
	 * @param remaining requests left until the reset
	 * @param resetIn time until the reset
	 * @param quota requests per window, or 0
	 * @param window the window, or zero
	 * @param fields the dialect
	 */
	public RateLimitReading(String policy, long remaining, Duration resetIn, long quota, Duration window,
			RateLimitFields fields) {
		this(policy, remaining, resetIn, quota, window, fields, "");
	}

	/**
	 * Whether the server scoped this quota to one of its partitions ({@code pk}).
	 * @return whether a partition key was named
	 */
	public boolean partitioned() {
		return !this.partitionKey.isEmpty();
	}

	/**
	 * Whether the reading says how many requests each window allows.
	 * @return whether both the quota and its window are known
	 */
	public boolean hasRate() {
		return this.quota > 0 && !this.window.isZero();
	}

}
