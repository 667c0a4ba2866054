package dev.retryafter.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.retryafter.actuate.RetryAfterEndpoint.BudgetDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.ClientDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.CooldownDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.EndedDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.QuotaDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.RetryAfterDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.SettingsDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.StoreDescriptor;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.OnInvalidRetryAfter;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.header.DateReference;
import dev.retryafter.core.header.RateLimitFields;
import dev.retryafter.core.header.RateLimitReading;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.FakeClock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for {@link RetryAfterEndpoint}.
 */
class RetryAfterEndpointTests {

	private final FakeClock clock = new FakeClock();

	private final RecordingStore store = new RecordingStore();

	@Test
	void shouldDescribeDefaultSettingsReadably() {
		RetryAfterDescriptor descriptor = endpoint(ClientSettingsCatalog.of(RetrySettings.defaults())).retryAfter();
		assertThat(descriptor.clients()).containsOnlyKeys("default");
		ClientDescriptor client = descriptor.clients().get("default");
		assertThat(client.hosts()).isEmpty();
		assertThat(client.settings()).isEqualTo(new SettingsDescriptor(3, "10s", "500ms", List.of(429, 503, 529),
				List.of("DELETE", "GET", "HEAD", "OPTIONS", "PUT", "TRACE"), "Idempotency-Key",
				new SettingsDescriptor.Backoff("1s", 2.0, "8s"), 0.2,
				new SettingsDescriptor.Header("60s", "backoff", "server-date"),
				new SettingsDescriptor.IoErrors(true, true),
				new SettingsDescriptor.Cooldown(true, "wait", List.of(429), List.of()),
				new SettingsDescriptor.Budget(true, 0.2, 10, "10s")));
		assertThat(descriptor.cooldowns()).isEmpty();
		assertThat(descriptor.budgets()).containsExactly(Map.entry("default", new BudgetDescriptor(0, 0, 100)));
		assertThat(descriptor.store())
			.isEqualTo(new StoreDescriptor("local", true, this.store.state().since().toString(), 0));
	}

	@Test
	void shouldDescribeNamedClientsWithTheirHostsAfterDefault() {
		RetrySettings payments = RetrySettings.defaults()
			.withMaxAttempts(5)
			.withTotalBudget(Duration.ofMillis(2500))
			.withHeader(new RetrySettings.Header(Duration.ofSeconds(30), OnInvalidRetryAfter.ABANDON,
					DateReference.LOCAL_CLOCK))
			.withCooldown(new RetrySettings.Cooldown(false, CooldownMode.FAIL_FAST, Set.of(503, 429),
					List.of("X-Tenant", "Authorization")));
		ClientSettingsCatalog clients = new ClientSettingsCatalog(RetrySettings.defaults(),
				Map.of("payments", new ClientSettingsCatalog.NamedClient(Set.of("pay.example.com", "api.pay.example.com:8443"),
						payments)));
		RetryAfterDescriptor descriptor = endpoint(clients).retryAfter();
		assertThat(descriptor.clients()).containsOnlyKeys("default", "payments");
		assertThat(descriptor.clients().keySet()).first().isEqualTo("default");
		ClientDescriptor client = descriptor.clients().get("payments");
		assertThat(client.hosts()).containsExactly("api.pay.example.com:8443", "pay.example.com");
		assertThat(client.settings().maxAttempts()).isEqualTo(5);
		assertThat(client.settings().totalBudget()).isEqualTo("2500ms");
		assertThat(client.settings().header())
			.isEqualTo(new SettingsDescriptor.Header("30s", "abandon", "local-clock"));
		assertThat(client.settings().cooldown()).isEqualTo(new SettingsDescriptor.Cooldown(false, "fail-fast",
				List.of(429, 503), List.of("X-Tenant", "Authorization")));
	}

