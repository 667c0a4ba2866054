package dev.retryafter.autoconfigure.frameworkretry;

import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.frameworkretry.RetryAfterRetryPolicy;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Runs inside a class loader of its own (see
 * {@link RetryAfterFrameworkRetryAutoConfigurationTests}): starts the auto-configuration
 * without {@code @EnableResilientMethods} and describes what it defined in a plain string, the
 * only type both loaders share.
 */
final class FrameworkRetryProbe {

	private FrameworkRetryProbe() {
	}

	static String run() {
		StringBuilder result = new StringBuilder();
		new ApplicationContextRunner().withClassLoader(FrameworkRetryProbe.class.getClassLoader())
			.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
					RetryAfterRestClientAutoConfiguration.class,
					RetryAfterFrameworkRetryAutoConfiguration.class))
			.run((context) -> {
				if (context.getStartupFailure() != null) {
					throw new IllegalStateException(context.getStartupFailure());
				}
				result.append("policy=")
					.append(context.getBeanNamesForType(RetryAfterRetryPolicy.class).length)
					.append(" advice=")
					.append(context.getBeanNamesForType(
							org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor.class)
						.length);
			});
		return result.toString();
	}

}
