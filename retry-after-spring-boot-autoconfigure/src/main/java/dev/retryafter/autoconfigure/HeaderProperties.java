package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

import dev.retryafter.core.OnInvalidRetryAfter;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.header.DateReference;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationUnit;

/**
 * Handling of the {@code Retry-After} response header.
 *
 * @since 0.1.0
 */
public class HeaderProperties {

	/**
	 * Longest server-requested wait honoured; a longer one abandons the request instead
	 * of shortening the wait. A number without a unit is in seconds.
	 */
	@DurationUnit(ChronoUnit.SECONDS)
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
	 * Whether the millisecond hints retry-after-ms and x-ms-retry-after-ms are honoured like
	 * Retry-After (strict non-negative integers; anything else is ignored).
	 */
	private @Nullable Boolean millisecondHints;

	/**
	 * Whether the server verdicts X-Should-Retry and Stripe-Should-Retry are obeyed: false
	 * stops a retry, true retries any error status of a request that may be repeated.
	 */
	private @Nullable Boolean serverVerdicts;

	/**
	 * Whether a 403 that carries Retry-After, a millisecond hint or a remaining quota of 0 is
	 * a rate-limit answer, retried and cooled down as a 429. A plain 403 is never retried.
	 */
	private @Nullable Boolean rateLimitedForbidden;

	/**
	 * Maps this group onto the core's {@link RetrySettings.Header}, one line per setting: a value
	 * unset at both levels is the core's default.
	 * @param m where each value comes from
	 * @param d the core's defaults
	 * @return the core's settings
	 */
	static RetrySettings.Header map(PropertyMerge<HeaderProperties> m, RetrySettings.Header d) {
		return new RetrySettings.Header(
				m.get("max-wait", HeaderProperties::getMaxWait, PropertyChecks::maxWait, d.maxWait()),
				m.get("on-invalid", HeaderProperties::getOnInvalid, PropertyChecks::required, d.onInvalid()),
				m.get("date-reference", HeaderProperties::getDateReference, PropertyChecks::required,
						d.dateReference()),
				m.get("millisecond-hints", HeaderProperties::getMillisecondHints, PropertyChecks::required,
						d.millisecondHints()),
				m.get("server-verdicts", HeaderProperties::getServerVerdicts, PropertyChecks::required,
						d.serverVerdicts()),
				m.get("rate-limited-forbidden", HeaderProperties::getRateLimitedForbidden, PropertyChecks::required,
						d.rateLimitedForbidden()));
	}

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

	public @Nullable Boolean getMillisecondHints() {
		return this.millisecondHints;
	}

	public void setMillisecondHints(@Nullable Boolean millisecondHints) {
		this.millisecondHints = millisecondHints;
	}

	public @Nullable Boolean getServerVerdicts() {
		return this.serverVerdicts;
	}

	public void setServerVerdicts(@Nullable Boolean serverVerdicts) {
		this.serverVerdicts = serverVerdicts;
	}

	public @Nullable Boolean getRateLimitedForbidden() {
		return this.rateLimitedForbidden;
	}

	public void setRateLimitedForbidden(@Nullable Boolean rateLimitedForbidden) {
		this.rateLimitedForbidden = rateLimitedForbidden;
	}

}
