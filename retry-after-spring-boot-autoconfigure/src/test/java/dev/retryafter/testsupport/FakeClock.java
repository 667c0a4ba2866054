package dev.retryafter.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import dev.retryafter.core.MonotonicClock;

/**
 * A monotonic and a wall clock that move together, only when told to.
 */
public final class FakeClock extends Clock implements MonotonicClock {

	private long nanos;

	private Instant wall;

	/**
	 * Starts the wall clock at {@code start} and the monotonic clock at an arbitrary large
	 * value (readings are only meaningful as differences).
	 * @param start the wall-clock start
	 */
	public FakeClock(Instant start) {
		this.wall = start;
		this.nanos = 1_000_000_000_000L;
	}

	/** Starts the wall clock at 2026-09-08T12:00:00Z (the seed articles' reference). */
	public FakeClock() {
		this(Instant.parse("2026-09-08T12:00:00Z"));
	}

	/**
	 * Moves both clocks forward.
	 * @param duration how far, zero or more
	 */
	public synchronized void advance(Duration duration) {
		if (duration.isNegative()) {
			throw new IllegalArgumentException("clocks only move forward: " + duration);
		}
		this.nanos += duration.toNanos();
		this.wall = this.wall.plus(duration);
	}

	@Override
	public synchronized long nanoTime() {
		return this.nanos;
	}

	@Override
	public synchronized Instant instant() {
		return this.wall;
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException("FakeClock is UTC only");
	}

}
