package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import dev.retryafter.core.RetrySettings;
import org.jspecify.annotations.Nullable;

/**
 * The per-request retry settings, one shape for the top level ({@code retry-after.*}) and for
 * each named client ({@code retry-after.clients.<name>.*}).
 * <p>
 * The field initializers are the defaults: the configuration processor publishes them and the
 * top level starts with them (tests keep the core's defaults for callers without Spring equal
 * to them). The groups are nested in {@link RetryAfterProperties}, where they have always been.
 * A named client starts with every value unset ({@code null}), so each one it does not set is
 * inherited from the top level. {@link #settings} merges and validates them, one line per
 * setting.
 *
 * @since 0.1.0
 */
public class RetrySettingsProperties {

	/**
	 * Maximum number of attempts for one request, the first attempt included.
	 */
	private @Nullable Integer maxAttempts = 3;

	/**
	 * Time allowed for all attempts and waits of one request, measured from its first attempt.
	 */
	private @Nullable Duration totalBudget = Duration.ofSeconds(10);

	/**
	 * Time kept back from the total budget for the next attempt to complete.
	 */
	private @Nullable Duration attemptReserve = Duration.ofMillis(500);

	/**
	 * HTTP status codes whose responses may be retried.
	 */
	private @Nullable Set<Integer> retryableStatuses = new LinkedHashSet<>(List.of(429, 503));

