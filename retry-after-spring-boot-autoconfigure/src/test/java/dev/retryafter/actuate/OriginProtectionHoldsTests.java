package dev.retryafter.actuate;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.actuate.RetryAfterEndpoint.ProtectionDescriptor;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint explains every hold: per key, the cooldown's instant, the requests it held
 * that are still leaving, and the learned pacing rate with the next free slot.
 */
class OriginProtectionHoldsTests {

	private static final CooldownKey LOCAL = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	// Starts at 2026-09-08T12:00:00Z.
	private final FakeClock clock = new FakeClock();

	private final ClientSettingsCatalog clients = new ClientSettingsCatalog(RetrySettings.defaults(),
			Map.of("billing", new ClientSettingsCatalog.NamedClient(Set.of("billing.example"), RetrySettings.defaults())));

	private final CooldownStore store = new LocalCooldownStore(new OriginProtection(10));

	private final OriginProtectionState state = new OriginProtectionState(this.clients, this.store,
			new RetryBudgets(this.clients, this.clock), this.clock, this.clock);

	@Test
	void whenACooldownHoldsRequestsThenItsInstantAndTheirReleasesAreShown() {
		record(LOCAL, Duration.ofSeconds(2));
		CooldownKey tenant = new CooldownKey(Origin.of("https", "billing.example", -1),
				"0123456789abcdef0123456789abcdef");
		record(tenant, Duration.ofSeconds(5));
		hold(LOCAL, 0.5);
		hold(LOCAL, 1.0);

		assertThat(this.state.protection()).containsExactly(
				new ProtectionDescriptor("default", "http://127.0.0.1:8080", null, "2026-09-08T12:00:02Z",
						"2026-09-08T12:00:02.400Z", 2, null, null),
				new ProtectionDescriptor("billing", "https://billing.example:443", "01234567",
						"2026-09-08T12:00:05Z", null, 0, null, null));
	}

	@Test
	void whenTheInstantHasPassedWhileHeldRequestsAreLeavingThenTheReleaseWindowIsStillShown() {
		record(LOCAL, Duration.ofSeconds(2));
		hold(LOCAL, 0.5);
		hold(LOCAL, 1.0);
		this.clock.advance(Duration.ofMillis(2300));

		assertThat(this.state.protection()).containsExactly(new ProtectionDescriptor("default",
				"http://127.0.0.1:8080", null, "2026-09-08T12:00:02Z", "2026-09-08T12:00:02.400Z", 1, null, null));
		// The running cooldowns are unchanged: this one has ended.
		assertThat(this.state.cooldowns()).isEmpty();
		this.clock.advance(Duration.ofMillis(100));
		assertThat(this.state.protection()).isEmpty();
	}

	@Test
	void whenAKeyIsPacedThenItsRateAndNextFreeSlotAreShown() {
		record(LOCAL, Duration.ofSeconds(1));
		// 40 accepted over 2 s, then a second rejection: 18 per second.
		for (int i = 0; i < 40; i++) {
			this.clock.advance(Duration.ofMillis(50));
			this.store.accepted(LOCAL, this.clock.nanoTime());
		}
		record(LOCAL, Duration.ofSeconds(1));
		hold(LOCAL, 0.0);

		// The first slot is the instant (12:00:03), the next one 1/18 s later.
		assertThat(this.state.protection()).containsExactly(new ProtectionDescriptor("default",
				"http://127.0.0.1:8080", null, "2026-09-08T12:00:03Z", "2026-09-08T12:00:03Z", 1, 18.0,
				"2026-09-08T12:00:03.055Z"));
		// Past the instant with the queue gone, nothing holds a request: no slot to show.
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(this.state.protection()).containsExactly(
				new ProtectionDescriptor("default", "http://127.0.0.1:8080", null, null, null, 0, 18.0, null));
	}

	private void record(CooldownKey key, Duration delay) {
		this.store.record(key, delay, this.clock.nanoTime());
	}

	private void hold(CooldownKey key, double random) {
		this.store.admit(new AdmissionRequest(key, this.clock.nanoTime(), Duration.ofSeconds(10),
				Duration.ofMillis(500), CooldownMode.WAIT, 0.2, new FixedRandom(random), true));
	}

}
