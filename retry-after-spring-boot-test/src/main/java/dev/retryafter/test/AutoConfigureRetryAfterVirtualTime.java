package dev.retryafter.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Runs a test's retries on virtual time and records them: every wait before a retry and every
 * cooldown hold returns at once, the calls' clocks move on by exactly what was waited (so
 * {@code total-budget}, {@code header.max-wait}, cooldowns and retry budgets behave as in real
 * time), and a {@link RetryRecorder} bean lists the attempts, planned waits, holds and stop
 * reasons. On a test class with {@code @SpringBootTest}, {@code @RestClientTest} or
 * {@code @WebClientTest}; the beans are a {@link VirtualRetryTime} and, with Reactor, the
 * scheduler the {@code WebClient} filter's timers run on.
 * <p>
 * Not virtual: the waits of an outer retry layer (Spring Framework's {@code RetryTemplate} and
 * {@code @Retryable}, spring-retry's {@code RetryTemplate}), the Redis cooldown store's
 * heartbeats and expiries, and a transport's own timeouts.
 *
 * @since 0.2.0
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureRetryAfterVirtualTime {

}
