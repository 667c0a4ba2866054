package dev.retryafter.client;

import java.io.IOException;
import java.time.Duration;
import java.util.random.RandomGenerator;

import dev.retryafter.client.HttpCaller.Kind;
import dev.retryafter.core.protection.Admission;
import dev.retryafter.core.protection.AdmissionRequest;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.Sleeper;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.RecordedRequest;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import dev.retryafter.testsupport.RecordingListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A request held for another route's probe in {@link RetryAfterInterceptor}: when its hold
 * ends it asks the cooldowns again, once, and so learns the probe's answer. Real requests to
 * a loopback server, with a fake clock; the sleeper plays the probe's answer during the hold.
 */
class RetryAfterInterceptorRouteProbeTests {

	private static final RetrySettings SINGLE_ATTEMPT = RetrySettings.defaults().withJitter(0).withMaxAttempts(1);

	private static final RandomGenerator MIDDLE = () -> Long.MIN_VALUE;

	private final FakeClock clock = new FakeClock();

	private final RecordingListener listener = new RecordingListener();

	private final CooldownStore cooldowns = new LocalCooldownStore(new OriginProtection(100));

	private LoopbackHttpServer server;

	private CooldownKey origin;

	@BeforeEach
	void startServer() throws IOException {
		this.server = LoopbackHttpServer.start();
		this.server.on("/search/issues", Reply.status(429).header("Retry-After", "30"));
		this.server.on("/users/1", Reply.status(200));
		this.origin = CooldownKey.of(Origin.of("http", "127.0.0.1", this.server.port()));
	}

	@AfterEach
	void stopServer() throws IOException {
		this.server.close();
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenTheProbeIsRefusedDuringTheHoldThenTheHeldRequestIsRefusedWithoutBeingSent(Kind kind) {
		// The probe's 429 widened the cooldown to the whole origin while the request waited.
		HttpCaller caller = kind.create(interceptor((duration) -> {
			this.cooldowns.record(this.origin, Duration.ofSeconds(30), this.clock.nanoTime());
			this.clock.advance(duration);
		}));
		assertThat(caller.get(this.server.uri("/search/issues")).status()).isEqualTo(429);
		probeOut();

		assertThatExceptionOfType(Exception.class).isThrownBy(() -> caller.get(this.server.uri("/users/1")));
		assertThat(this.server.requests()).extracting(RecordedRequest::path).containsExactly("/search/issues");
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.PROBE);
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenTheProbeIsAcceptedDuringTheHoldThenTheHeldRequestIsSent(Kind kind) {
		HttpCaller caller = kind.create(interceptor((duration) -> {
			this.cooldowns.accepted(items(), this.clock.nanoTime());
			this.clock.advance(duration);
		}));
		assertThat(caller.get(this.server.uri("/search/issues")).status()).isEqualTo(429);
		probeOut();

		assertThat(caller.get(this.server.uri("/users/1")).status()).isEqualTo(200);
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.PROBE);
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenTheProbeIsStillOutAfterTheHoldThenTheHeldRequestIsSentWithoutASecondHold(Kind kind) {
		// The clock moves less than the hold: the probe is still out when the request asks again.
		HttpCaller caller = kind.create(interceptor((duration) -> this.clock.advance(duration.dividedBy(2))));
		assertThat(caller.get(this.server.uri("/search/issues")).status()).isEqualTo(429);
		probeOut();

		assertThat(caller.get(this.server.uri("/users/1")).status()).isEqualTo(200);
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.PROBE);
	}

	// A first request to /items took the probe and has not been answered yet.
	private void probeOut() {
		assertThat(this.cooldowns.admit(new AdmissionRequest(items(), this.clock.nanoTime(), Duration.ofSeconds(10),
				Duration.ofMillis(500), CooldownMode.WAIT, 0.0, MIDDLE, true)))
			.isEqualTo(Admission.PROCEED);
	}

	private CooldownKey items() {
		return this.origin.withScope(CooldownScope.route("/items/1"));
	}

	private RetryAfterInterceptor interceptor(Sleeper sleeper) {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(SINGLE_ATTEMPT);
		return Interceptors.create(clients, this.listener, this.cooldowns, new RetryBudgets(clients, this.clock),
				sleeper, this.clock, this.clock, MIDDLE);
	}

}
