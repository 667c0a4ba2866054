package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.DateReference;
import dev.retryafter.core.OnInvalidRetryAfter;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the Retry-After aware retries (prefix {@code retry-after}).
 * <p>
 * Defaults are literals in the field initializers so that the configuration processor can
 * publish them. {@link RetryAfterSettingsMapper} validates the bound values and turns them into
 * the immutable settings the policy core runs on.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("retry-after")
public class RetryAfterProperties {

	/**
	 * Whether Retry-After aware retries are applied to the HTTP clients Spring Boot builds.
	 */
	private boolean enabled = true;

	/**
	 * Maximum number of attempts for one request, the first attempt included.
	 */
	private int maxAttempts = 3;

	/**
	 * Time allowed for all attempts and waits of one request, measured from its first attempt.
	 */
	private Duration totalBudget = Duration.ofSeconds(10);

	/**
	 * Time kept back from the total budget for the next attempt to complete.
	 */
	private Duration attemptReserve = Duration.ofMillis(500);

	/**
	 * HTTP status codes whose responses may be retried.
	 */
	private Set<Integer> retryableStatuses = new LinkedHashSet<>(List.of(429, 503));

	/**
	 * HTTP methods whose requests are repeatable without any mark from the caller.
	 */
	private Set<String> retryableMethods = new LinkedHashSet<>(
			List.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"));

	/**
	 * Name of the request header that makes a request repeatable when present; empty disables
	 * this check.
	 */
	private String idempotencyKeyHeader = "Idempotency-Key";

	/**
	 * Random wait added to each planned wait, as a fraction of it, between 0 and 1.
	 */
	private double jitter = 0.2;

	/**
	 * Where host cooldowns are kept.
	 */
	private Store store = Store.LOCAL;

	private final Backoff backoff = new Backoff();

	private final Header header = new Header();

	private final IoErrors ioErrors = new IoErrors();

	private final Cooldown cooldown = new Cooldown();

	private final Budget budget = new Budget();

	private final Redis redis = new Redis();

	/**
	 * Named clients, each applying its overrides to the hosts it lists.
	 */
	private Map<String, Client> clients = new LinkedHashMap<>();

	/**
	 * Returns the value of {@code retry-after.enabled}.
	 * @return the value
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Sets {@code retry-after.enabled}.
	 * @param enabled the new value
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * Returns the value of {@code retry-after.max-attempts}.
	 * @return the value
	 */
	public int getMaxAttempts() {
		return this.maxAttempts;
	}

	/**
	 * Sets {@code retry-after.max-attempts}.
	 * @param maxAttempts the new value
	 */
	public void setMaxAttempts(int maxAttempts) {
		this.maxAttempts = maxAttempts;
	}

	/**
	 * Returns the value of {@code retry-after.total-budget}.
	 * @return the value
	 */
	public Duration getTotalBudget() {
		return this.totalBudget;
	}

	/**
	 * Sets {@code retry-after.total-budget}.
	 * @param totalBudget the new value
	 */
	public void setTotalBudget(Duration totalBudget) {
		this.totalBudget = totalBudget;
	}

	/**
	 * Returns the value of {@code retry-after.attempt-reserve}.
	 * @return the value
	 */
	public Duration getAttemptReserve() {
		return this.attemptReserve;
	}

	/**
	 * Sets {@code retry-after.attempt-reserve}.
	 * @param attemptReserve the new value
	 */
	public void setAttemptReserve(Duration attemptReserve) {
		this.attemptReserve = attemptReserve;
	}

	/**
	 * Returns the value of {@code retry-after.retryable-statuses}.
	 * @return the value
	 */
	public Set<Integer> getRetryableStatuses() {
		return this.retryableStatuses;
	}

	/**
	 * Sets {@code retry-after.retryable-statuses}.
	 * @param retryableStatuses the new value
	 */
	public void setRetryableStatuses(Set<Integer> retryableStatuses) {
		this.retryableStatuses = retryableStatuses;
	}

	/**
	 * Returns the {@code retry-after.retryable-methods.*} settings.
	 * @return the settings
	 */
	public Set<String> getRetryableMethods() {
		return this.retryableMethods;
	}

	/**
	 * Sets {@code retry-after.retryable-methods}.
	 * @param retryableMethods the new value
	 */
	public void setRetryableMethods(Set<String> retryableMethods) {
		this.retryableMethods = retryableMethods;
	}

	/**
	 * Returns the value of {@code retry-after.idempotency-key-header}.
	 * @return the value
	 */
	public String getIdempotencyKeyHeader() {
		return this.idempotencyKeyHeader;
	}

	/**
	 * Sets {@code retry-after.idempotency-key-header}.
	 * @param idempotencyKeyHeader the new value
	 */
	public void setIdempotencyKeyHeader(String idempotencyKeyHeader) {
		this.idempotencyKeyHeader = idempotencyKeyHeader;
	}

	/**
	 * Returns the value of {@code retry-after.jitter}.
	 * @return the value
	 */
	public double getJitter() {
		return this.jitter;
	}

	/**
	 * Sets {@code retry-after.jitter}.
	 * @param jitter the new value
	 */
	public void setJitter(double jitter) {
		this.jitter = jitter;
	}

	/**
	 * Returns the value of {@code retry-after.store}.
	 * @return the value
	 */
	public Store getStore() {
		return this.store;
	}

	/**
	 * Sets {@code retry-after.store}.
	 * @param store the new value
	 */
	public void setStore(Store store) {
		this.store = store;
	}

	/**
	 * Returns the {@code retry-after.backoff.*} settings.
	 * @return the settings
	 */
	public Backoff getBackoff() {
		return this.backoff;
	}

	/**
	 * Returns the {@code retry-after.header.*} settings.
	 * @return the settings
	 */
	public Header getHeader() {
		return this.header;
	}

	/**
	 * Returns the {@code retry-after.io-errors.*} settings.
	 * @return the settings
	 */
	public IoErrors getIoErrors() {
		return this.ioErrors;
	}

	/**
	 * Returns the {@code retry-after.cooldown.*} settings.
	 * @return the settings
	 */
	public Cooldown getCooldown() {
		return this.cooldown;
	}

	/**
	 * Returns the {@code retry-after.budget.*} settings.
	 * @return the settings
	 */
	public Budget getBudget() {
		return this.budget;
	}

	/**
	 * Returns the {@code retry-after.redis.*} settings.
	 * @return the settings
	 */
	public Redis getRedis() {
		return this.redis;
	}

	/**
	 * Returns the value of {@code retry-after.clients}.
	 * @return the value
	 */
	public Map<String, Client> getClients() {
		return this.clients;
	}

	/**
	 * Sets {@code retry-after.clients}.
	 * @param clients the new value
	 */
	public void setClients(Map<String, Client> clients) {
		this.clients = clients;
	}

	/**
	 * Where host cooldowns are kept.
	 */
	public enum Store {

		/**
		 * In this application instance's memory.
		 */
		LOCAL,

		/**
		 * In Redis, shared by every instance that uses the same key prefix.
		 */
		REDIS

	}

	/**
	 * Local exponential backoff, used when the server sends no usable {@code Retry-After}.
	 */
	public static class Backoff {

		/**
		 * Wait before the first retry.
		 */
		private Duration initial = Duration.ofSeconds(1);

		/**
		 * Factor applied to the wait for each further retry, at least 1.
		 */
		private double multiplier = 2.0;

		/**
		 * Longest local backoff wait.
		 */
		private Duration max = Duration.ofSeconds(8);

		/**
		 * Returns the value of {@code retry-after.backoff.initial}.
		 * @return the value
		 */
		public Duration getInitial() {
			return this.initial;
		}

		/**
		 * Sets {@code retry-after.backoff.initial}.
		 * @param initial the new value
		 */
		public void setInitial(Duration initial) {
			this.initial = initial;
		}

		/**
		 * Returns the value of {@code retry-after.backoff.multiplier}.
		 * @return the value
		 */
		public double getMultiplier() {
			return this.multiplier;
		}

		/**
		 * Sets {@code retry-after.backoff.multiplier}.
		 * @param multiplier the new value
		 */
		public void setMultiplier(double multiplier) {
			this.multiplier = multiplier;
		}

		/**
		 * Returns the value of {@code retry-after.backoff.max}.
		 * @return the value
		 */
		public Duration getMax() {
			return this.max;
		}

		/**
		 * Sets {@code retry-after.backoff.max}.
		 * @param max the new value
		 */
		public void setMax(Duration max) {
			this.max = max;
		}

	}

	/**
	 * Handling of the {@code Retry-After} response header.
	 */
	public static class Header {

		/**
		 * Longest server-requested wait honoured; a longer one abandons the request instead
		 * of shortening the wait.
		 */
		private Duration maxWait = Duration.ofSeconds(60);

		/**
		 * What a present but invalid Retry-After header does.
		 */
		private OnInvalidRetryAfter onInvalid = OnInvalidRetryAfter.BACKOFF;

		/**
		 * What an HTTP-date Retry-After is measured against.
		 */
		private DateReference dateReference = DateReference.SERVER_DATE;

		/**
		 * Returns the value of {@code retry-after.header.max-wait}.
		 * @return the value
		 */
		public Duration getMaxWait() {
			return this.maxWait;
		}

		/**
		 * Sets {@code retry-after.header.max-wait}.
		 * @param maxWait the new value
		 */
		public void setMaxWait(Duration maxWait) {
			this.maxWait = maxWait;
		}

		/**
		 * Returns the value of {@code retry-after.header.on-invalid}.
		 * @return the value
		 */
		public OnInvalidRetryAfter getOnInvalid() {
			return this.onInvalid;
		}

		/**
		 * Sets {@code retry-after.header.on-invalid}.
		 * @param onInvalid the new value
		 */
		public void setOnInvalid(OnInvalidRetryAfter onInvalid) {
			this.onInvalid = onInvalid;
		}

		/**
		 * Returns the value of {@code retry-after.header.date-reference}.
		 * @return the value
		 */
		public DateReference getDateReference() {
			return this.dateReference;
		}

		/**
		 * Sets {@code retry-after.header.date-reference}.
		 * @param dateReference the new value
		 */
		public void setDateReference(DateReference dateReference) {
			this.dateReference = dateReference;
		}

	}

	/**
	 * Retries of requests that failed with an I/O error.
	 */
	public static class IoErrors {

		/**
		 * Whether connection failures, where the request was never sent, are retried for any
		 * method.
		 */
		private boolean connect = true;

		/**
		 * Whether read timeouts and connection resets after sending are retried for
		 * repeatable requests.
		 */
		private boolean read = true;

		/**
		 * Returns the value of {@code retry-after.io-errors.connect}.
		 * @return the value
		 */
		public boolean isConnect() {
			return this.connect;
		}

		/**
		 * Sets {@code retry-after.io-errors.connect}.
		 * @param connect the new value
		 */
		public void setConnect(boolean connect) {
			this.connect = connect;
		}

		/**
		 * Returns the value of {@code retry-after.io-errors.read}.
		 * @return the value
		 */
		public boolean isRead() {
			return this.read;
		}

		/**
		 * Sets {@code retry-after.io-errors.read}.
		 * @param read the new value
		 */
		public void setRead(boolean read) {
			this.read = read;
		}

	}

	/**
	 * Per-host cooldown: a {@code Retry-After} received by one request holds back the other
	 * requests to the same origin.
	 */
	public static class Cooldown {

		/**
		 * Whether a received Retry-After holds back other requests to the same origin.
		 */
		private boolean enabled = true;

		/**
		 * What a request to a cooling-down origin does.
		 */
		private CooldownMode mode = CooldownMode.WAIT;

		/**
		 * HTTP status codes whose Retry-After starts a cooldown.
		 */
		private Set<Integer> statuses = new LinkedHashSet<>(List.of(429));

		/**
		 * Longest cooldown, whatever the server asked or another instance reported.
		 */
		private Duration maxDuration = Duration.ofSeconds(60);

		/**
		 * Request headers whose values split an origin's cooldown, e.g. Authorization; only a
		 * one-way digest of the values is kept.
		 */
		private List<String> partitionHeaders = new ArrayList<>();

		/**
		 * Maximum number of cooldown keys (origins, or partitions of origins) remembered.
		 */
		private int maxHosts = 10000;

		/**
		 * Returns the value of {@code retry-after.cooldown.enabled}.
		 * @return the value
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets {@code retry-after.cooldown.enabled}.
		 * @param enabled the new value
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * Returns the value of {@code retry-after.cooldown.mode}.
		 * @return the value
		 */
		public CooldownMode getMode() {
			return this.mode;
		}

		/**
		 * Sets {@code retry-after.cooldown.mode}.
		 * @param mode the new value
		 */
		public void setMode(CooldownMode mode) {
			this.mode = mode;
		}

		/**
		 * Returns the value of {@code retry-after.cooldown.statuses}.
		 * @return the value
		 */
		public Set<Integer> getStatuses() {
			return this.statuses;
		}

		/**
		 * Sets {@code retry-after.cooldown.statuses}.
		 * @param statuses the new value
		 */
		public void setStatuses(Set<Integer> statuses) {
			this.statuses = statuses;
		}

		/**
		 * Returns the value of {@code retry-after.cooldown.max-duration}.
		 * @return the value
		 */
		public Duration getMaxDuration() {
			return this.maxDuration;
		}

		/**
		 * Sets {@code retry-after.cooldown.max-duration}.
		 * @param maxDuration the new value
		 */
		public void setMaxDuration(Duration maxDuration) {
			this.maxDuration = maxDuration;
		}

		/**
		 * Returns the value of {@code retry-after.cooldown.partition-headers}.
		 * @return the value
		 */
		public List<String> getPartitionHeaders() {
			return this.partitionHeaders;
		}

		/**
		 * Sets {@code retry-after.cooldown.partition-headers}.
		 * @param partitionHeaders the new value
		 */
		public void setPartitionHeaders(List<String> partitionHeaders) {
			this.partitionHeaders = partitionHeaders;
		}

		/**
		 * Returns the value of {@code retry-after.cooldown.max-hosts}.
		 * @return the value
		 */
		public int getMaxHosts() {
			return this.maxHosts;
		}

		/**
		 * Sets {@code retry-after.cooldown.max-hosts}.
		 * @param maxHosts the new value
		 */
		public void setMaxHosts(int maxHosts) {
			this.maxHosts = maxHosts;
		}

	}

	/**
	 * Retry budget, bounding retries to a share of the requests made.
	 */
	public static class Budget {

		/**
		 * Whether the retry budget applies.
		 */
		private boolean enabled = true;

		/**
		 * Retries allowed per request made within the window.
		 */
		private double ratio = 0.2;

		/**
		 * Retries always allowed per second, whatever the number of requests.
		 */
		private int minPerSecond = 10;

		/**
		 * Window over which the ratio is measured.
		 */
		private Duration window = Duration.ofSeconds(10);

		/**
		 * Returns the value of {@code retry-after.budget.enabled}.
		 * @return the value
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets {@code retry-after.budget.enabled}.
		 * @param enabled the new value
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * Returns the value of {@code retry-after.budget.ratio}.
		 * @return the value
		 */
		public double getRatio() {
			return this.ratio;
		}

		/**
		 * Sets {@code retry-after.budget.ratio}.
		 * @param ratio the new value
		 */
		public void setRatio(double ratio) {
			this.ratio = ratio;
		}

		/**
		 * Returns the value of {@code retry-after.budget.min-per-second}.
		 * @return the value
		 */
		public int getMinPerSecond() {
			return this.minPerSecond;
		}

		/**
		 * Sets {@code retry-after.budget.min-per-second}.
		 * @param minPerSecond the new value
		 */
		public void setMinPerSecond(int minPerSecond) {
			this.minPerSecond = minPerSecond;
		}

		/**
		 * Returns the value of {@code retry-after.budget.window}.
		 * @return the value
		 */
		public Duration getWindow() {
			return this.window;
		}

		/**
		 * Sets {@code retry-after.budget.window}.
		 * @param window the new value
		 */
		public void setWindow(Duration window) {
			this.window = window;
		}

	}

	/**
	 * Redis cooldown store, used when the store is {@code redis}.
	 */
	public static class Redis {

		/**
		 * Prefix of the Redis keys that hold host cooldowns.
		 */
		private String keyPrefix = "retry-after:";

		/**
		 * Returns the value of {@code retry-after.redis.key-prefix}.
		 * @return the value
		 */
		public String getKeyPrefix() {
			return this.keyPrefix;
		}

		/**
		 * Sets {@code retry-after.redis.key-prefix}.
		 * @param keyPrefix the new value
		 */
		public void setKeyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

	}

	/**
	 * A named client: the hosts it applies to and its overrides of the per-request settings.
	 * Every override left unset inherits the top-level value.
	 */
	public static class Client {

		/**
		 * Hosts this client applies to, as a host name or a host and port.
		 */
		private Set<String> hosts = new LinkedHashSet<>();

		/**
		 * Maximum number of attempts for one request, the first attempt included.
		 */
		private @Nullable Integer maxAttempts;

		/**
		 * Time allowed for all attempts and waits of one request, measured from its first
		 * attempt.
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
		 * Name of the request header that makes a request repeatable when present; empty
		 * disables this check.
		 */
		private @Nullable String idempotencyKeyHeader;

		/**
		 * Random wait added to each planned wait, as a fraction of it, between 0 and 1.
		 */
		private @Nullable Double jitter;

		private final BackoffOverrides backoff = new BackoffOverrides();

		private final HeaderOverrides header = new HeaderOverrides();

		private final IoErrorsOverrides ioErrors = new IoErrorsOverrides();

		private final CooldownOverrides cooldown = new CooldownOverrides();

		private final BudgetOverrides budget = new BudgetOverrides();

		/**
		 * Returns the value of {@code retry-after.clients.<name>.hosts}.
		 * @return the value
		 */
		public Set<String> getHosts() {
			return this.hosts;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.hosts}.
		 * @param hosts the new value
		 */
		public void setHosts(Set<String> hosts) {
			this.hosts = hosts;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.max-attempts}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Integer getMaxAttempts() {
			return this.maxAttempts;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.max-attempts}.
		 * @param maxAttempts the new value, or {@code null} to inherit it
		 */
		public void setMaxAttempts(@Nullable Integer maxAttempts) {
			this.maxAttempts = maxAttempts;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.total-budget}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Duration getTotalBudget() {
			return this.totalBudget;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.total-budget}.
		 * @param totalBudget the new value, or {@code null} to inherit it
		 */
		public void setTotalBudget(@Nullable Duration totalBudget) {
			this.totalBudget = totalBudget;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.attempt-reserve}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Duration getAttemptReserve() {
			return this.attemptReserve;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.attempt-reserve}.
		 * @param attemptReserve the new value, or {@code null} to inherit it
		 */
		public void setAttemptReserve(@Nullable Duration attemptReserve) {
			this.attemptReserve = attemptReserve;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.retryable-statuses}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Set<Integer> getRetryableStatuses() {
			return this.retryableStatuses;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.retryable-statuses}.
		 * @param retryableStatuses the new value, or {@code null} to inherit it
		 */
		public void setRetryableStatuses(@Nullable Set<Integer> retryableStatuses) {
			this.retryableStatuses = retryableStatuses;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.retryable-methods}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Set<String> getRetryableMethods() {
			return this.retryableMethods;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.retryable-methods}.
		 * @param retryableMethods the new value, or {@code null} to inherit it
		 */
		public void setRetryableMethods(@Nullable Set<String> retryableMethods) {
			this.retryableMethods = retryableMethods;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.idempotency-key-header}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable String getIdempotencyKeyHeader() {
			return this.idempotencyKeyHeader;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.idempotency-key-header}.
		 * @param idempotencyKeyHeader the new value, or {@code null} to inherit it
		 */
		public void setIdempotencyKeyHeader(@Nullable String idempotencyKeyHeader) {
			this.idempotencyKeyHeader = idempotencyKeyHeader;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.jitter}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Double getJitter() {
			return this.jitter;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.jitter}.
		 * @param jitter the new value, or {@code null} to inherit it
		 */
		public void setJitter(@Nullable Double jitter) {
			this.jitter = jitter;
		}

		/**
		 * Returns the {@code retry-after.clients.<name>.backoff.*} settings.
		 * @return the settings
		 */
		public BackoffOverrides getBackoff() {
			return this.backoff;
		}

		/**
		 * Returns the {@code retry-after.clients.<name>.header.*} settings.
		 * @return the settings
		 */
		public HeaderOverrides getHeader() {
			return this.header;
		}

		/**
		 * Returns the {@code retry-after.clients.<name>.io-errors.*} settings.
		 * @return the settings
		 */
		public IoErrorsOverrides getIoErrors() {
			return this.ioErrors;
		}

		/**
		 * Returns the {@code retry-after.clients.<name>.cooldown.*} settings.
		 * @return the settings
		 */
		public CooldownOverrides getCooldown() {
			return this.cooldown;
		}

		/**
		 * Returns the {@code retry-after.clients.<name>.budget.*} settings.
		 * @return the settings
		 */
		public BudgetOverrides getBudget() {
			return this.budget;
		}

	}

	/**
	 * A named client's overrides of the local exponential backoff.
	 */
	public static class BackoffOverrides {

		/**
		 * Wait before the first retry.
		 */
		private @Nullable Duration initial;

		/**
		 * Factor applied to the wait for each further retry, at least 1.
		 */
		private @Nullable Double multiplier;

		/**
		 * Longest local backoff wait.
		 */
		private @Nullable Duration max;

		/**
		 * Returns the value of {@code retry-after.clients.<name>.backoff.initial}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Duration getInitial() {
			return this.initial;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.backoff.initial}.
		 * @param initial the new value, or {@code null} to inherit it
		 */
		public void setInitial(@Nullable Duration initial) {
			this.initial = initial;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.backoff.multiplier}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Double getMultiplier() {
			return this.multiplier;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.backoff.multiplier}.
		 * @param multiplier the new value, or {@code null} to inherit it
		 */
		public void setMultiplier(@Nullable Double multiplier) {
			this.multiplier = multiplier;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.backoff.max}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Duration getMax() {
			return this.max;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.backoff.max}.
		 * @param max the new value, or {@code null} to inherit it
		 */
		public void setMax(@Nullable Duration max) {
			this.max = max;
		}

	}

	/**
	 * A named client's overrides of the {@code Retry-After} header handling.
	 */
	public static class HeaderOverrides {

		/**
		 * Longest server-requested wait honoured; a longer one abandons the request.
		 */
		private @Nullable Duration maxWait;

		/**
		 * What a present but invalid Retry-After header does.
		 */
		private @Nullable OnInvalidRetryAfter onInvalid;

		/**
		 * What an HTTP-date Retry-After is measured against.
		 */
		private @Nullable DateReference dateReference;

		/**
		 * Returns the value of {@code retry-after.clients.<name>.header.max-wait}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Duration getMaxWait() {
			return this.maxWait;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.header.max-wait}.
		 * @param maxWait the new value, or {@code null} to inherit it
		 */
		public void setMaxWait(@Nullable Duration maxWait) {
			this.maxWait = maxWait;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.header.on-invalid}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable OnInvalidRetryAfter getOnInvalid() {
			return this.onInvalid;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.header.on-invalid}.
		 * @param onInvalid the new value, or {@code null} to inherit it
		 */
		public void setOnInvalid(@Nullable OnInvalidRetryAfter onInvalid) {
			this.onInvalid = onInvalid;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.header.date-reference}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable DateReference getDateReference() {
			return this.dateReference;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.header.date-reference}.
		 * @param dateReference the new value, or {@code null} to inherit it
		 */
		public void setDateReference(@Nullable DateReference dateReference) {
			this.dateReference = dateReference;
		}

	}

	/**
	 * A named client's overrides of the I/O error retries.
	 */
	public static class IoErrorsOverrides {

		/**
		 * Whether connection failures, where the request was never sent, are retried for any
		 * method.
		 */
		private @Nullable Boolean connect;

		/**
		 * Whether read timeouts and connection resets after sending are retried for
		 * repeatable requests.
		 */
		private @Nullable Boolean read;

		/**
		 * Returns the value of {@code retry-after.clients.<name>.io-errors.connect}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Boolean getConnect() {
			return this.connect;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.io-errors.connect}.
		 * @param connect the new value, or {@code null} to inherit it
		 */
		public void setConnect(@Nullable Boolean connect) {
			this.connect = connect;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.io-errors.read}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Boolean getRead() {
			return this.read;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.io-errors.read}.
		 * @param read the new value, or {@code null} to inherit it
		 */
		public void setRead(@Nullable Boolean read) {
			this.read = read;
		}

	}

	/**
	 * A named client's overrides of the per-host cooldown.
	 */
	public static class CooldownOverrides {

		/**
		 * Whether a received Retry-After holds back other requests to the same origin.
		 */
		private @Nullable Boolean enabled;

		/**
		 * What a request to a cooling-down origin does.
		 */
		private @Nullable CooldownMode mode;

		/**
		 * HTTP status codes whose Retry-After starts a cooldown.
		 */
		private @Nullable Set<Integer> statuses;

		/**
		 * Request headers whose values split an origin's cooldown, e.g. Authorization; only a
		 * one-way digest of the values is kept.
		 */
		private @Nullable List<String> partitionHeaders;

		/**
		 * Returns the value of {@code retry-after.clients.<name>.cooldown.enabled}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.cooldown.enabled}.
		 * @param enabled the new value, or {@code null} to inherit it
		 */
		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.cooldown.mode}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable CooldownMode getMode() {
			return this.mode;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.cooldown.mode}.
		 * @param mode the new value, or {@code null} to inherit it
		 */
		public void setMode(@Nullable CooldownMode mode) {
			this.mode = mode;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.cooldown.statuses}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Set<Integer> getStatuses() {
			return this.statuses;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.cooldown.statuses}.
		 * @param statuses the new value, or {@code null} to inherit it
		 */
		public void setStatuses(@Nullable Set<Integer> statuses) {
			this.statuses = statuses;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.cooldown.partition-headers}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable List<String> getPartitionHeaders() {
			return this.partitionHeaders;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.cooldown.partition-headers}.
		 * @param partitionHeaders the new value, or {@code null} to inherit it
		 */
		public void setPartitionHeaders(@Nullable List<String> partitionHeaders) {
			this.partitionHeaders = partitionHeaders;
		}

	}

