package dev.retryafter.autoconfigure;

import java.time.Duration;
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

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getMaxAttempts() {
		return this.maxAttempts;
	}

	public void setMaxAttempts(int maxAttempts) {
		this.maxAttempts = maxAttempts;
	}

	public Duration getTotalBudget() {
		return this.totalBudget;
	}

	public void setTotalBudget(Duration totalBudget) {
		this.totalBudget = totalBudget;
	}

	public Duration getAttemptReserve() {
		return this.attemptReserve;
	}

	public void setAttemptReserve(Duration attemptReserve) {
		this.attemptReserve = attemptReserve;
	}

	public Set<Integer> getRetryableStatuses() {
		return this.retryableStatuses;
	}

	public void setRetryableStatuses(Set<Integer> retryableStatuses) {
		this.retryableStatuses = retryableStatuses;
	}

	public Set<String> getRetryableMethods() {
		return this.retryableMethods;
	}

	public void setRetryableMethods(Set<String> retryableMethods) {
		this.retryableMethods = retryableMethods;
	}

	public String getIdempotencyKeyHeader() {
		return this.idempotencyKeyHeader;
	}

	public void setIdempotencyKeyHeader(String idempotencyKeyHeader) {
		this.idempotencyKeyHeader = idempotencyKeyHeader;
	}

	public double getJitter() {
		return this.jitter;
	}

	public void setJitter(double jitter) {
		this.jitter = jitter;
	}

	public Store getStore() {
		return this.store;
	}

	public void setStore(Store store) {
		this.store = store;
	}

	public Backoff getBackoff() {
		return this.backoff;
	}

	public Header getHeader() {
		return this.header;
	}

	public IoErrors getIoErrors() {
		return this.ioErrors;
	}

	public Cooldown getCooldown() {
		return this.cooldown;
	}

	public Budget getBudget() {
		return this.budget;
	}

	public Redis getRedis() {
		return this.redis;
	}

	public Map<String, Client> getClients() {
		return this.clients;
	}

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

		public Duration getInitial() {
			return this.initial;
		}

		public void setInitial(Duration initial) {
			this.initial = initial;
		}

		public double getMultiplier() {
			return this.multiplier;
		}

		public void setMultiplier(double multiplier) {
			this.multiplier = multiplier;
		}

		public Duration getMax() {
			return this.max;
		}

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

		public Duration getMaxWait() {
			return this.maxWait;
		}

		public void setMaxWait(Duration maxWait) {
			this.maxWait = maxWait;
		}

		public OnInvalidRetryAfter getOnInvalid() {
			return this.onInvalid;
		}

		public void setOnInvalid(OnInvalidRetryAfter onInvalid) {
			this.onInvalid = onInvalid;
		}

		public DateReference getDateReference() {
			return this.dateReference;
		}

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

		public boolean isConnect() {
			return this.connect;
		}

		public void setConnect(boolean connect) {
			this.connect = connect;
		}

		public boolean isRead() {
			return this.read;
		}

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
		 * Maximum number of origins whose cooldown is remembered.
		 */
		private int maxHosts = 10000;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public CooldownMode getMode() {
			return this.mode;
		}

		public void setMode(CooldownMode mode) {
			this.mode = mode;
		}

		public int getMaxHosts() {
			return this.maxHosts;
		}

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

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public double getRatio() {
			return this.ratio;
		}

		public void setRatio(double ratio) {
			this.ratio = ratio;
		}

		public int getMinPerSecond() {
			return this.minPerSecond;
		}

		public void setMinPerSecond(int minPerSecond) {
			this.minPerSecond = minPerSecond;
		}

		public Duration getWindow() {
			return this.window;
		}

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

		public String getKeyPrefix() {
			return this.keyPrefix;
		}

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

		public Set<String> getHosts() {
			return this.hosts;
		}

		public void setHosts(Set<String> hosts) {
			this.hosts = hosts;
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

		public BackoffOverrides getBackoff() {
			return this.backoff;
		}

		public HeaderOverrides getHeader() {
			return this.header;
		}

		public IoErrorsOverrides getIoErrors() {
			return this.ioErrors;
		}

		public CooldownOverrides getCooldown() {
			return this.cooldown;
		}

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

		public @Nullable Duration getInitial() {
			return this.initial;
		}

		public void setInitial(@Nullable Duration initial) {
			this.initial = initial;
		}

		public @Nullable Double getMultiplier() {
			return this.multiplier;
		}

		public void setMultiplier(@Nullable Double multiplier) {
			this.multiplier = multiplier;
		}

		public @Nullable Duration getMax() {
			return this.max;
		}

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

		public @Nullable Duration getMaxWait() {
			return this.maxWait;
		}

		public void setMaxWait(@Nullable Duration maxWait) {
			this.maxWait = maxWait;
		}

		public @Nullable OnInvalidRetryAfter getOnInvalid() {
			return this.onInvalid;
		}

		public void setOnInvalid(@Nullable OnInvalidRetryAfter onInvalid) {
			this.onInvalid = onInvalid;
		}

		public @Nullable DateReference getDateReference() {
			return this.dateReference;
		}

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

		public @Nullable Boolean getConnect() {
			return this.connect;
		}

		public void setConnect(@Nullable Boolean connect) {
			this.connect = connect;
		}

		public @Nullable Boolean getRead() {
			return this.read;
		}

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

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable CooldownMode getMode() {
			return this.mode;
		}

		public void setMode(@Nullable CooldownMode mode) {
			this.mode = mode;
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

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Double getRatio() {
			return this.ratio;
		}

		public void setRatio(@Nullable Double ratio) {
			this.ratio = ratio;
		}

		public @Nullable Integer getMinPerSecond() {
			return this.minPerSecond;
		}

		public void setMinPerSecond(@Nullable Integer minPerSecond) {
			this.minPerSecond = minPerSecond;
		}

		public @Nullable Duration getWindow() {
			return this.window;
		}

		public void setWindow(@Nullable Duration window) {
			this.window = window;
		}

	}

}
