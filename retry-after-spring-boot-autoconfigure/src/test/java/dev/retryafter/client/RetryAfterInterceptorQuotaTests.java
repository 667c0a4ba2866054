package dev.retryafter.client;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Set;
import java.util.random.RandomGenerator;
import java.util.stream.Stream;

import dev.retryafter.client.HttpCaller.Kind;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.header.RateLimitFields;
import dev.retryafter.core.protection.OriginProtection;
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
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pacing inside the quota an origin announces, through {@link RetryAfterInterceptor}: real
 * requests to a loopback server, a fake clock and a recording sleeper.
 */
class RetryAfterInterceptorQuotaTests {

	private static final RetrySettings NO_JITTER = RetrySettings.defaults().withJitter(0);

	private static final RandomGenerator MIDDLE = () -> Long.MIN_VALUE;

	/** One request every 100 ms after the reset, a little under the quota. */
	private static final Duration AFTER_RESET = Duration.ofNanos((long) (1e9 / 10 / 0.99));

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

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenTheOriginAnnouncesItsQuotaThenFirstAttemptsAreSpreadOverWhatRemainsUntilTheReset(Kind kind) {
		// 4 left for the next 2 s: one every half second, the first one interval after the answer.
		this.server.on("/report", ietf(200, 4, 2), ietf(200, 3, 2), ietf(200, 2, 2), ietf(200, 1, 2));
		HttpCaller caller = kind.create(interceptor(NO_JITTER));

		for (int i = 0; i < 4; i++) {
			assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		}

		assertThat(this.sleeper.sleeps()).hasSize(3).allSatisfy((sleep) -> assertThat(sleep).isPositive());
		assertThat(this.sleeper.sleeps().get(0)).isEqualTo(Duration.ofMillis(500));
		assertThat(this.server.requests()).hasSize(4);
		assertThat(this.listener.events()).filteredOn(RecordingListener.Held.class::isInstance).hasSize(3);
		assertThat(this.listener.holdReasons()).containsOnly(HoldReason.QUOTA);
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenTheDraftsResetIsReadThenItsRoundTripBoundsHowLateTheResetMayBe(Kind kind) {
		this.server.on("/report", ietf(200, 4, 2), ietf(200, 3, 2));
		HttpCaller caller = kind.create(interceptor(NO_JITTER));
		CooldownKey key = CooldownKey.of(Origin.of("http", "127.0.0.1", this.server.uri("/").getPort()));

		// The first answer ends at the first-attempt shortcut. The clock stands still while a
		// request is on its way, so the reset lies after the send plus t less a second.
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(this.cooldowns.protection().quotas().spacing(key, this.clock.nanoTime()).resetLateBy())
			.isEqualTo(Duration.ofSeconds(1));

		// The second goes the whole call path, held half a second: its t=2 names a reset 0.5 s
		// after the first's, which stands, and bounds it half a second closer.
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofMillis(500));
		assertThat(this.cooldowns.protection().quotas().spacing(key, this.clock.nanoTime()).resetLateBy())
			.isEqualTo(Duration.ofMillis(500));
	}

	@Test
	void whenNothingRemainsThenTheNextRequestWaitsForTheResetAndThenFollowsThePolicy() {
		this.server.on("/report", ietf(200, 0, 3), ietf(200, 9, 1), ietf(200, 8, 1));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		for (int i = 0; i < 3; i++) {
			assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		}

		// Reset in 3 s, then 10 per second: the first after the reset one interval after it.
		assertThat(this.sleeper.sleeps().get(0)).isEqualTo(Duration.ofSeconds(3).plus(AFTER_RESET));
		assertThat(this.listener.holdReasons()).containsOnly(HoldReason.QUOTA);
	}

	@Test
	void whenTheLegacyFieldsSayHowMuchIsLeftThenRequestsArePacedToo() {
		Reply[] replies = new Reply[3];
		Arrays.fill(replies, Reply.status(200)
			.header("X-RateLimit-Limit", "10")
			.header("X-RateLimit-Remaining", "0")
			.header("X-RateLimit-Reset", "2"));
		this.server.on("/report", replies);
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		for (int i = 0; i < 3; i++) {
			assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		}

		// Nothing left for 2 s, and 10 per 2 s (the reset is the only window these fields give).
		Duration interval = Duration.ofNanos((long) (2e9 / 10 / 0.99));
		assertThat(this.sleeper.sleeps().get(0)).isEqualTo(Duration.ofSeconds(2).plus(interval));
		assertThat(this.listener.holdReasons()).containsOnly(HoldReason.QUOTA);
	}

