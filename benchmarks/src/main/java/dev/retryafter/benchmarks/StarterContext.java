package dev.retryafter.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.retryafter.autoconfigure.RetryAfterAutoConfiguration;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.client.RetryAfterInterceptor;
import dev.retryafter.metrics.RetryAfterMetrics;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * The starter as an application gets it: its auto-configuration in a small application
 * context, set up through its {@code retry-after.*} properties. A setting is
 * named here as a user names it, and a property this version of the library does not know is
 * ignored, as Spring Boot ignores it, so the same harness runs against older and newer versions.
 */
final class StarterContext implements AutoCloseable {

	private final AnnotationConfigApplicationContext context;

	private StarterContext(AnnotationConfigApplicationContext context) {
		this.context = context;
	}

	/**
	 * Starts the auto-configuration.
	 * @param properties property names without the {@code retry-after.} prefix, and values
	 * @param registry where the starter's meters go
	 * @return the started context
	 */
	static StarterContext start(Map<String, String> properties, MeterRegistry registry) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		Map<String, Object> prefixed = new LinkedHashMap<>();
		properties.forEach((name, value) -> prefixed.put("retry-after." + name, value));
		context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("benchmark", prefixed));
		context.registerBean(RetryAfterMetrics.class, () -> new RetryAfterMetrics(registry));
		context.register(RetryAfterAutoConfiguration.class, RetryAfterRestClientAutoConfiguration.class);
		context.refresh();
		return new StarterContext(context);
	}

	RetryAfterInterceptor interceptor() {
		return this.context.getBean(RetryAfterInterceptor.class);
	}

	/**
	 * One of the starter's beans, for a harness that checks what the starter kept.
	 * @param <T> the bean's type
	 * @param type the bean's type
	 * @return the bean
	 */
	<T> T bean(Class<T> type) {
		return this.context.getBean(type);
	}

	@Override
	public void close() {
		this.context.close();
	}

}
