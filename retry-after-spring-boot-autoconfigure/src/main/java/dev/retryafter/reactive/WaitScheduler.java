package dev.retryafter.reactive;

import reactor.core.scheduler.Scheduler;

/**
 * Gives the {@link RetryAfterExchangeFilter} the Reactor {@link Scheduler} its waits and holds
 * are timed on. Without a bean of this type the auto-configuration uses Reactor's parallel
 * scheduler; a test that defines a {@link dev.retryafter.spi.CallTime} bean defines one too (the
 * {@code retry-after-spring-boot-test} module does), whose timers move that time's clocks on by
 * their delay and fire at once. A type of its own rather than a {@code Scheduler} bean, so that
 * an application's own schedulers are never picked up by mistake.
 *
 * @since 0.2.0
 */
@FunctionalInterface
public interface WaitScheduler {

	/**
	 * The scheduler the filter's waits run on.
	 * @return the scheduler, the same instance on every call
	 */
	Scheduler scheduler();

}