	@Test
	void shouldShowTheCooldownsAndBudgetsOfTheStoreAndBudgets() {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(RetrySettings.defaults());
		RetryBudgets budgets = new RetryBudgets(clients, this.clock);
		for (int i = 0; i < 40; i++) {
			budgets.recordRequest("default");
		}
		for (int i = 0; i < 3; i++) {
			assertThat(budgets.permits("default").tryAcquire()).isTrue();
		}
		record(CooldownKey.of(Origin.of("https", "api.example.com", -1)), Duration.ofMillis(1500));
		RetryAfterDescriptor descriptor = new RetryAfterEndpoint(clients,
				new OriginProtectionState(clients, this.store, budgets, this.clock))
			.retryAfter();
		assertThat(descriptor.cooldowns())
			.containsExactly(new CooldownDescriptor("default", "https://api.example.com:443", "1500ms"));
		assertThat(descriptor.budgets()).containsExactly(Map.entry("default", new BudgetDescriptor(40, 3, 105)));
	}

	@Test
	void shouldShowATimeLeftInMillisecondsRoundedUpNeverInNanoseconds() {
		record(CooldownKey.of(Origin.of("https", "api.example.com", -1)), Duration.ofNanos(1_705_296_074L));
		record(CooldownKey.of(Origin.of("https", "b.example", -1)), Duration.ofSeconds(4));
		assertThat(endpoint(ClientSettingsCatalog.of(RetrySettings.defaults())).retryAfter().cooldowns())
			.extracting(CooldownDescriptor::remaining)
			.containsExactly("1706ms", "4s");
	}

	@Test
	void shouldShowTheLastQuotaEachOriginAnnouncedWithoutItsPartitionKey() {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(RetrySettings.defaults());
		this.store.protection()
			.quotas()
			.record(CooldownKey.of(Origin.of("https", "api.example.com", -1)), new RateLimitReading("burst", 7,
					Duration.ofSeconds(30), 10, Duration.ofSeconds(60), RateLimitFields.IETF), this.clock.nanoTime());
		this.store.protection()
			.quotas()
			.record(new CooldownKey(Origin.of("http", "127.0.0.1", 8080), "0123abcd0123abcd0123abcd0123abcd"),
					new RateLimitReading("", 0, Duration.ofSeconds(2), 60, Duration.ofSeconds(2),
							RateLimitFields.X_RATELIMIT),
					this.clock.nanoTime());
		this.clock.advance(Duration.ofMillis(500));

		RetryAfterDescriptor descriptor = endpoint(clients).retryAfter();

		assertThat(descriptor.quotas()).containsExactly(
				new QuotaDescriptor("default", "http://127.0.0.1:8080", "0123abcd", "", "x-ratelimit", 0, "1500ms"),
				new QuotaDescriptor("default", "https://api.example.com:443", null, "burst", "ietf", 7, "29500ms"));
	}

	@Test
	void shouldShowTheDialectEachQuotaWasReadIn() {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(RetrySettings.defaults());
		this.store.protection()
			.quotas()
			.record(CooldownKey.of(Origin.of("https", "api.openai.com", -1)),
					new RateLimitReading("tokens", 0, Duration.ofSeconds(6), 0, Duration.ZERO, RateLimitFields.OPENAI),
					this.clock.nanoTime());
		this.store.protection()
			.quotas()
			.record(CooldownKey.of(Origin.of("https", "api.github.com", -1)), new RateLimitReading("core", 4999,
					Duration.ofHours(1), 5000, Duration.ofHours(1), RateLimitFields.GITHUB), this.clock.nanoTime());

		assertThat(endpoint(clients).retryAfter().quotas()).extracting(QuotaDescriptor::fields, QuotaDescriptor::policy)
			.containsExactly(tuple("github", "core"), tuple("openai", "tokens"));
	}

	@Test
	void shouldKeepTheBudgetsInConfigurationOrder() {
		Map<String, ClientSettingsCatalog.NamedClient> named = new LinkedHashMap<>();
		for (String client : List.of("payments", "search", "billing", "audit", "maps", "mail")) {
			named.put(client, new ClientSettingsCatalog.NamedClient(Set.of(client + ".example"), RetrySettings.defaults()));
		}
		RetryAfterDescriptor descriptor = endpoint(new ClientSettingsCatalog(RetrySettings.defaults(), named)).retryAfter();
		assertThat(descriptor.budgets().keySet()).containsExactly("default", "payments", "search", "billing", "audit",
				"maps", "mail");
	}

