package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The per-request retry settings, one shape for the top level ({@code retry-after.*}) and for
 * each named client ({@code retry-after.clients.<name>.*}).
 * <p>
 * Every value is {@code null} until it is bound: the core's {@link dev.retryafter.core.RetrySettings}
 * owns the defaults, and {@link RetryAfterSettingsMapper} maps each value onto them, a named
 * client's unset values falling back to the top level's and then to the core's. The
 * configuration metadata publishes the defaults through
 * {@code additional-spring-configuration-metadata.json}.
 *
 * @since 0.1.0
 */
public class RetrySettingsProperties {

	/**
	 * Maximum number of attempts for one request, the first attempt included.
	 */
	private @Nullable Integer maxAttempts;

	/**
	 * Time allowed for all attempts and waits of one request, measured from its first attempt.
	 */
	private @Nullable Duration totalBudget;

	/**
	 * Time kept back from the total budget for the next attempt to complete.
	 */
	private @Nullable Duration attemptReserve;

	/**
	 * HTTP status codes whose responses may be retried.
	 */
	private @Nullable Set<Integer> retryableStatuses;

	/**
	 * HTTP methods whose requests are repeatable without any mark from the caller.
	 */
	private @Nullable Set<String> retryableMethods;

	/**
	 * Name of the request header that makes a request repeatable when present; empty disables
	 * this check.
	 */
	private @Nullable String idempotencyKeyHeader;

	/**
	 * Random wait added to each planned wait, as a fraction of it, between 0 and 1.
	 */
	private @Nullable Double jitter;

	@NestedConfigurationProperty
	private final BackoffProperties backoff = new BackoffProperties();

	@NestedConfigurationProperty
	private final HeaderProperties header = new HeaderProperties();

	@NestedConfigurationProperty
	private final IoErrorsProperties ioErrors = new IoErrorsProperties();

	@NestedConfigurationProperty
	private final CooldownProperties cooldown = new CooldownProperties();

	@NestedConfigurationProperty
	private final BudgetProperties budget = new BudgetProperties();

	@NestedConfigurationProperty
	private final RateLimitProperties rateLimit = new RateLimitProperties();

	public @Nullable Integer getMaxAttempts() {
		return this.maxAttempts;
	}

	public void setMaxAttempts(@Nullable Integer maxAttempts) {
		this.maxAttempts = maxAttempts;
	}

	public @Nullable Duration getTotalBudget() {
		return this.totalBudget;
	}

	public void setTotalBudget(@Nullable Duration totalBudget) {
		this.totalBudget = totalBudget;
	}

	public @Nullable Duration getAttemptReserve() {
		return this.attemptReserve;
	}

	public void setAttemptReserve(@Nullable Duration attemptReserve) {
		this.attemptReserve = attemptReserve;
	}

	public @Nullable Set<Integer> getRetryableStatuses() {
		return this.retryableStatuses;
	}

	public void setRetryableStatuses(@Nullable Set<Integer> retryableStatuses) {
		this.retryableStatuses = retryableStatuses;
	}

	public @Nullable Set<String> getRetryableMethods() {
		return this.retryableMethods;
	}

	public void setRetryableMethods(@Nullable Set<String> retryableMethods) {
		this.retryableMethods = retryableMethods;
	}

	public @Nullable String getIdempotencyKeyHeader() {
		return this.idempotencyKeyHeader;
	}

	public void setIdempotencyKeyHeader(@Nullable String idempotencyKeyHeader) {
		this.idempotencyKeyHeader = idempotencyKeyHeader;
	}

	public @Nullable Double getJitter() {
		return this.jitter;
	}

	public void setJitter(@Nullable Double jitter) {
		this.jitter = jitter;
	}

	public BackoffProperties getBackoff() {
		return this.backoff;
	}

	public HeaderProperties getHeader() {
		return this.header;
	}

	public IoErrorsProperties getIoErrors() {
		return this.ioErrors;
	}

	public CooldownProperties getCooldown() {
		return this.cooldown;
	}

	public BudgetProperties getBudget() {
		return this.budget;
	}

	public RateLimitProperties getRateLimit() {
		return this.rateLimit;
	}

}
