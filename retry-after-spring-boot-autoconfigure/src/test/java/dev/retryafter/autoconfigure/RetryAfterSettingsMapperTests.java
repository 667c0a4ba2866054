package dev.retryafter.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.retryafter.autoconfigure.client.RetryAfterRestClientAutoConfiguration;
import dev.retryafter.core.ClientSettings;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.OnInvalidRetryAfter;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.header.DateReference;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RetryAfterSettingsMapper}: bound properties become the settings the core
 * runs on, named clients inheriting what they do not override.
 */
class RetryAfterSettingsMapperTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RetryAfterAutoConfiguration.class,
				RetryAfterRestClientAutoConfiguration.class));

	@Test
	void propertyDefaultsShouldBeTheCoreDefaults() {
		// The properties carry no defaults: unset, every value is the core's own.
		assertThat(new RetryAfterSettingsMapper(new RetryAfterProperties()).map().defaults())
			.isEqualTo(new ClientSettings("default", RetrySettings.defaults()));
	}

	@Test
	void cooldownStoreDefaultsShouldBeTheCoreDefaults() throws IOException {
		// The metadata's literals are what an IDE shows; the core's constants are what an
		// unset property (and an interceptor built without Spring) sizes its cooldowns with.
		String resource = "META-INF/additional-spring-configuration-metadata.json";
		try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
			DocumentContext metadata = JsonPath.parse(in);
			assertThat(metadata.read("$.properties[?(@.name == 'retry-after.cooldown.max-hosts')].defaultValue",
					List.class))
				.containsExactly(OriginProtection.DEFAULT_MAX_HOSTS);
			List<String> maxDuration = metadata
				.read("$.properties[?(@.name == 'retry-after.cooldown.max-duration')].defaultValue", List.class);
			assertThat(maxDuration).hasSize(1);
			assertThat(DurationStyle.detectAndParse(maxDuration.get(0))).isEqualTo(OriginProtection.DEFAULT_MAX_DURATION);
		}
	}

	@Test
	void namedClientShouldStartWithEverySettingUnset() {
		RetryAfterProperties.Client client = new RetryAfterProperties.Client();
		assertThat(client.getMaxAttempts()).isNull();
		assertThat(client.getBackoff().getMultiplier()).isNull();
		assertThat(client.getHeader().getOnInvalid()).isNull();
		assertThat(client.getIoErrors().getRead()).isNull();
		assertThat(client.getCooldown().getPartitionHeaders()).isNull();
		assertThat(client.getBudget().getWindow()).isNull();
		assertThat(client.getHosts()).isEmpty();
	}

	@Test
	void shouldMapEveryTopLevelProperty() {
		this.contextRunner
			.withPropertyValues("retry-after.max-attempts=5", "retry-after.total-budget=30s",
					"retry-after.attempt-reserve=250ms", "retry-after.retryable-statuses=429,502,503",
					"retry-after.retryable-methods=get,post", "retry-after.idempotency-key-header=X-Request-Key",
					"retry-after.backoff.initial=200ms", "retry-after.backoff.multiplier=3",
					"retry-after.backoff.max=5s", "retry-after.jitter=0.5", "retry-after.header.max-wait=2m",
					"retry-after.header.on-invalid=abandon", "retry-after.header.date-reference=local-clock",
					"retry-after.io-errors.connect=false", "retry-after.io-errors.read=false",
					"retry-after.cooldown.enabled=false", "retry-after.cooldown.mode=fail-fast",
					"retry-after.cooldown.statuses=429,503",
					"retry-after.cooldown.partition-headers=Authorization,X-Tenant",
					"retry-after.budget.enabled=false", "retry-after.budget.ratio=0.5",
					"retry-after.budget.min-per-second=2", "retry-after.budget.window=1m")
			.run((context) -> assertThat(context.getBean(ClientSettingsCatalog.class).defaults().settings())
				.isEqualTo(RetrySettings.defaults()
					.withMaxAttempts(5)
					.withTotalBudget(Duration.ofSeconds(30))
					.withAttemptReserve(Duration.ofMillis(250))
					.withRetryableStatuses(Set.of(429, 502, 503))
					.withRetryableMethods(Set.of("GET", "POST"))
					.withIdempotencyKeyHeader("X-Request-Key")
					.withBackoff(new RetrySettings.Backoff(Duration.ofMillis(200), 3.0, Duration.ofSeconds(5)))
					.withJitter(0.5)
					.withHeader(new RetrySettings.Header(Duration.ofMinutes(2), OnInvalidRetryAfter.ABANDON,
							DateReference.LOCAL_CLOCK))
					.withIoErrors(new RetrySettings.IoErrors(false, false))
					.withCooldown(new RetrySettings.Cooldown(false, CooldownMode.FAIL_FAST, Set.of(429, 503),
							List.of("Authorization", "X-Tenant")))
					.withBudget(new RetrySettings.Budget(false, 0.5, 2, Duration.ofMinutes(1)))));
	}

	@Test
	void whenIdempotencyKeyHeaderIsEmptyShouldDisableIt() {
		this.contextRunner.withPropertyValues("retry-after.idempotency-key-header=")
			.run((context) -> assertThat(
					context.getBean(ClientSettingsCatalog.class).defaults().settings().idempotencyKeyHeader())
				.isEmpty());
	}

	@Test
	void whenRetryableStatusesAreEmptyShouldRetryNoStatus() {
		this.contextRunner.withPropertyValues("retry-after.retryable-statuses=")
			.run((context) -> assertThat(context.getBean(ClientSettingsCatalog.class).defaults().settings().retryableStatuses())
				.isEmpty());
	}

	@Test
	void namedClientShouldOverrideOnlyWhatItSets() {
		this.contextRunner
			.withPropertyValues("retry-after.max-attempts=4", "retry-after.clients.payments.hosts=pay.example.com",
					"retry-after.clients.payments.backoff.initial=2s")
			.run((context) -> {
				RetrySettings defaults = RetrySettings.defaults().withMaxAttempts(4);
				assertThat(context.getBean(ClientSettingsCatalog.class).resolve("pay.example.com", 443))
					.isEqualTo(new ClientSettings("payments", defaults.withBackoff(
							new RetrySettings.Backoff(Duration.ofSeconds(2), 2.0, Duration.ofSeconds(8)))));
			});
	}

	@Test
	void namedClientShouldInheritOrOverrideTheHintVerdictAndForbiddenRules() {
		this.contextRunner
			.withPropertyValues("retry-after.header.server-verdicts=false",
					"retry-after.clients.payments.hosts=pay.example.com",
					"retry-after.clients.payments.header.millisecond-hints=false",
					"retry-after.clients.payments.header.rate-limited-forbidden=false")
			.run((context) -> {
				ClientSettingsCatalog clients = context.getBean(ClientSettingsCatalog.class);
				RetrySettings.Header top = clients.resolve("other.example.com", 443).settings().header();
				RetrySettings.Header payments = clients.resolve("pay.example.com", 443).settings().header();
				assertThat(top.millisecondHints()).isTrue();
				assertThat(top.serverVerdicts()).isFalse();
				assertThat(top.rateLimitedForbidden()).isTrue();
				assertThat(payments.millisecondHints()).isFalse();
				assertThat(payments.serverVerdicts()).isFalse();
				assertThat(payments.rateLimitedForbidden()).isFalse();
			});
	}

	@Test
	void namedClientShouldOverrideEveryPerRequestSetting() {
		this.contextRunner.withPropertyValues("retry-after.clients.payments.hosts=pay.example.com",
				"retry-after.clients.payments.max-attempts=2", "retry-after.clients.payments.total-budget=3s",
				"retry-after.clients.payments.attempt-reserve=100ms",
				"retry-after.clients.payments.retryable-statuses=503",
				"retry-after.clients.payments.retryable-methods=GET",
				"retry-after.clients.payments.idempotency-key-header=",
				"retry-after.clients.payments.backoff.initial=50ms",
				"retry-after.clients.payments.backoff.multiplier=1.5",
				"retry-after.clients.payments.backoff.max=400ms", "retry-after.clients.payments.jitter=0",
				"retry-after.clients.payments.header.max-wait=5s",
				"retry-after.clients.payments.header.on-invalid=abandon",
				"retry-after.clients.payments.header.date-reference=local-clock",
				"retry-after.clients.payments.io-errors.connect=false",
				"retry-after.clients.payments.io-errors.read=false",
				"retry-after.clients.payments.cooldown.enabled=false",
				"retry-after.clients.payments.cooldown.mode=fail-fast",
				"retry-after.clients.payments.cooldown.statuses=503",
				"retry-after.clients.payments.cooldown.partition-headers=X-Tenant",
				"retry-after.clients.payments.budget.enabled=false", "retry-after.clients.payments.budget.ratio=1",
				"retry-after.clients.payments.budget.min-per-second=0",
				"retry-after.clients.payments.budget.window=30s")
			.run((context) -> {
				ClientSettingsCatalog clients = context.getBean(ClientSettingsCatalog.class);
				assertThat(clients.defaults().settings()).isEqualTo(RetrySettings.defaults());
				assertThat(clients.resolve("pay.example.com", 443).settings())
					.isEqualTo(RetrySettings.defaults()
						.withMaxAttempts(2)
						.withTotalBudget(Duration.ofSeconds(3))
						.withAttemptReserve(Duration.ofMillis(100))
						.withRetryableStatuses(Set.of(503))
						.withRetryableMethods(Set.of("GET"))
						.withIdempotencyKeyHeader("")
						.withBackoff(new RetrySettings.Backoff(Duration.ofMillis(50), 1.5, Duration.ofMillis(400)))
						.withJitter(0.0)
						.withHeader(new RetrySettings.Header(Duration.ofSeconds(5), OnInvalidRetryAfter.ABANDON,
								DateReference.LOCAL_CLOCK))
						.withIoErrors(new RetrySettings.IoErrors(false, false))
						.withCooldown(new RetrySettings.Cooldown(false, CooldownMode.FAIL_FAST, Set.of(503),
								List.of("X-Tenant")))
						.withBudget(new RetrySettings.Budget(false, 1.0, 0, Duration.ofSeconds(30))));
			});
	}

	@Test
	void cooldownShouldDefaultTo429OnTheWholeOrigin() {
		this.contextRunner
			.run((context) -> assertThat(context.getBean(ClientSettingsCatalog.class).defaults().settings().cooldown())
				.isEqualTo(new RetrySettings.Cooldown(true, CooldownMode.WAIT, Set.of(429), List.of())));
	}

	@Test
	void namedClientShouldInheritOrOverrideCooldownStatusesAndPartitionHeaders() {
		this.contextRunner
			.withPropertyValues("retry-after.cooldown.statuses=429,503",
					"retry-after.cooldown.partition-headers=Authorization",
					"retry-after.clients.inherits.hosts=a.example.com",
					"retry-after.clients.overrides.hosts=b.example.com",
					"retry-after.clients.overrides.cooldown.statuses=",
					"retry-after.clients.overrides.cooldown.partition-headers=X-Tenant,X-User")
			.run((context) -> {
				ClientSettingsCatalog clients = context.getBean(ClientSettingsCatalog.class);
				assertThat(clients.resolve("a.example.com", 443).settings().cooldown())
					.isEqualTo(new RetrySettings.Cooldown(true, CooldownMode.WAIT, Set.of(429, 503),
							List.of("Authorization")));
				assertThat(clients.resolve("b.example.com", 443).settings().cooldown())
					.isEqualTo(new RetrySettings.Cooldown(true, CooldownMode.WAIT, Set.of(),
							List.of("X-Tenant", "X-User")));
			});
	}

	@Test
	void namedClientShouldInheritOrOverrideCooldownScopes() {
		this.contextRunner
			.withPropertyValues("retry-after.cooldown.scopes=/api/search,/api/v1",
					"retry-after.clients.inherits.hosts=a.example.com",
					"retry-after.clients.overrides.hosts=b.example.com",
					"retry-after.clients.overrides.cooldown.scopes=/")
			.run((context) -> {
				ClientSettingsCatalog clients = context.getBean(ClientSettingsCatalog.class);
				assertThat(clients.defaults().settings().cooldown().scopes()).containsExactly("/api/search", "/api/v1");
				assertThat(clients.resolve("a.example.com", 443).settings().cooldown().scopes())
					.containsExactly("/api/search", "/api/v1");
				assertThat(clients.resolve("b.example.com", 443).settings().cooldown().scopes()).containsExactly("/");
			});
	}

	@Test
	void namedClientShouldInheritChangedTopLevelValues() {
		this.contextRunner
			.withPropertyValues("retry-after.jitter=0.1", "retry-after.header.max-wait=90s",
					"retry-after.budget.ratio=0.3", "retry-after.clients.search.hosts=search.example.com",
					"retry-after.clients.search.budget.window=20s")
			.run((context) -> {
				RetrySettings settings = context.getBean(ClientSettingsCatalog.class).resolve("search.example.com", 80).settings();
				assertThat(settings).isEqualTo(RetrySettings.defaults()
					.withJitter(0.1)
					.withHeader(new RetrySettings.Header(Duration.ofSeconds(90), OnInvalidRetryAfter.BACKOFF,
							DateReference.SERVER_DATE))
					.withBudget(new RetrySettings.Budget(true, 0.3, 10, Duration.ofSeconds(20))));
			});
	}

	@Test
	void hostsWithoutNamedClientShouldResolveToDefault() {
		this.contextRunner
			.withPropertyValues("retry-after.max-attempts=6", "retry-after.clients.payments.hosts=pay.example.com",
					"retry-after.clients.payments.max-attempts=2")
			.run((context) -> assertThat(context.getBean(ClientSettingsCatalog.class).resolve("other.example.com", 443))
				.isEqualTo(new ClientSettings("default", RetrySettings.defaults().withMaxAttempts(6))));
	}

	@Test
	void hostAndPortEntryShouldSelectClientForThatPortOnly() {
		this.contextRunner
			.withPropertyValues("retry-after.clients.admin.hosts=api.example.com:8443",
					"retry-after.clients.admin.max-attempts=1")
			.run((context) -> {
				ClientSettingsCatalog clients = context.getBean(ClientSettingsCatalog.class);
				assertThat(clients.resolve("api.example.com", 8443).name()).isEqualTo("admin");
				assertThat(clients.resolve("api.example.com", 443).name()).isEqualTo("default");
			});
	}

	@Test
	void hostListedTwiceByOneClientInDifferentCaseShouldBeAccepted() {
		this.contextRunner.withPropertyValues("retry-after.clients.payments.hosts=pay.example.com,PAY.example.com")
			.run((context) -> assertThat(context.getBean(ClientSettingsCatalog.class).resolve("Pay.Example.com", 443).name())
				.isEqualTo("payments"));
	}

	@Test
	void namedClientsShouldKeepConfigurationOrder() {
		this.contextRunner
			.withPropertyValues("retry-after.clients.zeta.hosts=z.example.com",
					"retry-after.clients.alpha.hosts=a.example.com")
			.run((context) -> assertThat(context.getBean(ClientSettingsCatalog.class).all()).extracting(ClientSettings::name)
				.containsExactly("default", "zeta", "alpha"));
	}

}
