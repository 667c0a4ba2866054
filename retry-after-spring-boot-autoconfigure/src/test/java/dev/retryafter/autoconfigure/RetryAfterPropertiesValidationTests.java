package dev.retryafter.autoconfigure;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Stream;

import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.OnInvalidRetryAfter;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.header.DateReference;
import dev.retryafter.core.header.RateLimitFields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.convert.ConversionFailedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Start-up validation of {@link RetryAfterProperties}: each bad value fails the context with a
 * message naming the property and the value.
 */
class RetryAfterPropertiesValidationTests {

	private static final String SCOPE_REASON = "each scope must be a path prefix such as /api/search: '/' then segments"
			+ " of letters, digits and -._~%, no empty segment or trailing '/', at most 64 characters";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class));

	static Stream<Arguments> invalidValues() {
		return Stream.of(
				arguments("retry-after.max-attempts=0", "retry-after.max-attempts", "0", "must be between 1 and 10"),
				arguments("retry-after.max-attempts=-3", "retry-after.max-attempts", "-3", "must be between 1 and 10"),
				arguments("retry-after.max-attempts=11", "retry-after.max-attempts", "11", "must be between 1 and 10"),
				arguments("retry-after.max-attempts=1000000", "retry-after.max-attempts", "1000000",
						"must be between 1 and 10"),
				arguments("retry-after.total-budget=0s", "retry-after.total-budget", "PT0S",
						"must be greater than attempt-reserve (500ms) to leave time for a retry"),
				arguments("retry-after.total-budget=10ms", "retry-after.total-budget", "PT0.01S",
						"must be greater than attempt-reserve (500ms) to leave time for a retry"),
				arguments("retry-after.total-budget=500ms", "retry-after.total-budget", "PT0.5S",
						"must be greater than attempt-reserve (500ms) to leave time for a retry"),
				arguments("retry-after.attempt-reserve=10s", "retry-after.attempt-reserve", "PT10S",
						"must be less than total-budget (10s), which it is kept back from"),
				arguments("retry-after.attempt-reserve=500", "retry-after.attempt-reserve", "PT8M20S",
						"must be less than total-budget (10s), which it is kept back from"),
				arguments("retry-after.total-budget=-1s", "retry-after.total-budget", "PT-1S", "must not be negative"),
				arguments("retry-after.attempt-reserve=-1ms", "retry-after.attempt-reserve", "PT-0.001S",
						"must not be negative"),
				arguments("retry-after.backoff.initial=-2s", "retry-after.backoff.initial", "PT-2S",
						"must not be negative"),
				arguments("retry-after.backoff.max=-8s", "retry-after.backoff.max", "PT-8S", "must not be negative"),
				arguments("retry-after.backoff.multiplier=0.5", "retry-after.backoff.multiplier", "0.5",
						"must be a finite number of at least 1"),
				arguments("retry-after.backoff.multiplier=Infinity", "retry-after.backoff.multiplier", "Infinity",
						"must be a finite number of at least 1"),
				arguments("retry-after.backoff.multiplier=NaN", "retry-after.backoff.multiplier", "NaN",
						"must be a finite number of at least 1"),
				arguments("retry-after.jitter=1.5", "retry-after.jitter", "1.5", "must be between 0 and 1"),
				arguments("retry-after.jitter=-0.1", "retry-after.jitter", "-0.1", "must be between 0 and 1"),
				arguments("retry-after.jitter=NaN", "retry-after.jitter", "NaN", "must be between 0 and 1"),
				arguments("retry-after.header.max-wait=-1s", "retry-after.header.max-wait", "PT-1S",
						"must not be negative"),
				arguments("retry-after.header.max-wait=36500d", "retry-after.header.max-wait", "PT876000H",
						"must be less than 36500 days"),
				arguments("retry-after.retryable-statuses=429,600", "retry-after.retryable-statuses", "600",
						"each status must be between 100 and 599"),
				arguments("retry-after.retryable-statuses=99,503", "retry-after.retryable-statuses", "99",
						"each status must be between 100 and 599"),
				arguments("retry-after.retryable-methods=GET,,PUT", "retry-after.retryable-methods", "",
						"each method must be a non-blank HTTP method name"),
				arguments("retry-after.retryable-methods[0]=GET PUT", "retry-after.retryable-methods", "GET PUT",
						"each method must be a non-blank HTTP method name"),
				arguments("retry-after.idempotency-key-header=Idempotency Key", "retry-after.idempotency-key-header",
						"Idempotency Key", "must be empty or a valid HTTP header name"),
				arguments("retry-after.budget.ratio=-0.1", "retry-after.budget.ratio", "-0.1",
						"must be a finite number of at least 0"),
				arguments("retry-after.budget.min-per-second=-1", "retry-after.budget.min-per-second", "-1",
						"must not be negative"),
				arguments("retry-after.budget.window=0s", "retry-after.budget.window", "PT0S", "must be positive"),
				arguments("retry-after.budget.window=-10s", "retry-after.budget.window", "PT-10S", "must be positive"),
				arguments("retry-after.budget.window=36501d", "retry-after.budget.window", "PT876024H",
						"must be at most 36500 days"),
				arguments("retry-after.total-budget=36501d", "retry-after.total-budget", "PT876024H",
						"must be at most 36500 days"),
				arguments("retry-after.backoff.max=36501d", "retry-after.backoff.max", "PT876024H",
						"must be at most 36500 days"),
				arguments("retry-after.cooldown.max-hosts=0", "retry-after.cooldown.max-hosts", "0",
						"must be at least 1"),
				arguments("retry-after.cooldown.statuses=429,600", "retry-after.cooldown.statuses", "600",
						"each status must be between 100 and 599"),
				arguments("retry-after.cooldown.statuses=99", "retry-after.cooldown.statuses", "99",
						"each status must be between 100 and 599"),
				arguments("retry-after.cooldown.max-duration=0s", "retry-after.cooldown.max-duration", "PT0S",
						"must be positive"),
				arguments("retry-after.cooldown.max-duration=-5s", "retry-after.cooldown.max-duration", "PT-5S",
						"must be positive"),
				arguments("retry-after.cooldown.max-duration=36501d", "retry-after.cooldown.max-duration",
						"PT876024H", "must be at most 36500 days"),
				arguments("retry-after.cooldown.partition-headers=X-Tenant,,Authorization",
						"retry-after.cooldown.partition-headers", "", "each header must be a valid HTTP header name"),
				arguments("retry-after.cooldown.partition-headers[0]=Tenant Id",
						"retry-after.cooldown.partition-headers", "Tenant Id",
						"each header must be a valid HTTP header name"),
				arguments("retry-after.cooldown.partition-headers[0]=X-Tenant:",
						"retry-after.cooldown.partition-headers", "X-Tenant:",
						"each header must be a valid HTTP header name"),
				arguments("retry-after.cooldown.scopes=/api/search/", "retry-after.cooldown.scopes", "/api/search/",
						SCOPE_REASON),
				arguments("retry-after.cooldown.scopes[0]=api", "retry-after.cooldown.scopes", "api", SCOPE_REASON),
				arguments("retry-after.cooldown.scopes[0]=/a b", "retry-after.cooldown.scopes", "/a b", SCOPE_REASON));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("invalidValues")
	void whenValueIsInvalidShouldFailNamingPropertyAndValue(String property, String name, String value,
			String reason) {
		this.contextRunner.withPropertyValues(property)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessage("Property %s with value '%s' is invalid: %s", name, value, reason));
	}

	static Stream<Arguments> invalidClientValues() {
		return Stream.of(
				arguments("jitter=2", "jitter", "2.0", "must be between 0 and 1"),
				arguments("max-attempts=0", "max-attempts", "0", "must be between 1 and 10"),
				arguments("max-attempts=1000000", "max-attempts", "1000000", "must be between 1 and 10"),
				arguments("total-budget=0s", "total-budget", "PT0S",
						"must be greater than attempt-reserve (500ms) to leave time for a retry"),
				arguments("total-budget=400ms", "total-budget", "PT0.4S",
						"must be greater than attempt-reserve (500ms) to leave time for a retry"),
				arguments("attempt-reserve=10s", "attempt-reserve", "PT10S",
						"must be less than total-budget (10s), which it is kept back from"),
				arguments("total-budget=-1s", "total-budget", "PT-1S", "must not be negative"),
				arguments("attempt-reserve=-1s", "attempt-reserve", "PT-1S", "must not be negative"),
				arguments("backoff.initial=-1s", "backoff.initial", "PT-1S", "must not be negative"),
				arguments("backoff.multiplier=0.9", "backoff.multiplier", "0.9",
						"must be a finite number of at least 1"),
				arguments("backoff.max=-1s", "backoff.max", "PT-1S", "must not be negative"),
				arguments("header.max-wait=40000d", "header.max-wait", "PT960000H", "must be less than 36500 days"),
				arguments("retryable-statuses=1000", "retryable-statuses", "1000",
						"each status must be between 100 and 599"),
				arguments("retryable-methods[0]= ", "retryable-methods", "",
						"each method must be a non-blank HTTP method name"),
				arguments("idempotency-key-header=Key:", "idempotency-key-header", "Key:",
						"must be empty or a valid HTTP header name"),
				arguments("budget.ratio=-1", "budget.ratio", "-1.0", "must be a finite number of at least 0"),
				arguments("budget.min-per-second=-5", "budget.min-per-second", "-5", "must not be negative"),
				arguments("budget.window=0ms", "budget.window", "PT0S", "must be positive"),
				arguments("budget.window=40000d", "budget.window", "PT960000H", "must be at most 36500 days"),
				arguments("attempt-reserve=40000d", "attempt-reserve", "PT960000H", "must be at most 36500 days"),
				arguments("cooldown.statuses=429,1000", "cooldown.statuses", "1000",
						"each status must be between 100 and 599"),
				arguments("cooldown.partition-headers[0]=(tenant)", "cooldown.partition-headers", "(tenant)",
						"each header must be a valid HTTP header name"),
				arguments("cooldown.partition-headers=Authorization,,X-Tenant", "cooldown.partition-headers", "",
						"each header must be a valid HTTP header name"),
				arguments("cooldown.scopes=/search//x", "cooldown.scopes", "/search//x", SCOPE_REASON));
	}

	static Stream<Arguments> topLevelOnlyClientValues() {
		return Stream.of(arguments("cooldown.max-duration=30s", "cooldown.max-duration", "PT30S"),
				arguments("cooldown.max-hosts=500", "cooldown.max-hosts", "500"),
				// The secret itself never reaches the message.
				arguments("cooldown.partition-secret=c2VjcmV0LXNoYXJlZC1ieS10aGUtZmxlZXQ=", "cooldown.partition-secret",
						"******"));
	}

	@ParameterizedTest(name = "clients.payments.{0}")
	@MethodSource("topLevelOnlyClientValues")
	void whenAClientSetsATopLevelOnlyValueShouldFailNamingPropertyAndTopLevelKey(String property, String key,
			String value) {
		this.contextRunner
			.withPropertyValues("retry-after.clients.payments.hosts=pay.example.com",
					"retry-after.clients.payments." + property)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessage("Property retry-after.clients.payments.%s with value '%s' is invalid: is read at the "
						+ "top level only; set retry-after.%s instead", key, value, key));
	}

	@ParameterizedTest(name = "clients.payments.{0}")
	@MethodSource("invalidClientValues")
	void whenClientValueIsInvalidShouldFailNamingClientProperty(String property, String key, String value,
			String reason) {
		this.contextRunner
			.withPropertyValues("retry-after.clients.payments.hosts=pay.example.com",
					"retry-after.clients.payments." + property)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessage("Property retry-after.clients.payments.%s with value '%s' is invalid: %s", key, value,
						reason));
	}

	@Test
	void whenClientListsNoHostsAndThereAreNoGroupsShouldFail() {
		this.contextRunner.withPropertyValues("retry-after.clients.payments.max-attempts=2")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessage("Property retry-after.clients.payments.hosts with value '[]' is invalid: "
						+ "a named client must list at least one host, or be named after an HTTP service group "
						+ "(there is none)"));
	}

	@Test
	void whenTwoClientsListTheSameHostShouldFail() {
		this.contextRunner
			.withPropertyValues("retry-after.clients.alpha.hosts=api.example.com",
					"retry-after.clients.beta.hosts=API.example.com")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("Property retry-after.clients.beta.hosts with value 'API.example.com' is invalid: "
						+ "host is also listed by client 'alpha'; a host may belong to one client only"));
	}

	@Test
	void whenHostHasSpacesShouldFail() {
		this.contextRunner.withPropertyValues("retry-after.clients.alpha.hosts[0]=api example.com")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("Property retry-after.clients.alpha.hosts with value 'api example.com' is invalid: "
						+ "must be a host name or a host and port, without spaces"));
	}

	@Test
	void whenAClientsReserveReachesTheBudgetItInheritsThenTheClientsReserveIsNamed() {
		this.contextRunner
			.withPropertyValues("retry-after.total-budget=2s", "retry-after.clients.payments.hosts=pay.example.com",
					"retry-after.clients.payments.attempt-reserve=2s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("Property retry-after.clients.payments.attempt-reserve with value 'PT2S' is invalid: "
						+ "must be less than total-budget (2s), which it is kept back from"));
	}

	@Test
	void whenAClientsBudgetIsBelowTheReserveItInheritsThenTheClientsBudgetIsNamed() {
		this.contextRunner
			.withPropertyValues("retry-after.attempt-reserve=1s", "retry-after.clients.payments.hosts=pay.example.com",
					"retry-after.clients.payments.total-budget=1s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("Property retry-after.clients.payments.total-budget with value 'PT1S' is invalid: "
						+ "must be greater than attempt-reserve (1s) to leave time for a retry"));
	}

	@Test
	void whenBothAreSetAndTheReserveReachesTheBudgetThenTheBudgetIsNamed() {
		this.contextRunner.withPropertyValues("retry-after.total-budget=1s", "retry-after.attempt-reserve=1500ms")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("Property retry-after.total-budget with value 'PT1S' is invalid: "
						+ "must be greater than attempt-reserve (1500ms) to leave time for a retry"));
	}

	@Test
	void whenTheReserveIsJustBelowTheBudgetThenItStarts() {
		this.contextRunner.withPropertyValues("retry-after.total-budget=501ms", "retry-after.max-attempts=10")
			.run((context) -> assertThat(context.getBean(ClientSettingsCatalog.class).defaults().settings().totalBudget())
				.isEqualTo(Duration.ofMillis(501)));
	}

	@Test
	void aDurationWithoutAUnitIsReadInSecondsAtTheTopLevelAndPerClient() {
		this.contextRunner
			.withPropertyValues("retry-after.total-budget=10", "retry-after.attempt-reserve=1",
					"retry-after.backoff.initial=2", "retry-after.backoff.max=4", "retry-after.header.max-wait=30",
					"retry-after.budget.window=20", "retry-after.cooldown.max-duration=45",
					"retry-after.clients.payments.hosts=pay.example.com", "retry-after.clients.payments.total-budget=3",
					"retry-after.clients.payments.attempt-reserve=2", "retry-after.clients.payments.backoff.initial=1",
					"retry-after.clients.payments.header.max-wait=5", "retry-after.clients.payments.budget.window=7")
			.run((context) -> {
				ClientSettingsCatalog clients = context.getBean(ClientSettingsCatalog.class);
				RetrySettings top = clients.defaults().settings();
				assertThat(top.totalBudget()).isEqualTo(Duration.ofSeconds(10));
				assertThat(top.attemptReserve()).isEqualTo(Duration.ofSeconds(1));
				assertThat(top.backoff().initial()).isEqualTo(Duration.ofSeconds(2));
				assertThat(top.backoff().max()).isEqualTo(Duration.ofSeconds(4));
				assertThat(top.header().maxWait()).isEqualTo(Duration.ofSeconds(30));
				assertThat(top.budget().window()).isEqualTo(Duration.ofSeconds(20));
				assertThat(context.getBean(RetryAfterProperties.class).getCooldown().getMaxDuration())
					.isEqualTo(Duration.ofSeconds(45));
				RetrySettings payments = clients.resolve("pay.example.com", 443).settings();
				assertThat(payments.totalBudget()).isEqualTo(Duration.ofSeconds(3));
				assertThat(payments.attemptReserve()).isEqualTo(Duration.ofSeconds(2));
				assertThat(payments.backoff().initial()).isEqualTo(Duration.ofSeconds(1));
				assertThat(payments.header().maxWait()).isEqualTo(Duration.ofSeconds(5));
				assertThat(payments.budget().window()).isEqualTo(Duration.ofSeconds(7));
			});
	}

	static Stream<Arguments> hostsThatCouldNeverMatch() {
		return Stream.of(
				arguments("https://api.example.com",
						"must be a host name or a host and port, without a scheme (api.example.com, not "
								+ "https://api.example.com)"),
				arguments("http://api.example.com:8080/v1",
						"must be a host name or a host and port, without a scheme (api.example.com, not "
								+ "https://api.example.com)"),
				arguments("*.example.org", "wildcards are not supported: list each host name (hosts are matched exactly)"),
				arguments("api.*.example.org",
						"wildcards are not supported: list each host name (hosts are matched exactly)"),
				arguments("api.example.com/v1", "must be a host name or a host and port, without a path, user or query"),
				arguments("user@api.example.com",
						"must be a host name or a host and port, without a path, user or query"));
	}

	@ParameterizedTest(name = "hosts={0}")
	@MethodSource("hostsThatCouldNeverMatch")
	void whenAHostIsNotAHostThenStartUpFailsSayingWhatToWrite(String host, String reason) {
		this.contextRunner.withPropertyValues("retry-after.clients.alpha.hosts[0]=" + host)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessage("Property retry-after.clients.alpha.hosts with value '%s' is invalid: %s", host, reason));
	}

	static Stream<Arguments> unknownEnumValues() {
		return Stream.of(arguments("retry-after.header.on-invalid", "sideways", OnInvalidRetryAfter.class),
				arguments("retry-after.header.date-reference", "sundial", DateReference.class),
				arguments("retry-after.cooldown.mode", "sometimes", CooldownMode.class),
				arguments("retry-after.store", "memcached", RetryAfterProperties.Store.class),
				arguments("retry-after.clients.payments.header.on-invalid", "shrug", OnInvalidRetryAfter.class),
				arguments("retry-after.clients.payments.cooldown.mode", "later", CooldownMode.class));
	}

	@ParameterizedTest(name = "{0}={1}")
	@MethodSource("unknownEnumValues")
	void whenEnumValueIsUnknownShouldFailBindingNamingPropertyAndValue(String name, String value, Class<?> type) {
		this.contextRunner.withPropertyValues("retry-after.clients.payments.hosts=pay.example.com", name + "=" + value)
			.run((context) -> {
				assertThat(context).hasFailed();
				BindException bindFailure = findCause(context.getStartupFailure(), BindException.class);
				assertThat(bindFailure)
					.hasMessage("Failed to bind properties under '%s' to %s", name, type.getName())
					.cause()
					.isInstanceOf(ConversionFailedException.class)
					.hasMessage("Failed to convert from type [java.lang.String] to type [%s] for value [%s]",
							type.getName(), value);
			});
	}

	@Test
	void whenRateLimitFieldsAreEmptyShouldFailSayingWhatIsAllowed() {
		this.contextRunner.withPropertyValues("retry-after.rate-limit.fields=")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessage("Property retry-after.rate-limit.fields with value '[]' is invalid: must name one or more"
						+ " of ietf, x-ratelimit, github, gitlab, openai, anthropic, discord (set rate-limit.enabled"
						+ " to false to read none)"));
	}

	@Test
	void whenAClientsRateLimitFieldsAreEmptyShouldFailNamingTheClientsProperty() {
		this.contextRunner
			.withPropertyValues("retry-after.clients.payments.hosts=pay.example.com",
					"retry-after.clients.payments.rate-limit.fields=")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageStartingWith("Property retry-after.clients.payments.rate-limit.fields with value '[]'"));
	}

	@Test
	void whenARateLimitFieldIsUnknownShouldFailBindingNamingPropertyAndValue() {
		this.contextRunner.withPropertyValues("retry-after.rate-limit.fields=ietf,draft-07")
			.run((context) -> {
				assertThat(context).hasFailed();
				BindException bindFailure = findCause(context.getStartupFailure(), BindException.class);
				assertThat(bindFailure.getProperty().getName().toString()).isEqualTo("retry-after.rate-limit.fields");
				assertThat(findCause(bindFailure, ConversionFailedException.class).getValue())
					.asString()
					.contains("draft-07");
			});
	}

	@Test
	void whenRateLimitIsSetPerClientThenEachClientGetsItsOwn() {
		this.contextRunner
			.withPropertyValues("retry-after.rate-limit.fields=x-ratelimit",
					"retry-after.clients.payments.hosts=pay.example.com",
					"retry-after.clients.payments.rate-limit.enabled=false",
					"retry-after.clients.search.hosts=search.example.com",
					"retry-after.clients.search.rate-limit.fields=ietf,x-ratelimit",
					"retry-after.clients.llm.hosts=api.openai.com",
					"retry-after.clients.llm.rate-limit.fields=openai,anthropic,github,gitlab,discord")
			.run((context) -> {
				ClientSettingsCatalog clients = context.getBean(ClientSettingsCatalog.class);
				assertThat(clients.defaults().settings().rateLimit())
					.isEqualTo(new RetrySettings.RateLimit(true, Set.of(RateLimitFields.X_RATELIMIT)));
				assertThat(clients.resolve("pay.example.com", 443).settings().rateLimit())
					.isEqualTo(new RetrySettings.RateLimit(false, Set.of(RateLimitFields.X_RATELIMIT)));
				assertThat(clients.resolve("search.example.com", 443).settings().rateLimit()).isEqualTo(
						new RetrySettings.RateLimit(true, Set.of(RateLimitFields.IETF, RateLimitFields.X_RATELIMIT)));
				assertThat(clients.resolve("api.openai.com", 443).settings().rateLimit().fields()).containsExactlyInAnyOrder(
						RateLimitFields.OPENAI, RateLimitFields.ANTHROPIC, RateLimitFields.GITHUB, RateLimitFields.GITLAB,
						RateLimitFields.DISCORD);
				assertThat(RetrySettings.RateLimit.DEFAULTS.fields()).containsExactlyInAnyOrder(RateLimitFields.values());
			});
	}

	private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			if (type.isInstance(candidate)) {
				return type.cast(candidate);
			}
		}
		throw new AssertionError("No " + type.getName() + " in the causes of " + failure);
	}

}
