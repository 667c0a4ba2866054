package dev.retryafter.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Sleeper;
import dev.retryafter.spi.CallTime;

/**
 * Virtual time for the retries: clocks that stand still until something waits, and then move
 * on by exactly what was waited. Its sleeper returns at once, having moved both clocks on by
 * the wait; the WebClient filter's timers do the same ({@link AutoConfigureRetryAfterVirtualTime}
 * gives it a scheduler on this time). So a {@code Retry-After: 30} costs a test nothing, and the
 * time budgets, cooldowns and retry budgets still see 30 seconds pass.
 * <p>
 * Waits add up: two calls that wait at the same time move the clocks on by both waits, where
 * real time would pass once. A test of concurrent calls should assert on what each call was
 * told to wait ({@link RetryRecorder}) rather than on the time that passed.
 *
 * @since 0.2.0
 */
public final class VirtualRetryTime implements CallTime {

	/** Readings only mean something as differences; a large start keeps them positive. */
	private static final long START_NANOS = 1_000_000_000_000L;

	private final Instant wallStart;

	private final MonotonicClock monotonicClock = this::nanoTime;

	private final Clock wallClock = new WallClock();

	private final Sleeper sleeper = this::sleep;

	/** Nanoseconds passed since the start; guarded by {@code this}. */
	private long elapsedNanos;

	/**
	 * Starts virtual time at the current instant of the system clock, so that an HTTP-date
	 * written by a real server is read as it would be.
	 */
	public VirtualRetryTime() {
		this(Instant.now());
	}

	/**
	 * Starts virtual time at a given instant.
	 * @param wallStart what the wall clock reads before anything waited
	 */
	public VirtualRetryTime(Instant wallStart) {
		this.wallStart = Objects.requireNonNull(wallStart, "wallStart");
	}

	/**
	 * Moves both clocks on, as if {@code duration} had passed: for a test that lets a cooldown
	 * or a retry budget's window run out between two calls.
	 * @param duration how far, zero or more
	 */
	public void advance(Duration duration) {
		Objects.requireNonNull(duration, "duration");
		if (duration.isNegative()) {
			throw new IllegalArgumentException("time only moves forward: " + duration);
		}
		long nanos = saturatedNanos(duration);
		synchronized (this) {
			this.elapsedNanos = (Long.MAX_VALUE - this.elapsedNanos - START_NANOS < nanos)
					? Long.MAX_VALUE - START_NANOS : this.elapsedNanos + nanos;
		}
	}

	/**
	 * The virtual time that passed since this time started: every wait, hold and
	 * {@link #advance} added up.
	 * @return the time passed
	 */
	public synchronized Duration elapsed() {
		return Duration.ofNanos(this.elapsedNanos);
	}

	@Override
	public MonotonicClock monotonicClock() {
		return this.monotonicClock;
	}

	@Override
	public Clock wallClock() {
		return this.wallClock;
	}

	@Override
	public Sleeper sleeper() {
		return this.sleeper;
	}

	private synchronized long nanoTime() {
		return START_NANOS + this.elapsedNanos;
	}

	/** As a real sleep does, a pending interrupt ends the wait before it begins. */
	private void sleep(Duration duration) throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException("Interrupted before waiting " + duration);
		}
		if (!duration.isNegative()) {
			advance(duration);
		}
	}

	private static long saturatedNanos(Duration duration) {
		return (duration.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0) ? Long.MAX_VALUE : duration.toNanos();
	}

	/** The wall clock: the start instant plus the virtual time passed, in UTC. */
	private final class WallClock extends Clock {

		@Override
		public Instant instant() {
			return VirtualRetryTime.this.wallStart.plus(elapsed());
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException("The virtual wall clock is UTC only");
		}

	}

}
