package dev.retryafter.core;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import dev.retryafter.core.header.DateReference;
import dev.retryafter.core.header.RateLimitFields;

/**
 * Every per-request retry setting, immutable. Spring binding and validation happen outside
 * the core, which only checks invariants.
 *
 * @param maxAttempts attempts in total, the first included (at least 1)
 * @param totalBudget time for all attempts and waits, from the first attempt
 * @param attemptReserve time kept back for the next attempt to complete
 * @param retryableStatuses statuses that may be retried
 * @param retryableMethods methods repeatable by default, upper case
 * @param idempotencyKeyHeader header whose presence makes a request repeatable; empty disables
 * @param backoff local exponential backoff
 * @param jitter added wait, uniform in [0, jitter x base]
 * @param header {@code Retry-After} handling
 * @param ioErrors which I/O failures are retried
 * @param cooldown per-origin cooldown
 * @param budget retry budget
 * @param rateLimit pacing inside the quota an origin announces
 * @since 0.1.0
 */
public record RetrySettings(int maxAttempts, Duration totalBudget, Duration attemptReserve,
		Set<Integer> retryableStatuses, Set<String> retryableMethods, String idempotencyKeyHeader, Backoff backoff,
		double jitter, Header header, IoErrors ioErrors, Cooldown cooldown, Budget budget,
		RateLimit rateLimit) {

	private static final RetrySettings DEFAULTS = new RetrySettings(3, Duration.ofSeconds(10), Duration.ofMillis(500),
			Set.of(429, 503, 529), Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"), "Idempotency-Key",
			new Backoff(Duration.ofSeconds(1), 2.0, Duration.ofSeconds(8)), 0.2,
			new Header(Duration.ofSeconds(60), OnInvalidRetryAfter.BACKOFF, DateReference.SERVER_DATE),
			new IoErrors(true, true), new Cooldown(true, CooldownMode.WAIT),
			new Budget(true, 0.2, 10, Duration.ofSeconds(10)), RateLimit.DEFAULTS);

	public RetrySettings {
		Objects.requireNonNull(totalBudget, "totalBudget");
		Objects.requireNonNull(attemptReserve, "attemptReserve");
		Objects.requireNonNull(backoff, "backoff");
		Objects.requireNonNull(header, "header");
		Objects.requireNonNull(ioErrors, "ioErrors");
		Objects.requireNonNull(cooldown, "cooldown");
		Objects.requireNonNull(budget, "budget");
		Objects.requireNonNull(rateLimit, "rateLimit");
		Objects.requireNonNull(idempotencyKeyHeader, "idempotencyKeyHeader");
		SettingsInvariants.checkMaxAttempts(maxAttempts);
		SettingsInvariants.requireNonNegative(totalBudget, "totalBudget");
		SettingsInvariants.requireNonNegative(attemptReserve, "attemptReserve");
		Jitter.checkFactor(jitter);
		retryableStatuses = Set.copyOf(retryableStatuses);
		retryableMethods = SettingsInvariants.upperCase(retryableMethods);
	}

	/**
	 * Settings without {@code rateLimit}, which takes its defaults: for callers written before
	 * it was added.
	 * @param maxAttempts attempts in total, the first included (at least 1)
	 * @param totalBudget time for all attempts and waits, from the first attempt
	 * @param attemptReserve time kept back for the next attempt to complete
	 * @param retryableStatuses statuses that may be retried
	 * @param retryableMethods methods repeatable by default, upper case
	 * @param idempotencyKeyHeader header whose presence makes a request repeatable; empty
	 * disables
	 * @param backoff local exponential backoff
	 * @param jitter added wait, uniform in [0, jitter x base]
	 * @param header {@code Retry-After} handling
	 * @param ioErrors which I/O failures are retried
	 * @param cooldown per-origin cooldown
	 * @param budget retry budget
	 */
	public RetrySettings(int maxAttempts, Duration totalBudget, Duration attemptReserve,
			Set<Integer> retryableStatuses, Set<String> retryableMethods, String idempotencyKeyHeader,
			Backoff backoff, double jitter, Header header, IoErrors ioErrors, Cooldown cooldown, Budget budget) {
		this(maxAttempts, totalBudget, attemptReserve, retryableStatuses, retryableMethods, idempotencyKeyHeader,
				backoff, jitter, header, ioErrors, cooldown, budget, RateLimit.DEFAULTS);
	}

	/**
	 * The defaults: what every {@code retry-after.*} property left unset maps to, and what
	 * callers that build settings without Spring start from. The one place they are written;
	 * the configuration metadata publishes them for the IDE.
	 * @return the default settings
	 */
	public static RetrySettings defaults() {
		return DEFAULTS;
	}

	/**
	 * Returns a copy with another {@code maxAttempts}.
	 * @param maxAttempts the new value
	 * @return the copy
	 */
	public RetrySettings withMaxAttempts(int maxAttempts) {
		return new RetrySettings(maxAttempts, this.totalBudget, this.attemptReserve, this.retryableStatuses,
				this.retryableMethods, this.idempotencyKeyHeader, this.backoff, this.jitter, this.header,
				this.ioErrors, this.cooldown, this.budget, this.rateLimit);
	}

	/**
	 * Returns a copy with another {@code totalBudget}.
	 * @param totalBudget the new value
	 * @return the copy
	 */
	public RetrySettings withTotalBudget(Duration totalBudget) {
		return new RetrySettings(this.maxAttempts, totalBudget, this.attemptReserve, this.retryableStatuses,
				this.retryableMethods, this.idempotencyKeyHeader, this.backoff, this.jitter, this.header,
				this.ioErrors, this.cooldown, this.budget, this.rateLimit);
	}

	/**
	 * Returns a copy with another {@code attemptReserve}.
	 * @param attemptReserve the new value
	 * @return the copy
	 */
	public RetrySettings withAttemptReserve(Duration attemptReserve) {
		return new RetrySettings(this.maxAttempts, this.totalBudget, attemptReserve, this.retryableStatuses,
				this.retryableMethods, this.idempotencyKeyHeader, this.backoff, this.jitter, this.header,
				this.ioErrors, this.cooldown, this.budget, this.rateLimit);
	}

	/**
	 * Returns a copy with other {@code retryableStatuses}.
	 * @param retryableStatuses the new value
	 * @return the copy
	 */
	public RetrySettings withRetryableStatuses(Set<Integer> retryableStatuses) {
		return new RetrySettings(this.maxAttempts, this.totalBudget, this.attemptReserve, retryableStatuses,
				this.retryableMethods, this.idempotencyKeyHeader, this.backoff, this.jitter, this.header,
				this.ioErrors, this.cooldown, this.budget, this.rateLimit);
	}

	/**
	 * Returns a copy with other {@code retryableMethods}.
	 * @param retryableMethods the new value
	 * @return the copy
	 */
	public RetrySettings withRetryableMethods(Set<String> retryableMethods) {
		return new RetrySettings(this.maxAttempts, this.totalBudget, this.attemptReserve, this.retryableStatuses,
				retryableMethods, this.idempotencyKeyHeader, this.backoff, this.jitter, this.header, this.ioErrors,
				this.cooldown, this.budget, this.rateLimit);
	}

	/**
	 * Returns a copy with another {@code idempotencyKeyHeader}.
	 * @param idempotencyKeyHeader the new value; empty disables
	 * @return the copy
	 */
	public RetrySettings withIdempotencyKeyHeader(String idempotencyKeyHeader) {
		return new RetrySettings(this.maxAttempts, this.totalBudget, this.attemptReserve, this.retryableStatuses,
				this.retryableMethods, idempotencyKeyHeader, this.backoff, this.jitter, this.header, this.ioErrors,
				this.cooldown, this.budget, this.rateLimit);
	}

	/**
	 * Returns a copy with another {@code backoff}.
	 * @param backoff the new value
	 * @return the copy
	 */
	public RetrySettings withBackoff(Backoff backoff) {
		return new RetrySettings(this.maxAttempts, this.totalBudget, this.attemptReserve, this.retryableStatuses,
				this.retryableMethods, this.idempotencyKeyHeader, backoff, this.jitter, this.header, this.ioErrors,
				this.cooldown, this.budget, this.rateLimit);
	}

	/**
	 * Returns a copy with another {@code jitter}.
	 * @param jitter the new value
	 * @return the copy
	 */
	public RetrySettings withJitter(double jitter) {
		return new RetrySettings(this.maxAttempts, this.totalBudget, this.attemptReserve, this.retryableStatuses,
				this.retryableMethods, this.idempotencyKeyHeader, this.backoff, jitter, this.header, this.ioErrors,
				this.cooldown, this.budget, this.rateLimit);
	}

	/**
	 * Returns a copy with another {@code header}.
	 * @param header the new value
	 * @return the copy
	 */
	public RetrySettings withHeader(Header header) {
		return new RetrySettings(this.maxAttempts, this.totalBudget, this.attemptReserve, this.retryableStatuses,
				this.retryableMethods, this.idempotencyKeyHeader, this.backoff, this.jitter, header, this.ioErrors,
				this.cooldown, this.budget, this.rateLimit);
	}

	/**
	 * Returns a copy with other {@code ioErrors}.
	 * @param ioErrors the new value
	 * @return the copy
	 */
	public RetrySettings withIoErrors(IoErrors ioErrors) {
		return new RetrySettings(this.maxAttempts, this.totalBudget, this.attemptReserve, this.retryableStatuses,
				this.retryableMethods, this.idempotencyKeyHeader, this.backoff, this.jitter, this.header, ioErrors,
				this.cooldown, this.budget, this.rateLimit);
	}

	/**
	 * Returns a copy with another {@code cooldown}.
	 * @param cooldown the new value
	 * @return the copy
	 */
	public RetrySettings withCooldown(Cooldown cooldown) {
		return new RetrySettings(this.maxAttempts, this.totalBudget, this.attemptReserve, this.retryableStatuses,
				this.retryableMethods, this.idempotencyKeyHeader, this.backoff, this.jitter, this.header,
				this.ioErrors, cooldown, this.budget, this.rateLimit);
	}

	/**
	 * Returns a copy with another {@code budget}.
	 * @param budget the new value
	 * @return the copy
	 */
	public RetrySettings withBudget(Budget budget) {
		return new RetrySettings(this.maxAttempts, this.totalBudget, this.attemptReserve, this.retryableStatuses,
				this.retryableMethods, this.idempotencyKeyHeader, this.backoff, this.jitter, this.header,
				this.ioErrors, this.cooldown, budget, this.rateLimit);
	}

	/**
	 * Returns a copy with another {@code rateLimit}.
	 * @param rateLimit the new value
	 * @return the copy
	 */
	public RetrySettings withRateLimit(RateLimit rateLimit) {
		return new RetrySettings(this.maxAttempts, this.totalBudget, this.attemptReserve, this.retryableStatuses,
				this.retryableMethods, this.idempotencyKeyHeader, this.backoff, this.jitter, this.header,
				this.ioErrors, this.cooldown, this.budget, rateLimit);
	}

	/**
	 * Local exponential backoff: {@code initial x multiplier^(retry - 1)}, capped at {@code max}.
	 *
	 * @param initial the first retry's backoff
	 * @param multiplier the growth factor, at least 1
	 * @param max the cap
	 */
	public record Backoff(Duration initial, double multiplier, Duration max) {

		public Backoff {
			Objects.requireNonNull(initial, "initial");
			Objects.requireNonNull(max, "max");
			SettingsInvariants.checkBackoff(initial, multiplier, max);
		}

	}

	/**
	 * {@code Retry-After} handling.
	 *
	 * @param maxWait the longest server-requested wait honoured; a longer one abandons
	 * @param onInvalid what an invalid field does
	 * @param dateReference what an HTTP-date is measured against
	 * @param millisecondHints whether {@code retry-after-ms} and {@code x-ms-retry-after-ms} are read
	 * @param serverVerdicts whether {@code X-Should-Retry} and {@code Stripe-Should-Retry} are obeyed
	 * @param rateLimitedForbidden whether a 403 with a retry hint or a spent quota is retried as
	 * a rate-limit answer
	 */
	public record Header(Duration maxWait, OnInvalidRetryAfter onInvalid, DateReference dateReference,
			boolean millisecondHints, boolean serverVerdicts, boolean rateLimitedForbidden) {

		/**
		 * {@code Retry-After} handling with millisecond hints, verdicts and the 403 rule on.
		 * @param maxWait the longest server-requested wait honoured
		 * @param onInvalid what an invalid field does
		 * @param dateReference what an HTTP-date is measured against
		 */
		public Header(Duration maxWait, OnInvalidRetryAfter onInvalid, DateReference dateReference) {
			this(maxWait, onInvalid, dateReference, true, true, true);
		}

		public Header {
			Objects.requireNonNull(maxWait, "maxWait");
			Objects.requireNonNull(onInvalid, "onInvalid");
			Objects.requireNonNull(dateReference, "dateReference");
			SettingsInvariants.checkMaxWait(maxWait);
		}

	}

	/**
	 * Which I/O failures are retried.
	 *
	 * @param connect whether failures before the request left (refused, connect timeout) are
	 * retried, for any method
	 * @param read whether failures after the request may have left (read timeout, reset) are
	 * retried, for repeatable requests only
	 */
	public record IoErrors(boolean connect, boolean read) {
	}

	/**
	 * Per-origin cooldown.
	 *
	 * @param enabled whether a received {@code Retry-After} holds back other requests to the origin
	 * @param mode what a held-back request does
	 * @param statuses the statuses whose {@code Retry-After} starts a cooldown
	 * @param partitionHeaders the request headers whose values split an origin's cooldown
	 * @param scopes path prefixes that each form a cooldown scope of their own (see
	 * {@link CooldownScope#prefix}); empty for scopes learned from the routes and the server only
	 */
	public record Cooldown(boolean enabled, CooldownMode mode, Set<Integer> statuses, List<String> partitionHeaders,
			List<String> scopes) {

		/** Statuses that start a cooldown unless configured otherwise: a 429 is about the caller's rate. */
		public static final Set<Integer> DEFAULT_STATUSES = Set.of(429);

		/**
		 * Checks the scopes' form.
		 * @throws IllegalArgumentException if a scope is not a path prefix in the safe form
		 */
		public Cooldown {
			Objects.requireNonNull(mode, "mode");
			statuses = Set.copyOf(statuses);
			partitionHeaders = List.copyOf(partitionHeaders);
			scopes = List.copyOf(scopes);
			SettingsInvariants.checkScopes(scopes);
		}

		/**
		 * A cooldown with no configured scopes.
		 * @param enabled whether a received {@code Retry-After} holds back other requests to the origin
		 * @param mode what a held-back request does
		 * @param statuses the statuses whose {@code Retry-After} starts a cooldown
		 * @param partitionHeaders the request headers whose values split an origin's cooldown
		 */
		public Cooldown(boolean enabled, CooldownMode mode, Set<Integer> statuses, List<String> partitionHeaders) {
			this(enabled, mode, statuses, partitionHeaders, List.of());
		}

		/**
		 * A cooldown started by {@code 429} only, with no partitions or configured scopes.
		 * @param enabled whether a received {@code Retry-After} holds back other requests to the origin
		 * @param mode what a held-back request does
		 */
		public Cooldown(boolean enabled, CooldownMode mode) {
			this(enabled, mode, DEFAULT_STATUSES, List.of());
		}

	}

	/**
	 * Retry budget (Finagle's model).
	 *
	 * @param enabled whether the budget applies
	 * @param ratio retries allowed per request made, over the window
	 * @param minPerSecond retries always allowed per second
	 * @param window the window the ratio is measured over
	 */
	public record Budget(boolean enabled, double ratio, int minPerSecond, Duration window) {

		public Budget {
			Objects.requireNonNull(window, "window");
			SettingsInvariants.checkBudget(ratio, minPerSecond, window);
		}

	}

	/**
	 * Pacing inside the quota an origin announces in its responses.
	 *
	 * @param enabled whether the quota fields are read and first attempts paced inside them
	 * @param fields which fields are read
	 */
	public record RateLimit(boolean enabled, Set<RateLimitFields> fields) {

		/** Every dialect read, pacing on. */
		public static final RateLimit DEFAULTS = new RateLimit(true, EnumSet.allOf(RateLimitFields.class));

		public RateLimit {
			fields = Set.copyOf(fields);
		}

		/**
		 * Whether a response's fields are read at all.
		 * @return whether pacing is on and some field is read
		 */
		public boolean active() {
			return this.enabled && !this.fields.isEmpty();
		}

	}

}
