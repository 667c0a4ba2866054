package dev.retryafter.core;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import dev.retryafter.testsupport.FakeClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RetryBudgetsTests {

	private final FakeClock clock = new FakeClock();

	private final RetrySettings defaults = RetrySettings.defaults();

	private final RetryBudgets budgets = new RetryBudgets(new ClientSettingsCatalog(this.defaults,
			Map.of("billing", client("billing.example", new RetrySettings.Budget(true, 0.5, 0, Duration.ofSeconds(10))),
					"unguarded",
					client("free.example", new RetrySettings.Budget(false, 0.2, 10, Duration.ofSeconds(10))))),
			this.clock);

	private static ClientSettingsCatalog.NamedClient client(String host, RetrySettings.Budget budget) {
		return new ClientSettingsCatalog.NamedClient(Set.of(host), RetrySettings.defaults().withBudget(budget));
	}

	@Test
	void whenClientsHaveBudgetsThenEachHasItsOwn() {
		this.budgets.recordRequest("billing");
		this.budgets.recordRequest("billing");
		assertThat(this.budgets.permits("billing").tryAcquire()).isTrue();
		assertThat(this.budgets.permits("billing").tryAcquire()).isFalse();
		assertThat(this.budgets.snapshots()).containsExactly(
				Map.entry("default", new RetryBudget.Snapshot(0, 0, 100, Duration.ofSeconds(10))),
				Map.entry("billing", new RetryBudget.Snapshot(2, 1, 0, Duration.ofSeconds(10))));
	}

	@Test
	void whenABudgetIsLookedUpThenItIsTheOneBehindTheClientsPermitsAndCounts() {
		RetryBudget billing = this.budgets.budget("billing");
		assertThat(billing).isNotNull();
		billing.recordRequest();
		billing.recordRequest();
		assertThat(this.budgets.permits("billing").tryAcquire()).isTrue();
		assertThat(this.budgets.snapshots().get("billing"))
			.isEqualTo(new RetryBudget.Snapshot(2, 1, 0, Duration.ofSeconds(10)));
		assertThat(this.budgets.budget("unguarded")).isNull();
		assertThat(this.budgets.budget("nobody")).isNull();
	}

	@Test
	void whenBudgetIsDisabledOrClientUnknownThenPermitsAreUnlimited() {
		this.budgets.recordRequest("unguarded");
		assertThat(this.budgets.permits("unguarded")).isSameAs(RetryPermits.UNLIMITED);
		assertThat(this.budgets.permits("nobody")).isSameAs(RetryPermits.UNLIMITED);
		assertThat(this.budgets.snapshots()).containsOnlyKeys("default", "billing");
	}

}
