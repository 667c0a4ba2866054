package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Set;

import dev.retryafter.core.RetrySettings;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.convert.DurationUnit;

/**
 * The per-request retry settings, one shape for the top level ({@code retry-after.*}) and for
 * each named client ({@code retry-after.clients.<name>.*}).
 * <p>
 * Every value is {@code null} until it is bound: the core's {@link RetrySettings} owns the
 * defaults. Each value is mapped onto the core's settings next to where it is declared (here,
 * and in each group's {@code map}), a named client's unset values falling back to the top
 * level's and then to the core's. The configuration metadata publishes the defaults through
 * {@code additional-spring-configuration-metadata.json}, which the metadata tests hold to
 * the core's.
 *
 * @since 0.1.0
 */
public class RetrySettingsProperties {

	/**
	 * Maximum number of attempts for one request, the first attempt included: 1 to 10.
	 */
	private @Nullable Integer maxAttempts;

	/**
	 * Time allowed for all attempts and waits of one request, measured from its first attempt;
	 * greater than the attempt reserve. A number without a unit is in seconds.
	 */
	@DurationUnit(ChronoUnit.SECONDS)
	private @Nullable Duration totalBudget;

	/**
	 * Time kept back from the total budget for the next attempt to complete; less than the
	 * total budget. A number without a unit is in seconds.
	 */
	@DurationUnit(ChronoUnit.SECONDS)
	private @Nullable Duration attemptReserve;

	/**
	 * HTTP status codes whose responses may be retried. The default adds 529, the status an
	 * overloaded Anthropic API answers with, to 429 and 503.
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

	/**
	 * Maps these properties onto the core's {@link RetrySettings}, one line per setting (each
	 * group maps its own): a value unset at both levels is the core's default.
	 * @param m where each value comes from
	 * @param d the core's defaults
	 * @return the core's settings
	 */
	static RetrySettings map(PropertyMerge<RetrySettingsProperties> m, RetrySettings d) {
		RetrySettings settings = new RetrySettings(
				m.get("max-attempts", RetrySettingsProperties::getMaxAttempts, PropertyChecks::maxAttempts,
						d.maxAttempts()),
				m.get("total-budget", RetrySettingsProperties::getTotalBudget, PropertyChecks::nonNegative,
						d.totalBudget()),
				m.get("attempt-reserve", RetrySettingsProperties::getAttemptReserve, PropertyChecks::nonNegative,
						d.attemptReserve()),
				m.get("retryable-statuses", RetrySettingsProperties::getRetryableStatuses, PropertyChecks::statuses,
						d.retryableStatuses()),
				m.get("retryable-methods", RetrySettingsProperties::getRetryableMethods, PropertyChecks::methods,
						d.retryableMethods()),
				m.get("idempotency-key-header", RetrySettingsProperties::getIdempotencyKeyHeader,
						PropertyChecks::headerName, d.idempotencyKeyHeader()),
				BackoffProperties.map(m.group("backoff", RetrySettingsProperties::getBackoff), d.backoff()),
				m.get("jitter", RetrySettingsProperties::getJitter, PropertyChecks::jitter, d.jitter()),
				HeaderProperties.map(m.group("header", RetrySettingsProperties::getHeader), d.header()),
				IoErrorsProperties.map(m.group("io-errors", RetrySettingsProperties::getIoErrors), d.ioErrors()),
				CooldownProperties.map(m.group("cooldown", RetrySettingsProperties::getCooldown), d.cooldown()),
				BudgetProperties.map(m.group("budget", RetrySettingsProperties::getBudget), d.budget()),
				RateLimitProperties.map(m.group("rate-limit", RetrySettingsProperties::getRateLimit),
						d.rateLimit()));
		PropertyChecks.reserveBelowBudget(m.ownName("total-budget", RetrySettingsProperties::getTotalBudget),
				m.ownName("attempt-reserve", RetrySettingsProperties::getAttemptReserve), m.prefix() + ".total-budget",
				settings.totalBudget(), settings.attemptReserve());
		return settings;
	}

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