	@Test
	void deleteWithoutOriginShouldEndEveryCooldown() {
		record(CooldownKey.of(Origin.of("http", "127.0.0.1", 8080)), Duration.ofSeconds(1));
		record(new CooldownKey(Origin.of("https", "a.example", -1), "0123abcd0123abcd0123abcd0123abcd"),
				Duration.ofSeconds(2));
		EndedDescriptor ended = endpoint(ClientSettingsCatalog.of(RetrySettings.defaults())).end(null);
		assertThat(ended.ended()).containsExactly("http://127.0.0.1:8080", "https://a.example:443#0123abcd");
		assertThat(this.store.origins).containsExactly((Origin) null);
	}

	@Test
	void deleteWithOriginShouldEndThatOrigin() {
		record(CooldownKey.of(Origin.of("http", "127.0.0.1", 8080)), Duration.ofSeconds(1));
		record(CooldownKey.of(Origin.of("http", "127.0.0.1", 8081)), Duration.ofSeconds(1));
		EndedDescriptor ended = endpoint(ClientSettingsCatalog.of(RetrySettings.defaults())).end("http://127.0.0.1:8080");
		assertThat(ended.ended()).containsExactly("http://127.0.0.1:8080");
		assertThat(this.store.origins).containsExactly(Origin.of("http", "127.0.0.1", 8080));
	}

	@Test
	void deleteWithOriginWithoutPortShouldUseTheSchemesDefaultPort() {
		RetryAfterEndpoint endpoint = endpoint(ClientSettingsCatalog.of(RetrySettings.defaults()));
		assertThat(endpoint.end("https://API.example.com").ended()).isEmpty();
		assertThat(endpoint.end("http://[::1]").ended()).isEmpty();
		assertThat(this.store.origins).containsExactly(Origin.of("https", "api.example.com", 443),
				Origin.of("http", "[::1]", 80));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "api.example.com", "https://", "https://api.example.com:99999",
			"https://api.example.com:44x", "ftp://files.example.com", "https://api.example.com/path",
			"https://a b.example.com:443" })
	void deleteWithInvalidOriginShouldBeAnInvalidRequestNamingIt(String origin) {
		RetryAfterEndpoint endpoint = endpoint(ClientSettingsCatalog.of(RetrySettings.defaults()));
		assertThatExceptionOfType(InvalidEndpointRequestException.class).isThrownBy(() -> endpoint.end(origin))
			.withMessage("Invalid origin '" + origin
					+ "': expected scheme://host:port, e.g. https://api.example.com:443")
			.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo("Invalid origin"));
		assertThat(this.store.origins).isEmpty();
	}

	private RetryAfterEndpoint endpoint(ClientSettingsCatalog clients) {
		return new RetryAfterEndpoint(clients,
				new OriginProtectionState(clients, this.store, new RetryBudgets(clients, this.clock), this.clock));
	}

	private void record(CooldownKey key, Duration delay) {
		this.store.record(key, delay, this.clock.nanoTime());
	}

	/**
	 * A local store that remembers which origins it was asked to end.
	 */
	private static final class RecordingStore implements CooldownStore {

		private final LocalCooldownStore local = new LocalCooldownStore(new OriginProtection(10));

		private final List<@Nullable Origin> origins = new ArrayList<>();

		@Override
		public String name() {
			return this.local.name();
		}

		@Override
		public void record(CooldownKey key, Duration delay, long nowNanos) {
			this.local.record(key, delay, nowNanos);
		}

		@Override
		public OriginProtection protection() {
			return this.local.protection();
		}

		@Override
		public List<CooldownKey> end(@Nullable Origin origin) {
			this.origins.add(origin);
			return this.local.end(origin);
		}

	}

}
