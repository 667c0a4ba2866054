package dev.retryafter.store;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;

import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.Origin;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.FixedRandom;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class LocalCooldownStoreTests {

	private static final CooldownKey ORIGIN = CooldownKey.of(Origin.of("http", "127.0.0.1", 8080));

	private final FakeClock clock = new FakeClock();

	private final LocalCooldownStore store = new LocalCooldownStore(new OriginProtection(10));

	@Test
	void whenRecordedThenReadBackFromTheLocalMap() {
		this.store.record(ORIGIN, Duration.ofSeconds(2), this.clock.nanoTime());
		this.clock.advance(Duration.ofMillis(500));
		assertThat(this.store.remaining(ORIGIN, this.clock.nanoTime())).isEqualTo(Duration.ofMillis(1500));
		assertThat(this.store.snapshot(this.clock.nanoTime())).containsExactly(entry(ORIGIN, Duration.ofMillis(1500)));
		assertThat(this.store.admit(new AdmissionRequest(ORIGIN, this.clock.nanoTime(), Duration.ofSeconds(10),
				Duration.ofMillis(500), CooldownMode.WAIT, 0.0, new FixedRandom(0.5), true)))
			.isEqualTo(new Admission.Wait(Duration.ofMillis(1500)));
	}

	@Test
	void whenACooldownIsRecordedThenTheStoreHasCooldownsUntilItIsPurged() {
		assertThat(this.store.hasCooldowns()).isFalse();
		this.store.record(ORIGIN, Duration.ofSeconds(2), this.clock.nanoTime());
		assertThat(this.store.hasCooldowns()).isTrue();
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(this.store.remaining(ORIGIN, this.clock.nanoTime())).isEqualTo(Duration.ZERO);
		// The origin stays watched for its rate until 10 s pass without a queue.
		assertThat(this.store.hasCooldowns()).isTrue();
		this.clock.advance(Duration.ofSeconds(9));
		this.store.purgeExpired(this.clock.nanoTime());
		assertThat(this.store.hasCooldowns()).isFalse();
	}

	@Test
	void whenAskedThenNameIsLocalAndThereAreNoErrors() {
		assertThat(this.store.name()).isEqualTo("local");
		assertThat(this.store.errorCount()).isZero();
		assertThat(this.store.droppedCount()).isZero();
	}

	@Test
	void whenAskedForItsStateThenItIsConnectedSinceTheJvmStarted() {
		Instant jvmStart = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
		assertThat(this.store.state()).isEqualTo(new StoreState("local", true, jvmStart, 0));
	}

}
