package dev.retryafter.benchmarks;

import java.time.Duration;

import dev.retryafter.core.header.RetryAfter;

/**
 * What a parser made of one {@code Retry-After} value, in terms every peer can be compared in:
 * a delay, a value it refused, or a crash (an exception other than its parse failure).
 *
 * @param kind the kind of result
 * @param delay the delay when {@code kind} is {@link Kind#DELAY}, else {@code null}
 * @param detail what crashed, when {@code kind} is {@link Kind#CRASH}
 */
public record Verdict(Kind kind, Duration delay, String detail) {

	/** Delays at or beyond this are shown as saturated: longer than any cap. */
	static final Duration SATURATED = RetryAfter.MAX_DELAY;

	/**
	 * The kinds of result.
	 */
	public enum Kind {

		/** A delay (zero or more). */
		DELAY,

		/** The value was refused as not a valid {@code Retry-After}. */
		INVALID,

		/** Parsing threw something other than its ordinary parse failure. */
		CRASH

	}

	/**
	 * A delay.
	 * @param delay the delay, possibly negative when a peer accepts a sign
	 * @return the verdict
	 */
	public static Verdict delay(Duration delay) {
		return new Verdict(Kind.DELAY, delay, "");
	}

	/**
	 * A refused value.
	 * @return the verdict
	 */
	public static Verdict invalid() {
		return new Verdict(Kind.INVALID, null, "");
	}

	/**
	 * An unexpected exception.
	 * @param ex the exception
	 * @return the verdict
	 */
	public static Verdict crash(Throwable ex) {
		return new Verdict(Kind.CRASH, null, ex.getClass().getSimpleName());
	}

	/**
	 * Whether this verdict matches the expected one: the same kind, and for delays the same
	 * value within one second (a leap second may be read as :59 or as the next :00), or both
	 * saturated.
	 * @param expected the expected verdict
	 * @return whether they match
	 */
	public boolean matches(Verdict expected) {
		if (this.kind != expected.kind) {
			return false;
		}
		if (this.kind != Kind.DELAY) {
			return true;
		}
		if (isSaturated() || expected.isSaturated()) {
			return isSaturated() && expected.isSaturated();
		}
		return this.delay.minus(expected.delay).abs().compareTo(Duration.ofSeconds(1)) <= 0;
	}

	boolean isSaturated() {
		return this.kind == Kind.DELAY && this.delay.compareTo(SATURATED) >= 0;
	}

	@Override
	public String toString() {
		return switch (this.kind) {
			case INVALID -> "invalid";
			case CRASH -> "crash: " + this.detail;
			case DELAY -> formatDelay();
		};
	}

	private String formatDelay() {
		if (isSaturated()) {
			return "saturated";
		}
		long seconds = this.delay.getSeconds();
		if (Math.abs(seconds) < 100_000) {
			return seconds + " s";
		}
		return (seconds / 86_400) + " d";
	}

}