	@Test
	void whenRateLimitPacingIsOffThenTheFieldsChangeNothing() {
		this.server.on("/report", ietf(200, 0, 3), ietf(200, 0, 3));
		HttpCaller caller = Kind.REST_CLIENT_JDK
			.create(interceptor(NO_JITTER.withRateLimit(new RetrySettings.RateLimit(false, Set.of()))));

		caller.get(this.server.uri("/report"));
		caller.get(this.server.uri("/report"));

		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.cooldowns.hasCooldowns()).isFalse();
	}

	@Test
	void whenOnlyTheLegacyFieldsAreReadThenTheIetfFieldsChangeNothing() {
		this.server.on("/report", ietf(200, 0, 3), ietf(200, 0, 3));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(
				NO_JITTER.withRateLimit(new RetrySettings.RateLimit(true, Set.of(RateLimitFields.X_RATELIMIT)))));

		caller.get(this.server.uri("/report"));
		caller.get(this.server.uri("/report"));

		assertThat(this.sleeper.sleeps()).isEmpty();
	}

	@Test
	void whenASlotDoesNotFitTheBudgetThenTheRequestIsSentAsItWouldBeWithoutTheFields() {
		// Nothing left for an hour: no slot fits a 10 s budget, and pacing never refuses.
		this.server.on("/report", ietf(200, 0, 3600), Reply.status(200));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		caller.get(this.server.uri("/report"));

		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.server.requests()).hasSize(2);
	}

	@Test
	void whenA429CarriesRetryAfterThenTheRetryFollowsItAndNotTheQuota() {
		this.server.on("/report", ietf(429, 0, 30).header("Retry-After", "2"), Reply.status(200));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);

		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(2));
		assertThat(this.cooldowns.protection().quotas().isEmpty()).isTrue();
	}

	@Test
	void whenTheResponseCameFromACacheThenItsFieldsAreIgnored() {
		this.server.on("/report", ietf(200, 0, 30).header("Age", "12"), Reply.status(200));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		caller.get(this.server.uri("/report"));
		caller.get(this.server.uri("/report"));

		assertThat(this.sleeper.sleeps()).isEmpty();
	}

	@ParameterizedTest
	@MethodSource("spentOnFirstSuccess")
	void whenTheFirstSuccessSaysNothingRemainsThenTheNextRequestWaitsForTheReset(String dialect, Reply spent) {
		// Every response is looked at: the very first success holds the next request.
		this.server.on("/report", spent, Reply.status(200));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);
		assertThat(caller.get(this.server.uri("/report")).status()).isEqualTo(200);

		assertThat(this.sleeper.sleeps()).as(dialect).hasSize(1);
		assertThat(this.sleeper.sleeps().get(0)).as(dialect).isGreaterThanOrEqualTo(Duration.ofSeconds(3));
		assertThat(this.listener.holdReasons()).as(dialect).containsOnly(HoldReason.QUOTA);
	}

	static Stream<Arguments> spentOnFirstSuccess() {
		long resetAt = Instant.parse("2026-09-08T12:00:03Z").getEpochSecond();
		return Stream.of(Arguments.of("ietf", ietf(200, 0, 3)),
				Arguments.of("x-ratelimit", Reply.status(200).header("X-RateLimit-Remaining", "0")
					.header("X-RateLimit-Reset", "3")),
				Arguments.of("github", Reply.status(200).header("x-ratelimit-limit", "60")
					.header("x-ratelimit-remaining", "0").header("x-ratelimit-used", "60")
					.header("x-ratelimit-reset", Long.toString(resetAt)).header("x-ratelimit-resource", "core")),
				Arguments.of("gitlab", Reply.status(200).header("RateLimit-Limit", "60")
					.header("RateLimit-Remaining", "0").header("RateLimit-Reset", Long.toString(resetAt))
					.header("RateLimit-ResetTime", "Tue, 08 Sep 2026 12:00:03 GMT")),
				Arguments.of("openai", Reply.status(200).header("x-ratelimit-limit-requests", "60")
					.header("x-ratelimit-remaining-requests", "59").header("x-ratelimit-reset-requests", "1s")
					.header("x-ratelimit-limit-tokens", "150000").header("x-ratelimit-remaining-tokens", "0")
					.header("x-ratelimit-reset-tokens", "3s")),
				Arguments.of("anthropic", Reply.status(200).header("anthropic-ratelimit-requests-limit", "50")
					.header("anthropic-ratelimit-requests-remaining", "0")
					.header("anthropic-ratelimit-requests-reset", "2026-09-08T12:00:03Z")),
				Arguments.of("discord", Reply.status(200).header("X-RateLimit-Limit", "5")
					.header("X-RateLimit-Remaining", "0").header("X-RateLimit-Reset", resetAt + ".000")
					.header("X-RateLimit-Reset-After", "3.000").header("X-RateLimit-Bucket", "abcd1234")));
	}

	@Test
	void whenAQuotaIsAnnouncedOnlyInADialectThatIsNotReadThenNothingIsPaced() {
		this.server.on("/report", Reply.status(200).header("x-ratelimit-remaining-tokens", "0")
			.header("x-ratelimit-reset-tokens", "3s"), Reply.status(200));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(
				NO_JITTER.withRateLimit(new RetrySettings.RateLimit(true, Set.of(RateLimitFields.IETF)))));

		caller.get(this.server.uri("/report"));
		caller.get(this.server.uri("/report"));

		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.cooldowns.protection().quotas().isEmpty()).isTrue();
	}

	@Test
	void whenATokenQuotaHasSomeLeftThenItPacesNothing() {
		this.server.on("/report", Reply.status(200).header("x-ratelimit-remaining-tokens", "12")
			.header("x-ratelimit-reset-tokens", "6m0s"), Reply.status(200));
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER));

		caller.get(this.server.uri("/report"));
		caller.get(this.server.uri("/report"));

		assertThat(this.sleeper.sleeps()).isEmpty();
	}

	private static Reply ietf(int status, int remaining, int reset) {
		return Reply.status(status)
			.header("RateLimit-Policy", "\"burst\";q=10;w=1, \"day\";q=1000;w=86400")
			.header("RateLimit", "\"burst\";r=" + remaining + ";t=" + reset);
	}

	private RetryAfterInterceptor interceptor(RetrySettings settings) {
		return interceptor(settings, MIDDLE);
	}

	private RetryAfterInterceptor interceptor(RetrySettings settings, RandomGenerator random) {
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(settings);
		return Interceptors.create(clients, this.listener, this.cooldowns, new RetryBudgets(clients, this.clock),
				this.sleeper, this.clock, this.clock, random);
	}

}
