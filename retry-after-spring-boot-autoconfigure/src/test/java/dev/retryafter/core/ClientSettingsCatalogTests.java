package dev.retryafter.core;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ClientSettingsCatalog}.
 */
class ClientSettingsCatalogTests {

	private static final RetrySettings DEFAULTS = RetrySettings.defaults();

	private static final RetrySettings PAYMENTS = DEFAULTS.withMaxAttempts(5);

	private static final RetrySettings PAYMENTS_ADMIN = DEFAULTS.withMaxAttempts(1);

	private static final RetrySettings SEARCH = DEFAULTS.withTotalBudget(Duration.ofSeconds(2));

	private static ClientSettingsCatalog clients(Map<String, ClientSettingsCatalog.NamedClient> named) {
		return new ClientSettingsCatalog(DEFAULTS, named);
	}

	private static ClientSettingsCatalog.NamedClient client(RetrySettings settings, String... hosts) {
		return new ClientSettingsCatalog.NamedClient(Set.of(hosts), settings);
	}

	@Test
	void whenNoNamedClientsThenEveryHostGetsTheDefaultsNamedDefault() {
		ClientSettings resolved = ClientSettingsCatalog.of(DEFAULTS).resolve("api.example.com", 443);
		assertThat(resolved).isEqualTo(new ClientSettings("default", DEFAULTS));
	}

	@Test
	void whenHostIsListedThenItsClientIsResolved() {
		ClientSettingsCatalog clients = clients(Map.of("payments", client(PAYMENTS, "pay.example.com")));
		assertThat(clients.resolve("pay.example.com", 443)).isEqualTo(new ClientSettings("payments", PAYMENTS));
	}

	@Test
	void aClientIsFoundByItsNameWithOrWithoutHostsButTheDefaultIsNot() {
		ClientSettingsCatalog clients = clients(Map.of("payments", client(PAYMENTS, "pay.example.com"), "reports",
				client(SEARCH)));
		assertThat(clients.named("payments")).isEqualTo(new ClientSettings("payments", PAYMENTS));
		assertThat(clients.named("reports")).isEqualTo(new ClientSettings("reports", SEARCH));
		assertThat(clients.hosts("reports")).isEmpty();
		assertThat(clients.named("default")).isNull();
		assertThat(clients.named("search")).isNull();
		// A client without hosts takes no host from the defaults.
		assertThat(clients.resolve("reports", 443).name()).isEqualTo("default");
	}

	@Test
	void whenHostIsNotListedThenTheDefaultsAreResolved() {
		ClientSettingsCatalog clients = clients(Map.of("payments", client(PAYMENTS, "pay.example.com")));
		assertThat(clients.resolve("search.example.com", 443)).isEqualTo(new ClientSettings("default", DEFAULTS));
	}

	@Test
	void whenHostAndPortIsListedThenItTakesPrecedenceOverTheHostAlone() {
		ClientSettingsCatalog clients = clients(Map.of("payments", client(PAYMENTS, "pay.example.com"), "payments-admin",
				client(PAYMENTS_ADMIN, "pay.example.com:8443")));
		assertThat(clients.resolve("pay.example.com", 8443))
			.isEqualTo(new ClientSettings("payments-admin", PAYMENTS_ADMIN));
		assertThat(clients.resolve("pay.example.com", 443)).isEqualTo(new ClientSettings("payments", PAYMENTS));
	}

	@Test
	void whenPortIsUnknownThenOnlyTheHostAloneMatches() {
		ClientSettingsCatalog clients = clients(Map.of("payments", client(PAYMENTS, "pay.example.com"), "payments-admin",
				client(PAYMENTS_ADMIN, "pay.example.com:8443")));
		assertThat(clients.resolve("pay.example.com", -1)).isEqualTo(new ClientSettings("payments", PAYMENTS));
	}

	@Test
	void whenOnlyHostAndPortIsListedThenOtherPortsGetTheDefaults() {
		ClientSettingsCatalog clients = clients(Map.of("payments-admin", client(PAYMENTS_ADMIN, "pay.example.com:8443")));
		assertThat(clients.resolve("pay.example.com", 443)).isEqualTo(new ClientSettings("default", DEFAULTS));
	}