	/**
	 * A named client's overrides of the retry budget.
	 */
	public static class BudgetOverrides {

		/**
		 * Whether the retry budget applies.
		 */
		private @Nullable Boolean enabled;

		/**
		 * Retries allowed per request made within the window.
		 */
		private @Nullable Double ratio;

		/**
		 * Retries always allowed per second, whatever the number of requests.
		 */
		private @Nullable Integer minPerSecond;

		/**
		 * Window over which the ratio is measured.
		 */
		private @Nullable Duration window;

		/**
		 * Returns the value of {@code retry-after.clients.<name>.budget.enabled}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.budget.enabled}.
		 * @param enabled the new value, or {@code null} to inherit it
		 */
		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.budget.ratio}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Double getRatio() {
			return this.ratio;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.budget.ratio}.
		 * @param ratio the new value, or {@code null} to inherit it
		 */
		public void setRatio(@Nullable Double ratio) {
			this.ratio = ratio;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.budget.min-per-second}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Integer getMinPerSecond() {
			return this.minPerSecond;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.budget.min-per-second}.
		 * @param minPerSecond the new value, or {@code null} to inherit it
		 */
		public void setMinPerSecond(@Nullable Integer minPerSecond) {
			this.minPerSecond = minPerSecond;
		}

		/**
		 * Returns the value of {@code retry-after.clients.<name>.budget.window}.
		 * @return the value, or {@code null} to inherit it
		 */
		public @Nullable Duration getWindow() {
			return this.window;
		}

		/**
		 * Sets {@code retry-after.clients.<name>.budget.window}.
		 * @param window the new value, or {@code null} to inherit it
		 */
		public void setWindow(@Nullable Duration window) {
			this.window = window;
		}

	}

}
