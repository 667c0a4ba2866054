package dev.retryafter.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Warns at start-up about each {@code retry-after.*} key that binds to nothing, such as
 * {@code retry-after.max-atempts}, and names the closest known key. It applies whether or not
 * the retries are enabled: a misspelt {@code retry-after.enabled} is exactly such a key.
 *
 * @since 0.1.0
 */
@AutoConfiguration
public final class RetryAfterPropertyCheckAutoConfiguration {

	@Bean
	UnknownPropertyWarnings retryAfterUnknownPropertyWarnings(Environment environment) {
		return new UnknownPropertyWarnings(environment);
	}

}
