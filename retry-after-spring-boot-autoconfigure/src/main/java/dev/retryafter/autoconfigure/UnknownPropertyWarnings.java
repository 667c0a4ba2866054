package dev.retryafter.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Logs one WARN per {@code retry-after.*} key of the application's property sources that
 * binds to nothing, once the context's beans are created, naming the closest known key.
 */
final class UnknownPropertyWarnings implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(UnknownPropertyWarnings.class);

	private final Environment environment;

	UnknownPropertyWarnings(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void afterSingletonsInstantiated() {
		// Only a ConfigurableEnvironment lists its property sources; Spring Boot's always does.
		if (!logger.isWarnEnabled() || !(this.environment instanceof ConfigurableEnvironment configurable)) {
			return;
		}
		for (String warning : new UnknownPropertyCheck(RetryAfterPropertyNames.keys()).warnings(configurable)) {
			logger.warn(warning);
		}
	}

}
