package dev.retryafter.autoconfigure.logging;

import dev.retryafter.core.RetryListener;
import dev.retryafter.logging.LoggingRetryListener;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryAfterLoggingAutoConfiguration}.
 */
class RetryAfterLoggingAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterLoggingAutoConfiguration.class));

	@Test
	void shouldProvideLoggingListenerAsRetryListener() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(RetryListener.class)
			.getBean(RetryListener.class)
			.isInstanceOf(LoggingRetryListener.class));
	}

	@Test
	void shouldBackOffIfDisabled() {
		this.contextRunner.withPropertyValues("retry-after.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LoggingRetryListener.class));
	}

	@Test
	void shouldBackOffIfUserDefinesLoggingListener() {
		LoggingRetryListener custom = new LoggingRetryListener();
		this.contextRunner.withBean("customLoggingRetryListener", LoggingRetryListener.class, () -> custom)
			.run((context) -> assertThat(context).hasSingleBean(LoggingRetryListener.class)
				.getBean(LoggingRetryListener.class)
				.isSameAs(custom));
	}

}
