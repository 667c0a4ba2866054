package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start-up warning for {@code retry-after.*} keys that bind to nothing, read from the
 * property sources the context really has.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownPropertyWarningsTests {

	private static final String WARN = "WARN";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class,
				RetryAfterPropertyCheckAutoConfiguration.class));

	@Test
	void whenAKeyIsMisspeltShouldWarnOnceNamingTheClosestKey(CapturedOutput output) {
		this.contextRunner.withPropertyValues("retry-after.max-atempts=3").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(warnings(output)).containsExactly("Property 'retry-after.max-atempts' (from property source "
					+ "'test') binds to nothing and is ignored; did you mean 'retry-after.max-attempts'?");
		});
	}

	@Test
	void whenEveryKeyBindsShouldNotWarn(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("retry-after.max-attempts=3", "retry-after.maxAttempts=3", "retry-after.max_attempts=3",
					"retry-after.retryable-statuses[0]=429", "retry-after.header.max-wait=30s",
					"retry-after.io-errors.read=false", "retry-after.store=local", "retry-after.redis.key-prefix=x:",
					"retry-after.clients.payments.hosts=pay.example.com",
					"retry-after.clients[payments].backoff.initial=2s",
					"retry-after.clients.payments.cooldown.partition-headers[0]=Authorization",
					"retry-after.clients.search.hosts[0]=search.example.com", "retry-after.enabled=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(warnings(output)).isEmpty();
			});
	}

	@Test
	void whenAClientKeyIsMisspeltShouldNameTheClientKeyWithItsName(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("retry-after.clients.payments.hosts=pay.example.com",
					"retry-after.clients.payments.jiter=0.1")
			.run((context) -> assertThat(warnings(output)).singleElement()
				.asString()
				.endsWith("did you mean 'retry-after.clients.payments.jitter'?"));
	}

	@Test
	void whenAKeyIsAtTheWrongLevelShouldNameTheKeyWithTheSameLastPart(CapturedOutput output) {
		this.contextRunner.withPropertyValues("retry-after.max-wait=30s", "retry-after.clients.p.hosts=p.example",
				"retry-after.clients.p.max-duration=5s")
			.run((context) -> assertThat(warnings(output)).containsExactly(
					"Property 'retry-after.max-wait' (from property source 'test') binds to nothing and is ignored; "
							+ "did you mean 'retry-after.header.max-wait'?",
					"Property 'retry-after.clients.p.max-duration' (from property source 'test') binds to nothing "
							+ "and is ignored; did you mean 'retry-after.clients.p.cooldown.max-duration'?"));
	}

	@Test
	void whenNoKeyIsCloseShouldSaySo(CapturedOutput output) {
		this.contextRunner.withPropertyValues("retry-after.colour=blue")
			.run((context) -> assertThat(warnings(output))
				.containsExactly("Property 'retry-after.colour' (from property source 'test') binds to nothing and "
						+ "is ignored; no retry-after.* property is close to it"));
	}

	@Test
	void whenRetriesAreSwitchedOffShouldStillWarn(CapturedOutput output) {
		this.contextRunner.withPropertyValues("retry-after.enabled=false", "retry-after.enabeld=false").run((context) -> {
			assertThat(context).doesNotHaveBean(dev.retryafter.client.RetryAfterInterceptor.class);
			assertThat(warnings(output)).singleElement()
				.asString()
				.endsWith("did you mean 'retry-after.enabled'?");
		});
	}

	@Test
	void environmentVariablesShouldBeReadInEveryFormBootBinds(CapturedOutput output) {
		this.contextRunner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new SystemEnvironmentPropertySource("test-systemEnvironment",
					Map.of("RETRY_AFTER_MAX_ATTEMPTS", "2", "RETRYAFTER_BACKOFF_INITIAL", "2s",
							"RETRYAFTER_CLIENTS_PAYMENTS_HOSTS", "pay.example.com",
							"RETRYAFTER_CLIENTS_PAYMENTS_MAXATTEMPTS", "2", "RETRYAFTER_RETRYABLESTATUSES_0", "429",
							"RETRY_AFTER_MAX_ATEMPTS", "3", "RETRYAFTERNOT_OURS", "x"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RetryAfterProperties properties = context.getBean(RetryAfterProperties.class);
				assertThat(properties.getMaxAttempts()).isEqualTo(2);
				assertThat(properties.getBackoff().getInitial()).hasSeconds(2);
				assertThat(properties.getRetryableStatuses()).containsExactly(429);
				assertThat(properties.getClients().get("payments").getMaxAttempts()).isEqualTo(2);
				assertThat(warnings(output)).containsExactly("Property 'RETRY_AFTER_MAX_ATEMPTS' (from property "
						+ "source 'test-systemEnvironment') binds to nothing and is ignored; did you mean "
						+ "'RETRYAFTER_MAXATTEMPTS'?");
			});
	}

	@Test
	void aKeyInSeveralSourcesShouldBeReportedOnceFromTheFirst(CapturedOutput output) {
		this.contextRunner.withPropertyValues("retry-after.backof.initial=2s")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addLast(new MapPropertySource("defaults", Map.of("retry-after.backof.initial", "3s"))))
			.run((context) -> assertThat(warnings(output))
				.containsExactly("Property 'retry-after.backof.initial' (from property source 'test') binds to "
						+ "nothing and is ignored; did you mean 'retry-after.backoff.initial'?"));
	}

	@Test
	void theKnownKeysShouldBeTheKeysOfTheIdeMetadata() throws IOException {
		List<String> published;
		try (InputStream in = getClass().getClassLoader()
			.getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
			published = JsonPath.parse(in).read("$.properties[*].name");
		}
		List<String> keys = RetryAfterPropertyNames.keys();
		assertThat(keys).filteredOn((key) -> !key.contains("<name>"))
			.containsExactlyInAnyOrderElementsOf(published.stream()
				.filter((key) -> key.startsWith("retry-after.") && !key.equals("retry-after.clients"))
				.toList());
		assertThat(keys).contains("retry-after.clients.<name>.hosts", "retry-after.clients.<name>.max-attempts",
				"retry-after.clients.<name>.header.max-wait", "retry-after.clients.<name>.budget.window");
	}

	@Test
	void distanceShouldCountSingleCharacterEdits() {
		assertThat(UnknownPropertyCheck.distance("maxatempts", "maxattempts")).isEqualTo(1);
		assertThat(UnknownPropertyCheck.distance("", "abc")).isEqualTo(3);
		assertThat(UnknownPropertyCheck.distance("kitten", "sitting")).isEqualTo(3);
	}

	private static List<String> warnings(CapturedOutput output) {
		return output.getOut()
			.lines()
			.filter((line) -> line.contains(WARN) && line.contains(UnknownPropertyWarnings.class.getSimpleName()))
			.map((line) -> line.substring(line.indexOf("Property '")))
			.toList();
	}

}
