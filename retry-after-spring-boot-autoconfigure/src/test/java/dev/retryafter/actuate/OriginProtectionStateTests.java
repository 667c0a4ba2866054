package dev.retryafter.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

import dev.retryafter.actuate.RetryAfterEndpoint.BudgetDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.CooldownDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.ProtectionDescriptor;
import dev.retryafter.actuate.RetryAfterEndpoint.StoreDescriptor;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.store.StoreState;
import dev.retryafter.testsupport.FakeClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class OriginProtectionStateTests {

	private final FakeClock clock = new FakeClock();

	private final ClientSettingsCatalog clients = new ClientSettingsCatalog(RetrySettings.defaults(),
			Map.of("billing", new ClientSettingsCatalog.NamedClient(Set.of("billing.example"), RetrySettings.defaults())));

	private final CooldownStore store = new LocalCooldownStore(new OriginProtection(10));

	private final RetryBudgets budgets = new RetryBudgets(this.clients, this.clock);

	private final OriginProtectionState state = new OriginProtectionState(this.clients, this.store, this.budgets,
			this.clock);

	@Test
	void whenOriginsAreCoolingDownThenListedSoonestToEndFirstWithTheirClient() {
		record(CooldownKey.of(Origin.of("https", "billing.example", -1)), Duration.ofSeconds(50));
		record(CooldownKey.of(Origin.of("http", "127.0.0.1", 8080)), Duration.ofMillis(1500));
		record(CooldownKey.of(Origin.of("http", "gone.example", -1)), Duration.ofSeconds(1));
		this.clock.advance(Duration.ofSeconds(1));

		assertThat(this.state.cooldowns()).containsExactly(
				new CooldownDescriptor("default", "http://127.0.0.1:8080", "500ms"),
				new CooldownDescriptor("billing", "https://billing.example:443", "49s"));
	}

	@Test
	void whenAskedForTheStoreThenItsStateIsShown() {
		CooldownStore redis = new CooldownStore() {

			private final OriginProtection cooldowns = new OriginProtection(10);

			@Override
			public String name() {
				return "redis";
			}

			@Override
			public void record(CooldownKey key, Duration delay, long nowNanos) {
			}

			@Override
			public OriginProtection protection() {
				return this.cooldowns;
			}

			@Override
			public StoreState state() {
				return new StoreState("redis", false, Instant.parse("2026-09-08T12:00:00Z"), 2);
			}

		};
		assertThat(new OriginProtectionState(this.clients, redis, this.budgets, this.clock).store())
			.isEqualTo(new StoreDescriptor("redis", false, "2026-09-08T12:00:00Z", 2));
		assertThat(this.state.store().type()).isEqualTo("local");
		assertThat(this.state.store().connected()).isTrue();
		assertThat(this.state.store().errors()).isZero();
	}

	@Test
	void whenAPartitionIsCoolingDownThenItsDigestPrefixIsShownNeverTheDigest() {
		String digest = "0123456789abcdef0123456789abcdef";
		record(new CooldownKey(Origin.of("http", "127.0.0.1", 8080), digest), Duration.ofSeconds(2));
		record(CooldownKey.of(Origin.of("http", "127.0.0.1", 8080)), Duration.ofSeconds(3));

		assertThat(this.state.cooldowns()).containsExactly(
				new CooldownDescriptor("default", "http://127.0.0.1:8080", "2s", "01234567"),
				new CooldownDescriptor("default", "http://127.0.0.1:8080", "3s", null));
	}

	@Test
	void whenARouteOrABucketIsCoolingDownThenItsScopeIsShownAndEndingTheOriginListsIt() {
		Origin local = Origin.of("http", "127.0.0.1", 8080);
		record(CooldownKey.of(local).withScope(CooldownScope.route("/search/issues")), Duration.ofSeconds(2));
		record(new CooldownKey(local, "0123456789abcdef0123456789abcdef", CooldownScope.bucket("core")),
				Duration.ofSeconds(3));

		assertThat(this.state.cooldowns()).containsExactly(
				new CooldownDescriptor("default", "http://127.0.0.1:8080", "2s", null, "route:/search"),
				new CooldownDescriptor("default", "http://127.0.0.1:8080", "3s", "01234567", "bucket:core"));
		assertThat(this.state.protection()).extracting(ProtectionDescriptor::scope)
			.containsExactlyInAnyOrder("route:/search", "bucket:core");
		assertThat(this.state.end(local)).containsExactly("http://127.0.0.1:8080#01234567@bucket:core",
				"http://127.0.0.1:8080@route:/search");
	}

	@Test
	void whenAClientListsAHostWithTheDefaultPortThenAnOriginWithoutPortIsLabelledWithIt() {
		ClientSettingsCatalog clients = new ClientSettingsCatalog(RetrySettings.defaults(),
				Map.of("x", new ClientSettingsCatalog.NamedClient(Set.of("api.example.com:443"), RetrySettings.defaults())));
		OriginProtectionState state = new OriginProtectionState(clients, this.store, this.budgets, this.clock);
		record(CooldownKey.of(Origin.of("https", "api.example.com", -1)), Duration.ofSeconds(5));

		assertThat(state.cooldowns())
			.containsExactly(new CooldownDescriptor("x", "https://api.example.com:443", "5s", null));
	}

	@Test
	void whenAnOriginIsEndedThenEveryPartitionOfItEndsAndOthersKeepCooling() {
		Origin local = Origin.of("http", "127.0.0.1", 8080);
		record(new CooldownKey(local, "fedcba9876543210fedcba9876543210"), Duration.ofSeconds(2));
		record(CooldownKey.of(local), Duration.ofSeconds(3));
		record(CooldownKey.of(Origin.of("https", "billing.example", -1)), Duration.ofSeconds(4));

		assertThat(this.state.end(local)).containsExactly("http://127.0.0.1:8080", "http://127.0.0.1:8080#fedcba98");
		assertThat(this.state.cooldowns())
			.containsExactly(new CooldownDescriptor("billing", "https://billing.example:443", "4s"));
		assertThat(this.state.end(local)).isEmpty();
	}

	@Test
	void whenEverythingIsEndedThenOnlyRunningCooldownsAreReported() {
		record(CooldownKey.of(Origin.of("http", "127.0.0.1", 8080)), Duration.ofSeconds(1));
		record(CooldownKey.of(Origin.of("https", "billing.example", -1)), Duration.ofSeconds(4));
		this.clock.advance(Duration.ofSeconds(2));

		assertThat(this.state.end(null)).containsExactly("https://billing.example:443");
		assertThat(this.state.cooldowns()).isEmpty();
		assertThat(this.store.protection().size()).isEqualTo(0);
	}

	@Test
	void whenRequestsAndRetriesAreMadeThenEachBudgetIsShown() {
		this.budgets.recordRequest("billing");
		this.budgets.permits("billing").tryAcquire();

		assertThat(this.state.budgets()).containsExactly(entry("default", new BudgetDescriptor(0, 0, 100)),
				entry("billing", new BudgetDescriptor(1, 1, 99)));
	}

	private void record(CooldownKey origin, Duration delay) {
		this.store.record(origin, delay, this.clock.nanoTime());
	}

}
