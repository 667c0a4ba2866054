package dev.retryafter.core.protection;

import java.util.function.BooleanSupplier;

import dev.retryafter.core.header.RateLimitReading;

import org.jspecify.annotations.Nullable;

/**
 * Whether a quota's {@link SlotLog} paces its schedule: it does where the schedule is a
 * fleet's ({@link RateLimitPacing#logWindows}), while a rate is known, the origin is not seen
 * to refill and no refusal was heard within the quiet period. Once a slot
 * past a reset was taken by it, the log has seen a window of its own ("primed"), and a new
 * window's count no longer needs spreading (docs/PACING.md, rule 10).
 * <p>
 * Times are monotonic nanosecond readings, compared only as differences. Not thread-safe: its
 * {@link RateLimitSchedule} guards it.
 */
final class LogPacing {

	private @Nullable SlotLog log;

	private boolean primed;

	private boolean crowded;

	private long crowdedUntil;

	private final BooleanSupplier enabled;

	LogPacing(RateLimitReading reading, BooleanSupplier enabled) {
		this.enabled = enabled;
		read(reading);
	}

	/** A newer reading: another policy starts another log, which has seen no window yet. */
	void read(RateLimitReading reading) {
		if (!reading.hasRate()) {
			this.log = null;
			this.primed = false;
			return;
		}
		long window = reading.window().toNanos();
		if (this.log == null || !this.log.counts(reading.quota(), window)) {
			this.log = new SlotLog(reading.quota(), window);
			this.primed = false;
		}
	}

	/**
	 * Whether the log paces now.
	 * @param refilling whether the origin is seen to refill as it goes
	 */
	boolean paces(long nowNanos, boolean refilling) {
		if (this.crowded && this.crowdedUntil - nowNanos <= 0) {
			this.crowded = false;
		}
		return this.log != null && !refilling && !this.crowded && this.enabled.getAsBoolean();
	}

	/** Whether a slot past a reset was taken by the log since it last started pacing. */
	boolean primed() {
		return this.primed;
	}

	/** A slot past a reset was taken by the log. */
	void windowSeen() {
		this.primed = true;
	}

	/** The earliest instant, not before {@code at}, the log lets one more request go. */
	long earliest(long at) {
		return (this.log != null) ? this.log.earliest(at) : at;
	}

	/** A request went at {@code at}: logged even while the log does not pace, to be whole when it does. */
	void went(long at) {
		if (this.log != null) {
			this.log.add(at);
		}
	}

	/**
	 * A request went at {@code at} outside the slots (the quota far from spent, or saved): a
	 * fleet's log does not hold it, so this window's count is spread again until the log sees
	 * a window of its own.
	 */
	void wentOutside(long at) {
		went(at);
		this.primed = false;
	}

	/** The origin refused a request: the log does not pace for {@code quietNanos}. */
	void crowded(long nowNanos, long quietNanos) {
		this.crowded = true;
		this.crowdedUntil = nowNanos + quietNanos;
		this.primed = false;
	}

	/** How many requests the log lets go per {@link #spanNanos()}, 0 without a log. */
	int entries() {
		return (this.log != null) ? this.log.entries() : 0;
	}

	/** The log's span, 0 without a log. */
	long spanNanos() {
		return (this.log != null) ? this.log.spanNanos() : 0;
	}

}
