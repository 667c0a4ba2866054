package dev.retryafter.client;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;

import dev.retryafter.client.HttpCaller.Kind;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.CooldownMode;
import dev.retryafter.core.CooldownScope;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.core.protection.RateLimitState;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingSleeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Quota pacing holds only what a quota needs, through {@link RetryAfterInterceptor}: real
 * requests to a loopback server, a fake clock and a recording sleeper (docs/PACING.md). A
 * request that only a far-from-spent quota could hold takes the first-attempt shortcut
 * ({@code FirstAttemptQuota}, rule 8): it holds nobody, each answer is still recorded, the
 * shares it lets go count as the admission counts them, and whatever may hold a request
 * still takes the whole call path.
 */
class RetryAfterInterceptorQuotaNeedTests {

	private static final RetrySettings NO_JITTER = RetrySettings.defaults().withJitter(0);

	private static final RandomGenerator MIDDLE = () -> Long.MIN_VALUE;

	private final FakeClock clock = new FakeClock();

	private final RecordingSleeper sleeper = new RecordingSleeper(this.clock);

	private final RecordingListener listener = new RecordingListener();

	private final CooldownStore cooldowns = new LocalCooldownStore(new OriginProtection(100));

	private LoopbackHttpServer server;

	@BeforeEach
	void startServer() throws IOException {
		this.server = LoopbackHttpServer.start();
	}

	@AfterEach
	void stopServer() throws IOException {
		this.server.close();
	}

	@Test
	void whenGitHubsHealthyHourlyQuotaIsAnnouncedThenTwentySequentialCallsAreNeverHeld() {
		long reset = this.clock.instant().getEpochSecond() + 3600;
		Reply[] replies = new Reply[20];
		for (int i = 0; i < replies.length; i++) {
			replies[i] = Reply.status(200)
				.header("X-RateLimit-Limit", "5000")
				.header("X-RateLimit-Remaining", Integer.toString(4999 - i))
				.header("X-RateLimit-Used", Integer.toString(i + 1))
				.header("X-RateLimit-Reset", Long.toString(reset))
				.header("X-RateLimit-Resource", "core");
		}
		assertNeverHeld(replies);
	}

	@Test
	void whenTheDraftsHourlyQuotaIsAnnouncedThenTwentySequentialCallsAreNeverHeld() {
		Reply[] replies = new Reply[20];
		for (int i = 0; i < replies.length; i++) {
			replies[i] = Reply.status(200)
				.header("RateLimit-Policy", "\"hour\";q=5000;w=3600")
				.header("RateLimit", "\"hour\";r=" + (4999 - i) + ";t=3600");
		}
		assertNeverHeld(replies);
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void aQuotaFarFromSpentHoldsNobodyAndEveryAnswerIsRecorded(Kind kind) {
		this.server.on("/report", ietf(1000), ietf(999), ietf(998), ietf(997), ietf(996));
		HttpCaller caller = kind.create(interceptor(NO_JITTER));

		for (int i = 0; i < 5; i++) {
			assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		}

		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.holdReasons()).isEmpty();
		assertThat(this.server.requests()).hasSize(5);
		assertThat(quotas().values()).singleElement().extracting(RateLimitState::remaining).isEqualTo(996L);
		assertThat(this.listener.attempts()).hasSize(5);
	}

