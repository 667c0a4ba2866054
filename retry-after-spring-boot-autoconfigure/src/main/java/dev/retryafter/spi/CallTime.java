package dev.retryafter.spi;

import java.time.Clock;

import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Sleeper;

/**
 * The time the client adapters' calls run on: the monotonic clock that schedules them, the wall
 * clock that stamps responses (for HTTP-dates and quota resets), and the sleeper the blocking
 * adapter waits with. Without a bean of this type the auto-configuration uses the system's
 * clocks and parks the calling thread; a test defines one (the {@code retry-after-spring-boot-test}
 * module's virtual time) so that every wait and hold is instant and the clocks move by exactly
 * what was waited.
 * <p>
 * The three must agree: a wait through {@link #sleeper()} moves {@link #monotonicClock()} and
 * {@link #wallClock()} on by what it waited, as real time does. Each method returns the same
 * instance every time, since the retry budgets recognise their clock by identity.
 *
 * @since 0.2.0
 */
public interface CallTime {

	/**
	 * The clock that schedules every call: time budgets, cooldowns, retry budgets, pacing.
	 * @return the monotonic clock, the same instance on every call
	 */
	MonotonicClock monotonicClock();

	/**
	 * The clock that only stamps the instant a response was received.
	 * @return the wall clock, the same instance on every call
	 */
	Clock wallClock();

	/**
	 * How the blocking adapter waits before a retry and while a cooldown holds a request.
	 * @return the sleeper, the same instance on every call
	 */
	Sleeper sleeper();

}
