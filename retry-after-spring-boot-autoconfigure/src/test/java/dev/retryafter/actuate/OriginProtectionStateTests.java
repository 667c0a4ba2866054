package dev.retryafter.actuate;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import dev.retryafter.actuate.RetryAfterRuntimeState.BudgetDescriptor;
import dev.retryafter.actuate.RetryAfterRuntimeState.CooldownDescriptor;
import dev.retryafter.core.HostCooldowns;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryClients;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.FakeClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class OriginProtectionStateTests {

	private final FakeClock clock = new FakeClock();

	private final RetryClients clients = new RetryClients(RetrySettings.defaults(),
			Map.of("billing", new RetryClients.NamedClient(Set.of("billing.example"), RetrySettings.defaults())));

	private final CooldownStore store = new LocalCooldownStore(new HostCooldowns(10));

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
	void whenRequestsAndRetriesAreMadeThenEachBudgetIsShown() {
		this.budgets.recordRequest("billing");
		this.budgets.permits("billing").tryAcquire();

		assertThat(this.state.budgets()).containsExactly(entry("default", new BudgetDescriptor(0, 0, 100)),
				entry("billing", new BudgetDescriptor(1, 1, 99)));
	}

	private void record(CooldownKey origin, Duration delay) {
		this.store.record(origin, delay, this.clock.nanoTime(), this.clock.instant());
	}

}
