package dev.retryafter.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

import dev.retryafter.client.HttpCaller.Kind;
import dev.retryafter.client.HttpCaller.Result;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.RetryBudget;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.spi.OuterRetryDetector;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.AttemptCompleted;
import dev.retryafter.testsupport.RecordingSleeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;

/**
 * {@link RetryAfterInterceptor} under a retry layer around the client that its
 * {@link OuterRetryDetector} sees: one attempt per call, with admission, cooldowns and the
 * listener as usual, against a real loopback origin with a fake clock and a recording sleeper.
 */
class RetryAfterInterceptorOuterRetryTests {

	private static final RetrySettings NO_JITTER = RetrySettings.defaults().withJitter(0);

	private static final RandomGenerator MIDDLE = () -> Long.MIN_VALUE;

	private static final RetryDecision.Stop OUTER_RETRY = new RetryDecision.Stop(StopReason.OUTER_RETRY);

	private final FakeClock clock = new FakeClock();

	private final RecordingSleeper sleeper = new RecordingSleeper(this.clock);

	private final RecordingListener listener = new RecordingListener();

	private final CooldownStore cooldowns = new LocalCooldownStore(new OriginProtection(100));

	private final AtomicInteger asked = new AtomicInteger();

	private LoopbackHttpServer server;

	@BeforeEach
	void startServer() throws IOException {
		this.server = LoopbackHttpServer.start();
	}

	@AfterEach
	void stopServer() throws IOException {
		this.server.close();
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenAnOuterRetryDrivesTheCallThenARetryableResponseIsSentOnceAndReturnedAsReceived(Kind kind) {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3").body("slow down"),
				Reply.status(200).body("ready"));

		Result result = kind.create(interceptor(NO_JITTER, outerRetry(true))).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(429);
		assertThat(result.body()).isEqualTo("slow down");
		assertThat(result.headers().getFirst("Retry-After")).isEqualTo("3");
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				new AttemptOutcome.Response(429, new RetryAfter.Delay(Duration.ofSeconds(3), RetryAfter.Form.SECONDS)),
				OUTER_RETRY));
		assertThat(this.asked).hasValue(1);
	}

	@Test
	void whenAnOuterRetryDrivesTheCallThenTheCooldownIsRecordedAndHoldsItsNextAttempt() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3"), Reply.status(200).body("ready"));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER, outerRetry(true)));

		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);
		Result second = caller.get(this.server.uri("/report"));

		assertThat(second.body()).isEqualTo("ready");
		// The outer layer's attempt is admitted as any other: held until the cooldown ends.
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(3));
		assertThat(this.listener.attempts()).extracting(AttemptCompleted::attempt, AttemptCompleted::decision)
			.containsExactly(tuple(1, OUTER_RETRY),
					tuple(1, new RetryDecision.Stop(StopReason.SUCCESS)));
	}

	@Test
	void whenAnOuterRetryDrivesTheCallThenEachRequestCountsTowardsTheBudgetButNoRetryIsSpent() {
		this.server.on("/report", Reply.status(503), Reply.status(503));
		RetrySettings settings = NO_JITTER.withBudget(new RetrySettings.Budget(true, 0.5, 0, Duration.ofSeconds(10)));
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(settings);
		RetryBudgets budgets = new RetryBudgets(clients, this.clock);
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(Interceptors.create(clients, this.listener,
				this.cooldowns, budgets, outerRetry(true), this.sleeper, this.clock, this.clock, MIDDLE));

		caller.get(this.server.uri("/report"));
		caller.get(this.server.uri("/report"));

		assertThat(this.server.requests()).hasSize(2);
		assertThat(budgets.snapshots())
			.containsExactly(entry("default", new RetryBudget.Snapshot(2, 0, 1, Duration.ofSeconds(10))));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenTheFirstAttemptEndsTheCallThenTheDetectorIsNotAsked(Kind kind) {
		this.server.on("/ok", Reply.status(200).body("ready")).on("/broken", Reply.status(500));
		HttpCaller caller = kind.create(interceptor(NO_JITTER, outerRetry(true)));

		assertThat(caller.get(this.server.uri("/ok")).status()).isEqualTo(200);
		assertThat(caller.get(this.server.uri("/broken")).status()).isEqualTo(500);

		assertThat(this.asked).hasValue(0);
		assertThat(this.listener.attempts()).extracting(AttemptCompleted::decision)
			.containsExactly(new RetryDecision.Stop(StopReason.SUCCESS),
					new RetryDecision.Stop(StopReason.NOT_RETRYABLE));
	}

	@Test
	void whenAConnectionIsRefusedUnderAnOuterRetryThenTheFailureReachesTheCallerAfterOneAttempt()
			throws IOException {
		URI closedPort = closedPortUri();
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER, outerRetry(true)));

		assertThatExceptionOfType(ResourceAccessException.class).isThrownBy(() -> caller.get(closedPort))
			.withCauseInstanceOf(ConnectException.class);

		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				new AttemptOutcome.IoFailure(IoFailureKind.CONNECT_REFUSED), OUTER_RETRY));
	}

	@Test
	void whenNoOuterRetryIsSeenThenTheInterceptorRetriesByItself() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3"), Reply.status(200).body("ready"));

		Result result = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER, outerRetry(false)))
			.get(this.server.uri("/report"));

		assertThat(result.body()).isEqualTo("ready");
		assertThat(this.server.requests()).hasSize(2);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(3));
		assertThat(this.asked).hasValue(1);
	}

	@Test
	void whenAskedAfterTheFirstAttemptOnlyThenALaterRetryOfTheInterceptorDoesNotAskAgain() {
		this.server.on("/report", Reply.status(503), Reply.status(503), Reply.status(200));

		Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER, outerRetry(false))).get(this.server.uri("/report"));

		assertThat(this.server.requests()).hasSize(3);
		assertThat(this.asked).hasValue(1);
	}

	private OuterRetryDetector outerRetry(boolean active) {
		return () -> {
			this.asked.incrementAndGet();
			return active;
		};
	}

	private RetryAfterInterceptor interceptor(RetrySettings settings, OuterRetryDetector outerRetry) {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(settings);
		return Interceptors.create(clients, this.listener, this.cooldowns, new RetryBudgets(clients, this.clock),
				outerRetry, this.sleeper, this.clock, this.clock, MIDDLE);
	}

	private static URI closedPortUri() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/report");
		}
	}

}
