package dev.retryafter.autoconfigure.logging;


import dev.retryafter.logging.LoggingRetryListener;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Logs every retry decision at DEBUG on {@code dev.retryafter.logging.LoggingRetryListener}
 * (so {@code logging.level.dev.retryafter=debug} shows them). The listener checks the level on
 * each call, so it costs next to nothing while DEBUG is off.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "dev.retryafter.autoconfigure.RetryAfterAutoConfiguration")
@ConditionalOnBooleanProperty(name = "retry-after.enabled", matchIfMissing = true)
public final class RetryAfterLoggingAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LoggingRetryListener loggingRetryListener() {
		return new LoggingRetryListener();
	}

}
