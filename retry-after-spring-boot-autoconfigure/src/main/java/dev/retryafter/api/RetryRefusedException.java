package dev.retryafter.api;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Objects;

import dev.retryafter.core.StopReason;

/**
 * Thrown when a request was not sent (again) and there is no response to hand back: for
 * example an origin cooling down in fail-fast mode, or a deadline re-check that fails after
 * a response too large to keep in memory. The request never left for this attempt, so a
 * caller may safely try it later.
 *
 * @since 0.1.0
 */
public class RetryRefusedException extends IOException {

	private static final long serialVersionUID = 1L;

	/** The origin the request was for, {@code scheme://host:port}. */
	private final String origin;

	/** Why the request was not sent. */
	private final StopReason reason;

	/** The time left when the request was refused, zero or more. */
	private final Duration timeLeft;

	/**
	 * Creates the exception.
	 * @param origin the origin the request was for, {@code scheme://host:port}
	 * @param reason why it was not sent
	 * @param timeLeft how long until the origin may be asked again (a cooldown's remaining
	 * time) or, for a budget, the time that was left of it; zero or more
	 */
	public RetryRefusedException(String origin, StopReason reason, Duration timeLeft) {
		super(message(origin, reason, timeLeft));
		this.origin = origin;
		this.reason = reason;
		this.timeLeft = timeLeft.isNegative() ? Duration.ZERO : timeLeft;
	}

	private static String message(String origin, StopReason reason, Duration timeLeft) {
		Objects.requireNonNull(origin, "origin");
		Objects.requireNonNull(reason, "reason");
		Objects.requireNonNull(timeLeft, "timeLeft");
		return "Request to " + origin + " not sent: " + reason.tagValue() + ", " + format(timeLeft) + " left";
	}

	/**
	 * Formats a duration for a message: seconds with one decimal (rounded up, so a refusal
	 * never claims less time left than there is), e.g. {@code 1.8s}.
	 */
	public static String format(Duration duration) {
		if (duration.isNegative()) {
			return "0.0s";
		}
		BigDecimal seconds = BigDecimal.valueOf(duration.getSeconds())
			.add(BigDecimal.valueOf(duration.getNano(), 9))
			.setScale(1, RoundingMode.CEILING);
		return seconds.toPlainString() + "s";
	}

	/**
	 * The origin the request was for.
	 * @return {@code scheme://host:port}
	 */
	public String getOrigin() {
		return this.origin;
	}

	/**
	 * Why the request was not sent.
	 * @return the reason
	 */
	public StopReason getReason() {
		return this.reason;
	}

	/**
	 * The time left when the request was refused (for a cooldown, until the origin may be
	 * asked again).
	 * @return the time left, zero or more
	 */
	public Duration getTimeLeft() {
		return this.timeLeft;
	}

}
