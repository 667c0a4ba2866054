package dev.retryafter.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

import dev.retryafter.api.RetryAfterAttributes;
import dev.retryafter.client.HttpCaller.Kind;
import dev.retryafter.client.HttpCaller.Result;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.MonotonicClock;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryBudgets;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RateLimitFields;
import dev.retryafter.core.header.RateLimitReading;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.core.protection.OriginProtection;
import dev.retryafter.store.CooldownStore;
import dev.retryafter.store.LocalCooldownStore;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.RecordedRequest;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.AttemptCompleted;
import dev.retryafter.testsupport.RecordingSleeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequestInterceptor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of the first attempt the interceptor sends before it builds anything a retry needs:
 * a call that ends at once is reported as before, and a call that goes on decides exactly as
 * if everything had been read before the first send, even when an interceptor further down
 * the chain changes the request's headers or attributes during that send.
 */
class RetryAfterInterceptorFirstAttemptTests {

	private static final RetrySettings NO_JITTER = RetrySettings.defaults().withJitter(0);

	private static final RandomGenerator MIDDLE = () -> Long.MIN_VALUE;

	private final FakeClock clock = new FakeClock();

	private final RecordingSleeper sleeper = new RecordingSleeper(this.clock);

	private final RecordingListener listener = new RecordingListener();

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
	void whenACallSucceedsAtOnceThenTheMonotonicClockIsReadOnceAndTheSuccessIsReported(Kind kind) {
		this.server.on("/report", Reply.status(200).body("ready"));
		CountingMonotonicClock counting = new CountingMonotonicClock(this.clock);
		RetryAfterInterceptor interceptor = Interceptors.create(ClientSettingsCatalog.of(NO_JITTER), this.listener,
				this.sleeper, counting, this.clock, MIDDLE);
		// The retry budget reads the clock as it is built, before any call.
		int beforeCall = counting.reads();

		Result result = kind.create(interceptor).get(this.server.uri("/report"));

		assertThat(result.body()).isEqualTo("ready");
		assertThat(counting.reads() - beforeCall).isEqualTo(1);
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				response(200, RetryAfter.ABSENT), new RetryDecision.Stop(StopReason.SUCCESS)));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenOnlyAnotherOriginsQuotaIsKeptThenACallThatSucceedsAtOnceStillReadsTheClockOnce(Kind kind) {
		this.server.on("/report", Reply.status(200).body("ready"));
		CountingMonotonicClock counting = new CountingMonotonicClock(this.clock);
		ClientSettingsCatalog clients = ClientSettingsCatalog.of(NO_JITTER);
		CooldownStore cooldowns = new LocalCooldownStore(new OriginProtection(100));
		cooldowns.protection()
			.quotas()
			.record(CooldownKey.of(Origin.of("https", "quota.example", 443)), new RateLimitReading("day", 1000,
					Duration.ofHours(1), 1000, Duration.ofHours(1), RateLimitFields.IETF), this.clock.nanoTime());
		RetryAfterInterceptor interceptor = Interceptors.create(clients, this.listener, cooldowns,
				new RetryBudgets(clients, counting), this.sleeper, counting, this.clock, MIDDLE);
		int beforeCall = counting.reads();

		Result result = kind.create(interceptor).get(this.server.uri("/report"));

		// The first-attempt shortcut: the quota of quota.example holds nothing sent to 127.0.0.1.
		assertThat(result.body()).isEqualTo("ready");
		assertThat(counting.reads() - beforeCall).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenASuccessCarriesRetryAfterThenItsParsedFieldIsReported(Kind kind) {
		this.server.on("/report", Reply.status(200).header("Retry-After", "7").body("ready"));

		Result result = kind.create(interceptor()).get(this.server.uri("/report"));

		assertThat(result.body()).isEqualTo("ready");
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				response(200, seconds(7)), new RetryDecision.Stop(StopReason.SUCCESS)));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenAStatusIsNotRetryableThenItIsReportedAndReturnedAsReceived(Kind kind) {
		this.server.on("/missing", Reply.status(404).body("no such item"));

		Result result = kind.create(interceptor()).get(this.server.uri("/missing"));

		assertThat(result.status()).isEqualTo(404);
		assertThat(result.body()).isEqualTo("no such item");
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				response(404, RetryAfter.ABSENT), new RetryDecision.Stop(StopReason.NOT_RETRYABLE)));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenAnInterceptorFurtherDownAddsAnIdempotencyKeyToAPostThenThePostIsStillNotRepeated(Kind kind) {
		this.server.on("/orders", Reply.status(503).header("Retry-After", "1"), Reply.status(201));
		ClientHttpRequestInterceptor keying = (request, body, execution) -> {
			request.getHeaders().set("Idempotency-Key", "late-key");
			return execution.execute(request, body);
		};

		Result result = kind.create(interceptor(), keying)
			.call(HttpMethod.POST, this.server.uri("/orders"), new HttpHeaders(), bytes("42"), none());

		assertThat(result.status()).isEqualTo(503);
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.server.requests().get(0).header("Idempotency-Key")).isEqualTo("late-key");
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "POST", 1,
				response(503, seconds(1)), new RetryDecision.Stop(StopReason.NON_IDEMPOTENT)));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenAnInterceptorFurtherDownRemovesTheIdempotencyKeyOfAPostThenThePostIsStillRepeated(Kind kind) {
		this.server.on("/orders", Reply.status(503).header("Retry-After", "1"), Reply.status(201).body("created"));
		AtomicInteger sends = new AtomicInteger();
		ClientHttpRequestInterceptor unkeying = (request, body, execution) -> {
			sends.incrementAndGet();
			request.getHeaders().remove("Idempotency-Key");
			return execution.execute(request, body);
		};
		HttpHeaders headers = new HttpHeaders();
		headers.add("Idempotency-Key", "order-42");

		Result result = kind.create(interceptor(), unkeying)
			.call(HttpMethod.POST, this.server.uri("/orders"), headers, bytes("42"), none());

		assertThat(result.status()).isEqualTo(201);
		assertThat(result.body()).isEqualTo("created");
		assertThat(sends).hasValue(2);
		assertThat(this.server.requests()).extracting(RecordedRequest::bodyText).containsExactly("42", "42");
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(1));
	}

	@ParameterizedTest
	@EnumSource(value = Kind.class, names = { "REST_CLIENT_JDK", "REST_CLIENT_SIMPLE" })
	void whenAnInterceptorFurtherDownMarksAGetNotIdempotentThenTheMarkReadBeforeSendingDecides(Kind kind) {
		this.server.on("/counter", Reply.status(503).header("Retry-After", "1"), Reply.status(200).body("ready"));
		ClientHttpRequestInterceptor marking = (request, body, execution) -> {
			request.getAttributes().put(RetryAfterAttributes.IDEMPOTENT, false);
			return execution.execute(request, body);
		};

		Result result = kind.create(interceptor(), marking).get(this.server.uri("/counter"));

		assertThat(result.status()).isEqualTo(200);
		assertThat(this.server.requests()).hasSize(2);
	}

	@ParameterizedTest
	@EnumSource(value = Kind.class, names = { "REST_CLIENT_JDK", "REST_CLIENT_SIMPLE" })
	void whenAnInterceptorFurtherDownMarksAPostIdempotentThenTheMarkReadBeforeSendingDecides(Kind kind) {
		this.server.on("/orders", Reply.status(503).header("Retry-After", "1"), Reply.status(201));
		ClientHttpRequestInterceptor marking = (request, body, execution) -> {
			request.getAttributes().put(RetryAfterAttributes.IDEMPOTENT, true);
			return execution.execute(request, body);
		};

		Result result = kind.create(interceptor(), marking)
			.call(HttpMethod.POST, this.server.uri("/orders"), new HttpHeaders(), bytes("42"), none());

		assertThat(result.status()).isEqualTo(503);
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "POST", 1,
				response(503, seconds(1)), new RetryDecision.Stop(StopReason.NON_IDEMPOTENT)));
	}

	private RetryAfterInterceptor interceptor() {
		return Interceptors.create(ClientSettingsCatalog.of(NO_JITTER), this.listener, this.sleeper, this.clock,
				this.clock, MIDDLE);
	}

	private static AttemptOutcome.Response response(int status, RetryAfter retryAfter) {
		return new AttemptOutcome.Response(status, retryAfter);
	}

	private static RetryAfter.Delay seconds(long seconds) {
		return new RetryAfter.Delay(Duration.ofSeconds(seconds), RetryAfter.Form.SECONDS);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static Consumer<Map<String, Object>> none() {
		return (attributes) -> {
		};
	}

	/**
	 * A monotonic clock that counts how often it is read.
	 */
	private static final class CountingMonotonicClock implements MonotonicClock {

		private final MonotonicClock delegate;

		private final AtomicInteger reads = new AtomicInteger();

		CountingMonotonicClock(MonotonicClock delegate) {
			this.delegate = delegate;
		}

		@Override
		public long nanoTime() {
			this.reads.incrementAndGet();
			return this.delegate.nanoTime();
		}

		int reads() {
			return this.reads.get();
		}

	}

}
