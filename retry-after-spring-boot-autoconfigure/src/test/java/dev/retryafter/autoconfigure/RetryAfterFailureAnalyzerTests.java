package dev.retryafter.autoconfigure;

import java.util.stream.Stream;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Failure reports for {@code retry-after.*} values that cannot be bound: the property, the
 * value and what is allowed, for real binding failures of a context.
 */
@ExtendWith(OutputCaptureExtension.class)
class RetryAfterFailureAnalyzerTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class));

	static Stream<Arguments> unbindableValues() {
		return Stream.of(arguments("retry-after.cooldown.statuses", "abc", AllowedValues.STATUSES),
				arguments("retry-after.retryable-statuses", "429,abc", AllowedValues.STATUSES),
				arguments("retry-after.clients.payments.cooldown.statuses", "four-two-nine", AllowedValues.STATUSES),
				arguments("retry-after.store", "reddis", "one of local, redis"),
				arguments("retry-after.header.on-invalid", "sideways", "one of backoff, abandon"),
				arguments("retry-after.header.date-reference", "sundial", "one of server-date, local-clock"),
				arguments("retry-after.clients.payments.cooldown.mode", "later", "one of wait, fail-fast"),
				arguments("retry-after.rate-limit.fields", "ietf,githib",
						"one of ietf, x-ratelimit, github, gitlab, openai, anthropic, discord"),
				arguments("retry-after.clients.payments.rate-limit.fields", "stripe",
						"one of ietf, x-ratelimit, github, gitlab, openai, anthropic, discord"),
				arguments("retry-after.max-attempts", "three", "a whole number from 1 to 10"),
				arguments("retry-after.cooldown.max-hosts", "many", "a whole number of at least 1"),
				arguments("retry-after.budget.min-per-second", "some", "a whole number of at least 0"),
				arguments("retry-after.jitter", "lots", "a number between 0 and 1"),
				arguments("retry-after.clients.payments.backoff.multiplier", "double", "a number of at least 1"),
				arguments("retry-after.budget.ratio", "a fifth", "a number of at least 0"),
				arguments("retry-after.total-budget", "soon", AllowedValues.DURATION),
				arguments("retry-after.clients.payments.header.max-wait", "1 minute", AllowedValues.DURATION),
				arguments("retry-after.io-errors.read", "maybe", "true or false"),
				arguments("retry-after.header.rate-limited-forbidden", "sometimes", "true or false"),
				arguments("retry-after.clients.payments.header.server-verdicts", "perhaps", "true or false"),
				arguments("retry-after.max-recorded-bytes", "lots", AllowedValues.DATA_SIZE));
	}

	@ParameterizedTest(name = "{0}={1}")
	@MethodSource("unbindableValues")
	void whenAValueCannotBeBoundShouldSayWhatIsAllowed(String name, String value, String allowed) {
		this.contextRunner.withPropertyValues("retry-after.clients.payments.hosts=pay.example.com", name + "=" + value)
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new RetryAfterFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).isEqualTo("Invalid value '" + value
						+ "' for configuration property '" + name + "' (originating from '\"" + name
						+ "\" from property source \"test\"'): it must be " + allowed + ".");
				assertThat(analysis.getAction()).isEqualTo("Set '" + name + "' to " + allowed + ".");
			});
	}

	@Test
	void whenAnotherPropertyCannotBeBoundShouldLeaveItToSpringBoot() {
		new ApplicationContextRunner().withUserConfiguration(OtherPropertiesConfiguration.class)
			.withPropertyValues("other.count=abc")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(new RetryAfterFailureAnalyzer().analyze(context.getStartupFailure())).isNull();
			});
	}

	@Test
	void aValueOutOfRangeShouldBeLeftToTheReportOfItsReason() {
		this.contextRunner.withPropertyValues("retry-after.jitter=2").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(new RetryAfterFailureAnalyzer().analyze(context.getStartupFailure())).isNull();
		});
	}

	@Test
	void aFailingApplicationShouldPrintTheReport(CapturedOutput output) {
		SpringApplication application = new SpringApplication(RetryAfterApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		// Boot would configure Logback for the whole test JVM; its report reaches the output
		// either way, through the logging already in place.
		String loggingSystem = System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
		try {
			assertThatException().isThrownBy(() -> application.run("--retry-after.store=reddis"));
		}
		finally {
			ReadmeMessagesTests.restore(loggingSystem);
		}
		assertThat(output.getOut() + output.getErr()).contains("APPLICATION FAILED TO START")
			.contains("Invalid value 'reddis' for configuration property 'retry-after.store' (originating from "
					+ "'\"retry-after.store\" from property source \"commandLineArgs\"'): it must be one of local, "
					+ "redis.")
			.contains("Set 'retry-after.store' to one of local, redis.")
			.doesNotContain("LOCAL");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ RetryAfterAutoConfiguration.class, RetryAfterRestClientAutoConfiguration.class })
	static class RetryAfterApplication {

	}

	/**
	 * Binds a property outside {@code retry-after} as an application would. Not a
	 * {@code @ConfigurationProperties} class: the configuration processor would publish its
	 * metadata on the test class path, ahead of the module's own.
	 */
	@Configuration(proxyBeanMethods = false)
	static class OtherPropertiesConfiguration {

		@Bean
		Integer otherCount(Environment environment) {
			return Binder.get(environment).bind("other.count", Integer.class).orElse(0);
		}

	}

}