	/**
	 * HTTP methods whose requests are repeatable without any mark from the caller.
	 */
	private @Nullable Set<String> retryableMethods = new LinkedHashSet<>(
			List.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"));

	/**
	 * Name of the request header that makes a request repeatable when present; empty disables
	 * this check.
	 */
	private @Nullable String idempotencyKeyHeader = "Idempotency-Key";

	/**
	 * Random wait added to each planned wait, as a fraction of it, between 0 and 1.
	 */
	private @Nullable Double jitter = 0.2;

	private final RetryAfterProperties.Backoff backoff = new RetryAfterProperties.Backoff();

	private final RetryAfterProperties.Header header = new RetryAfterProperties.Header();

	private final RetryAfterProperties.IoErrors ioErrors = new RetryAfterProperties.IoErrors();

	private final RetryAfterProperties.Cooldown cooldown = new RetryAfterProperties.Cooldown();

	private final RetryAfterProperties.Budget budget = new RetryAfterProperties.Budget();

	private final RetryAfterProperties.RateLimit rateLimit = new RetryAfterProperties.RateLimit();

	/**
	 * The one merge and validation pass, one line per setting: each value is this one's own
	 * when set, else {@code inherited}'s, and is checked under the name it came from.
	 * @param prefix {@code retry-after}, or {@code retry-after.clients.<name>}
	 * @param inherited the top level; mapped first, so every value it gives is valid
	 * @return the settings the core runs on
	 */
	RetrySettings settings(String prefix, RetrySettingsProperties inherited) {
		Merge m = new Merge(prefix, this, inherited);
		return new RetrySettings(m.get("max-attempts", (s) -> s.maxAttempts, PropertyChecks::atLeastOne),
				m.get("total-budget", (s) -> s.totalBudget, PropertyChecks::nonNegative),
				m.get("attempt-reserve", (s) -> s.attemptReserve, PropertyChecks::nonNegative),
				m.get("retryable-statuses", (s) -> s.retryableStatuses, PropertyChecks::statuses),
				m.get("retryable-methods", (s) -> s.retryableMethods, PropertyChecks::methods),
				m.get("idempotency-key-header", (s) -> s.idempotencyKeyHeader, PropertyChecks::headerName),
				new RetrySettings.Backoff(
						m.get("backoff.initial", (s) -> s.backoff.getInitial(), PropertyChecks::nonNegative),
						m.get("backoff.multiplier", (s) -> s.backoff.getMultiplier(), PropertyChecks::multiplier),
						m.get("backoff.max", (s) -> s.backoff.getMax(), PropertyChecks::nonNegative)),
				m.get("jitter", (s) -> s.jitter, PropertyChecks::jitter),
				new RetrySettings.Header(
						m.get("header.max-wait", (s) -> s.header.getMaxWait(), PropertyChecks::maxWait),
						m.get("header.on-invalid", (s) -> s.header.getOnInvalid(), PropertyChecks::required),
						m.get("header.date-reference", (s) -> s.header.getDateReference(), PropertyChecks::required)),
				new RetrySettings.IoErrors(
						m.get("io-errors.connect", (s) -> s.ioErrors.getConnect(), PropertyChecks::required),
						m.get("io-errors.read", (s) -> s.ioErrors.getRead(), PropertyChecks::required)),
				new RetrySettings.Cooldown(
						m.get("cooldown.enabled", (s) -> s.cooldown.getEnabled(), PropertyChecks::required),
						m.get("cooldown.mode", (s) -> s.cooldown.getMode(), PropertyChecks::required),
						m.get("cooldown.statuses", (s) -> s.cooldown.getStatuses(), PropertyChecks::statuses),
						m.get("cooldown.partition-headers", (s) -> s.cooldown.getPartitionHeaders(),
								PropertyChecks::headerNames)),
				new RetrySettings.Budget(
						m.get("budget.enabled", (s) -> s.budget.getEnabled(), PropertyChecks::required),
						m.get("budget.ratio", (s) -> s.budget.getRatio(), PropertyChecks::ratio),
						m.get("budget.min-per-second", (s) -> s.budget.getMinPerSecond(), PropertyChecks::nonNegative),
						m.get("budget.window", (s) -> s.budget.getWindow(), PropertyChecks::positive)),
				new RetrySettings.RateLimit(
						m.get("rate-limit.enabled", (s) -> s.rateLimit.getEnabled(), PropertyChecks::required),
						m.get("rate-limit.fields", (s) -> s.rateLimit.getFields(), PropertyChecks::rateLimitFields)));
	}

	/**
	 * Leaves every value unset, so that each one is inherited: what a named client starts
	 * with.
	 */
	void unsetAll() {
		this.maxAttempts = null;
		this.totalBudget = null;
		this.attemptReserve = null;
		this.retryableStatuses = null;
		this.retryableMethods = null;
		this.idempotencyKeyHeader = null;
		this.jitter = null;
		this.backoff.setInitial(null);
		this.backoff.setMultiplier(null);
		this.backoff.setMax(null);
		this.header.setMaxWait(null);
		this.header.setOnInvalid(null);
		this.header.setDateReference(null);
		this.ioErrors.setConnect(null);
		this.ioErrors.setRead(null);
		this.cooldown.setEnabled(null);
		this.cooldown.setMode(null);
		this.cooldown.setStatuses(null);
		this.cooldown.setMaxDuration(null);
		this.cooldown.setPartitionHeaders(null);
		this.cooldown.setMaxHosts(null);
		this.budget.setEnabled(null);
		this.budget.setRatio(null);
		this.budget.setMinPerSecond(null);
		this.budget.setWindow(null);
		this.rateLimit.setEnabled(null);
		this.rateLimit.setFields(null);
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

	public RetryAfterProperties.Backoff getBackoff() {
		return this.backoff;
	}

	public RetryAfterProperties.Header getHeader() {
		return this.header;
	}

	public RetryAfterProperties.IoErrors getIoErrors() {
		return this.ioErrors;
	}

	public RetryAfterProperties.Cooldown getCooldown() {
		return this.cooldown;
	}

	public RetryAfterProperties.Budget getBudget() {
		return this.budget;
	}

	public RetryAfterProperties.RateLimit getRateLimit() {
		return this.rateLimit;
	}

	/**
	 * Where one client's values come from: its own properties, else the top level's.
	 */
	private record Merge(String prefix, RetrySettingsProperties own, RetrySettingsProperties inherited) {

		<T, R> R get(String key, Function<RetrySettingsProperties, @Nullable T> property,
				PropertyChecks.Check<T, R> check) {
			T value = property.apply(this.own);
			if (value != null) {
				return check.apply(this.prefix + "." + key, value);
			}
			return check.apply(RetryAfterSettingsMapper.PREFIX + "." + key, property.apply(this.inherited));
		}

	}

}