	@Test
	void theSharesLetGoAtOnceCountAsTheAdmissionCountsThemAndTheFirstPastTheFloorIsSpread() {
		// 66 left for 10 s: two above the floor of 64 go at once, the third waits 10 s / 66.
		this.server.on("/report", Reply.status(200).header("RateLimit", "\"p\";r=66;t=10"), Reply.status(200),
				Reply.status(200), Reply.status(200));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		for (int i = 0; i < 4; i++) {
			assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		}

		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofNanos(10_000_000_000L / 66));
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.QUOTA);
	}

	@Test
	void aFirstSuccessThatSaysNothingIsLeftHoldsTheNextRequestUntilTheReset() {
		this.server.on("/report", Reply.status(200).header("X-RateLimit-Remaining", "0").header("X-RateLimit-Reset", "2"),
				Reply.status(200));
		HttpCaller caller = Kind.REST_CLIENT_SIMPLE.create(interceptor(NO_JITTER));

		caller.get(this.server.uri("/report"));
		caller.get(this.server.uri("/report"));

		assertThat(this.sleeper.sleeps()).singleElement()
			.satisfies((wait) -> assertThat(wait).isGreaterThanOrEqualTo(Duration.ofSeconds(2)));
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.QUOTA);
	}

	@Test
	void inFailFastModeAQuotaIsRecordedButNeverHolds() {
		this.server.on("/report", Reply.status(200).header("RateLimit", "\"p\";r=0;t=5"),
				Reply.status(200).header("RateLimit", "\"p\";r=0;t=5"), Reply.status(200));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(
				NO_JITTER.withCooldown(new RetrySettings.Cooldown(true, CooldownMode.FAIL_FAST))));

		for (int i = 0; i < 3; i++) {
			assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		}

		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(quotas()).hasSize(1);
	}

	@Test
	void aQuotaTheAnswerFilesUnderABucketIsKeptUnderThatBucket() {
		long reset = this.clock.instant().getEpochSecond() + 3600;
		this.server.on("/repos/a", github(4999, reset), github(4998, reset));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		caller.get(this.server.uri("/repos/a"));
		caller.get(this.server.uri("/repos/a"));

		assertThat(this.sleeper.sleeps()).isEmpty();
		Map.Entry<CooldownKey, RateLimitState> quota = quotas().entrySet().iterator().next();
		assertThat(quotas()).hasSize(1);
		assertThat(quota.getKey().scope()).extracting(CooldownScope::kind).isEqualTo(CooldownScope.Kind.BUCKET);
		assertThat(quota.getValue().remaining()).isEqualTo(4998L);
	}

	@Test
	void whileAnyOriginCoolsDownRequestsToAQuotaTakeTheWholeCallPathAndAreHeldByTheirOwnCooldown() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3").header("RateLimit", "\"p\";r=500;t=60"),
				Reply.status(200).header("RateLimit", "\"p\";r=499;t=60"));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER.withMaxAttempts(1)));

		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(429);
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);

		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(3));
		assertThat(this.listener.holdReasons()).containsExactly(HoldReason.COOLDOWN);
	}

	private Map<CooldownKey, RateLimitState> quotas() {
		return this.cooldowns.protection().quotas(this.clock.nanoTime());
	}

	private static Reply ietf(int remaining) {
		return Reply.status(200)
			.header("RateLimit-Policy", "\"hour\";q=5000;w=3600")
			.header("RateLimit", "\"hour\";r=" + remaining + ";t=3600");
	}

	private static Reply github(int remaining, long reset) {
		return Reply.status(200)
			.header("X-RateLimit-Limit", "5000")
			.header("X-RateLimit-Remaining", Integer.toString(remaining))
			.header("X-RateLimit-Used", Integer.toString(5000 - remaining))
			.header("X-RateLimit-Reset", Long.toString(reset))
			.header("X-RateLimit-Resource", "core");
	}

	private void assertNeverHeld(Reply[] replies) {
		this.server.on("/report", replies);
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		for (int i = 0; i < replies.length; i++) {
			assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		}

		// The quota was read (it is paced), and held nobody.
		assertThat(this.cooldowns.protection().quotas().isEmpty()).isFalse();
		assertThat(this.listener.holdReasons()).isEmpty();
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.server.requests()).hasSize(20);
	}

	@Test
	void whenAQuotaSlotIsFollowedByATransient503ThenTheCallStillCompletes() {
		this.server.on("/report", Reply.status(200).header("RateLimit", "\"x\";r=0;t=4"),
				Reply.status(503).header("Retry-After", "1"), Reply.status(200).body("done"));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		caller.get(this.server.uri("/report"));
		HttpCaller.Result second = caller.get(this.server.uri("/report"));

		assertThat(second.status()).isEqualTo(200);
		assertThat(second.body()).isEqualTo("done");
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(4), Duration.ofSeconds(1));
	}

	@Test
	void whenASlotWouldLeaveNoRoomForARetryThenTheRequestGoesAsWithoutFieldsAndItsRetryCompletes() {
		// r=0 until 9 s: a 9 s slot would leave no room to retry the 503 within the 10 s budget.
		this.server.on("/report", Reply.status(200).header("RateLimit", "\"x\";r=0;t=9"),
				Reply.status(503).header("Retry-After", "1"), Reply.status(200).body("done"));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		caller.get(this.server.uri("/report"));
		HttpCaller.Result second = caller.get(this.server.uri("/report"));

		assertThat(second.body()).isEqualTo("done");
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(1));
		assertThat(this.listener.holdReasons()).isEmpty();
	}

	@Test
	void whenTheCooldownFailsFastThenAQuotaNeverHoldsARequest() {
		this.server.on("/report", Reply.status(200).header("RateLimit", "\"x\";r=0;t=3"));
		RetrySettings failFast = NO_JITTER.withCooldown(new RetrySettings.Cooldown(true, CooldownMode.FAIL_FAST));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(failFast));

		for (int i = 0; i < 3; i++) {
			assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		}

		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.holdReasons()).isEmpty();
	}

	@Test
	void whenPartitionHeadersAreSetThenOneTenantsSpentQuotaDoesNotHoldAnother() {
		this.server.on("/report", Reply.status(200).header("RateLimit", "\"x\";r=0;t=3"),
				Reply.status(200).header("RateLimit", "\"x\";r=5;t=3"), Reply.status(200));
		RetrySettings partitioned = NO_JITTER.withCooldown(
				new RetrySettings.Cooldown(true, CooldownMode.WAIT, Set.of(429), List.of("Authorization")));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(partitioned));

		assertThat(get(caller, "Bearer tenant-a").status()).isEqualTo(200);
		assertThat(get(caller, "Bearer tenant-b").status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).isEmpty();
		// Tenant A's own quota still holds tenant A.
		assertThat(get(caller, "Bearer tenant-a").status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(3));
	}

	@Test
	void whenTheServerScopesItsQuotaByPartitionKeyThenOnePartitionsSpentQuotaDoesNotHoldAnother() {
		this.server.on("/report", Reply.status(200).header("RateLimit", "\"x\";r=0;t=3;pk=:dGVuYW50LWE=:"),
				Reply.status(200).header("RateLimit", "\"x\";r=5;t=3;pk=:dGVuYW50LWI=:"));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		for (int i = 0; i < 3; i++) {
			assertThat(get(caller, (i % 2 == 0) ? "Bearer tenant-a" : "Bearer tenant-b").status()).isEqualTo(200);
		}

		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.holdReasons()).isEmpty();
		// Nothing the server scoped by pk is kept under a key the client does not partition.
		assertThat(this.cooldowns.protection().quotas().isEmpty()).isTrue();
	}

	private HttpCaller.Result get(HttpCaller caller, String authorization) {
		HttpHeaders headers = new HttpHeaders();
		headers.set("Authorization", authorization);
		return caller.call(HttpMethod.GET, this.server.uri("/report"), headers, new byte[0], (attributes) -> {
		});
	}

	private RetryAfterInterceptor interceptor(RetrySettings settings) {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(settings);
		return Interceptors.create(clients, this.listener, this.cooldowns, new RetryBudgets(clients, this.clock),
				this.sleeper, this.clock, this.clock, MIDDLE);
	}

}
