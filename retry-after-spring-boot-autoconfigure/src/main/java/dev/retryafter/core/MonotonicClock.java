package dev.retryafter.core;

/**
 * A monotonic time source in nanoseconds, the only clock used for scheduling. Readings are
 * meaningful only as differences (as with {@link System#nanoTime()}).
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface MonotonicClock {

	/** The system's monotonic clock. */
	MonotonicClock SYSTEM = System::nanoTime;

	/**
	 * The current reading.
	 * @return nanoseconds from an arbitrary origin
	 */
	long nanoTime();

}