	@Test
	void whenHostDiffersInCaseThenItStillMatches() {
		ClientSettingsCatalog clients = clients(Map.of("payments", client(PAYMENTS, "Pay.Example.COM"), "payments-admin",
				client(PAYMENTS_ADMIN, "PAY.example.com:8443")));
		assertThat(clients.resolve("pay.example.com", 443)).isEqualTo(new ClientSettings("payments", PAYMENTS));
		assertThat(clients.resolve("pAy.eXample.Com", 8443))
			.isEqualTo(new ClientSettings("payments-admin", PAYMENTS_ADMIN));
	}

	@Test
	void whenTwoClientsListTheSameHostThenIllegalArgumentNamingBoth() {
		Map<String, ClientSettingsCatalog.NamedClient> named = new LinkedHashMap<>();
		named.put("payments", client(PAYMENTS, "pay.example.com"));
		named.put("search", client(SEARCH, "search.example.com", "pay.example.com"));
		assertThatIllegalArgumentException().isThrownBy(() -> clients(named))
			.withMessage("Host 'pay.example.com' is listed by clients 'payments' and 'search'");
	}

	@Test
	void whenTwoClientsListTheSameHostInDifferentCaseThenIllegalArgument() {
		Map<String, ClientSettingsCatalog.NamedClient> named = new LinkedHashMap<>();
		named.put("payments", client(PAYMENTS, "pay.example.com"));
		named.put("search", client(SEARCH, "PAY.example.com"));
		assertThatIllegalArgumentException().isThrownBy(() -> clients(named))
			.withMessage("Host 'PAY.example.com' is listed by clients 'payments' and 'search'");
	}

	@Test
	void whenOneClientListsAHostTwiceInDifferentCaseThenItIsAccepted() {
		ClientSettingsCatalog clients = clients(Map.of("payments", client(PAYMENTS, "pay.example.com", "PAY.EXAMPLE.COM")));
		assertThat(clients.resolve("Pay.Example.Com", 443)).isEqualTo(new ClientSettings("payments", PAYMENTS));
	}

	@Test
	void whenSameHostWithDifferentPortsThenNotADuplicate() {
		ClientSettingsCatalog clients = clients(Map.of("payments", client(PAYMENTS, "pay.example.com:443"), "payments-admin",
				client(PAYMENTS_ADMIN, "pay.example.com:8443")));
		assertThat(clients.resolve("pay.example.com", 443)).isEqualTo(new ClientSettings("payments", PAYMENTS));
		assertThat(clients.resolve("pay.example.com", 8443))
			.isEqualTo(new ClientSettings("payments-admin", PAYMENTS_ADMIN));
	}

	@Test
	void whenAllThenTheDefaultComesFirstAndNamedClientsFollowInConfigurationOrder() {
		Map<String, ClientSettingsCatalog.NamedClient> named = new LinkedHashMap<>();
		named.put("search", client(SEARCH, "search.example.com"));
		named.put("payments", client(PAYMENTS, "pay.example.com"));
		assertThat(clients(named).all()).containsExactly(new ClientSettings("default", DEFAULTS),
				new ClientSettings("search", SEARCH), new ClientSettings("payments", PAYMENTS));
	}

	@Test
	void whenDefaultsThenNamedDefault() {
		assertThat(ClientSettingsCatalog.of(DEFAULTS).defaults()).isEqualTo(new ClientSettings("default", DEFAULTS));
		assertThat(ClientSettings.DEFAULT_NAME).isEqualTo("default");
	}

	@Test
	void whenOnlyHostsWithoutPortsAreListedThenARequestWithAPortResolvesByItsHost() {
		ClientSettingsCatalog clients = clients(Map.of("payments", client(PAYMENTS, "pay.example.com"), "local",
				client(SEARCH, "[::1]")));
		assertThat(clients.resolve("pay.example.com", 8443)).isEqualTo(new ClientSettings("payments", PAYMENTS));
		assertThat(clients.resolve("[::1]", 8080)).isEqualTo(new ClientSettings("local", SEARCH));
		assertThat(clients.resolve("search.example.com", 443)).isEqualTo(new ClientSettings("default", DEFAULTS));
	}

	@Test
	void whenAnUnbracketedAddressEndsLikeAPortThenItIsStillMatchedAsListed() {
		ClientSettingsCatalog clients = clients(Map.of("local", client(SEARCH, "::1")));
		assertThat(clients.resolve(":", 1)).isEqualTo(new ClientSettings("local", SEARCH));
		assertThat(clients.resolve("::1", 443)).isEqualTo(new ClientSettings("local", SEARCH));
	}

}
