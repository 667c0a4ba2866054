package dev.retryafter.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.retryafter.actuate.RetryAfterEndpoint.ClientDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.EndedDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.RetryAfterDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.SettingsDescriptor;
import dev.retryafter.actuate.RetryAfterRuntimeState.BudgetDescriptor;
import dev.retryafter.actuate.RetryAfterRuntimeState.CooldownDescriptor;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.DateReference;
import dev.retryafter.core.OnInvalidRetryAfter;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetrySettings;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RetryAfterEndpoint}.
 */
class RetryAfterEndpointTests {

	@Test
	void shouldDescribeDefaultSettingsReadably() {
		RetryAfterDescriptor descriptor = new RetryAfterEndpoint(RetryClients.of(RetrySettings.defaults()),
				RetryAfterRuntimeState.NONE)
			.retryAfter();
		assertThat(descriptor.clients()).containsOnlyKeys("default");
		ClientDescriptor client = descriptor.clients().get("default");
		assertThat(client.hosts()).isEmpty();
		assertThat(client.settings()).isEqualTo(new SettingsDescriptor(3, "10s", "500ms", List.of(429, 503),
				List.of("DELETE", "GET", "HEAD", "OPTIONS", "PUT", "TRACE"), "Idempotency-Key",
				new SettingsDescriptor.Backoff("1s", 2.0, "8s"), 0.2,
				new SettingsDescriptor.Header("1m", "backoff", "server-date"),
				new SettingsDescriptor.IoErrors(true, true),
				new SettingsDescriptor.Cooldown(true, "wait", List.of(429), List.of()),
				new SettingsDescriptor.Budget(true, 0.2, 10, "10s")));
		assertThat(descriptor.cooldowns()).isEmpty();
		assertThat(descriptor.budgets()).isEmpty();
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
		RetryClients clients = new RetryClients(RetrySettings.defaults(),
				Map.of("payments", new RetryClients.NamedClient(Set.of("pay.example.com", "api.pay.example.com:8443"),
						payments)));
		RetryAfterDescriptor descriptor = new RetryAfterEndpoint(clients, RetryAfterRuntimeState.NONE).retryAfter();
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
	void shouldShowRuntimeStateFromProvider() {
		RetryAfterRuntimeState state = new RetryAfterRuntimeState() {

			@Override
			public List<CooldownDescriptor> cooldowns() {
				return List.of(new CooldownDescriptor("default", "https://api.example.com:443", "1500ms"));
			}

			@Override
			public Map<String, BudgetDescriptor> budgets() {
				return Map.of("default", new BudgetDescriptor(40, 3, 105));
			}

		};
		RetryAfterDescriptor descriptor = new RetryAfterEndpoint(RetryClients.of(RetrySettings.defaults()), state)
			.retryAfter();
		assertThat(descriptor.cooldowns())
			.containsExactly(new CooldownDescriptor("default", "https://api.example.com:443", "1500ms"));
		assertThat(descriptor.budgets()).containsExactly(Map.entry("default", new BudgetDescriptor(40, 3, 105)));
	}

	@Test
	void shouldKeepTheBudgetsInTheOrderTheStateGivesThem() {
		Map<String, BudgetDescriptor> budgets = new LinkedHashMap<>();
		for (String client : List.of("default", "payments", "search", "billing", "audit", "maps", "mail")) {
			budgets.put(client, new BudgetDescriptor(0, 0, 100));
		}
		RetryAfterRuntimeState state = new RetryAfterRuntimeState() {

			@Override
			public Map<String, BudgetDescriptor> budgets() {
				return budgets;
			}

		};
		RetryAfterDescriptor descriptor = new RetryAfterEndpoint(RetryClients.of(RetrySettings.defaults()), state)
			.retryAfter();
		assertThat(descriptor.budgets().keySet()).containsExactly("default", "payments", "search", "billing", "audit",
				"maps", "mail");
	}

	@Test
	void deleteWithoutOriginShouldEndEveryCooldown() {
		RecordingEndState state = new RecordingEndState(
				List.of("http://127.0.0.1:8080", "https://a.example:443#0123abcd"));
		EndedDescriptor ended = new RetryAfterEndpoint(RetryClients.of(RetrySettings.defaults()), state).end(null);
		assertThat(ended.ended()).containsExactly("http://127.0.0.1:8080", "https://a.example:443#0123abcd");
		assertThat(state.origins).containsExactly((Origin) null);
	}

	@Test
	void deleteWithOriginShouldEndThatOrigin() {
		RecordingEndState state = new RecordingEndState(List.of("http://127.0.0.1:8080"));
		EndedDescriptor ended = new RetryAfterEndpoint(RetryClients.of(RetrySettings.defaults()), state)
			.end("http://127.0.0.1:8080");
		assertThat(ended.ended()).containsExactly("http://127.0.0.1:8080");
		assertThat(state.origins).containsExactly(Origin.of("http", "127.0.0.1", 8080));
	}

	@Test
	void deleteWithOriginWithoutPortShouldUseTheSchemesDefaultPort() {
		RecordingEndState state = new RecordingEndState(List.of());
		RetryAfterEndpoint endpoint = new RetryAfterEndpoint(RetryClients.of(RetrySettings.defaults()), state);
		assertThat(endpoint.end("https://API.example.com").ended()).isEmpty();
		assertThat(endpoint.end("http://[::1]").ended()).isEmpty();
		assertThat(state.origins).containsExactly(Origin.of("https", "api.example.com", 443),
				Origin.of("http", "[::1]", 80));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "api.example.com", "https://", "https://api.example.com:99999",
			"https://api.example.com:44x", "ftp://files.example.com", "https://api.example.com/path",
			"https://a b.example.com:443" })
	void deleteWithInvalidOriginShouldBeAnInvalidRequestNamingIt(String origin) {
		RecordingEndState state = new RecordingEndState(List.of());
		RetryAfterEndpoint endpoint = new RetryAfterEndpoint(RetryClients.of(RetrySettings.defaults()), state);
		assertThatExceptionOfType(InvalidEndpointRequestException.class).isThrownBy(() -> endpoint.end(origin))
			.withMessage("Invalid origin '" + origin
					+ "': expected scheme://host:port, e.g. https://api.example.com:443")
			.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo("Invalid origin"));
		assertThat(state.origins).isEmpty();
	}

	private static final class RecordingEndState implements RetryAfterRuntimeState {

		private final List<String> answer;

		private final List<@Nullable Origin> origins = new ArrayList<>();

		RecordingEndState(List<String> answer) {
			this.answer = answer;
		}

		@Override
		public List<String> end(@Nullable Origin origin) {
			this.origins.add(origin);
			return this.answer;
		}

	}

}
