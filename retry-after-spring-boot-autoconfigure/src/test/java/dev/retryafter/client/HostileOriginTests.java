package dev.retryafter.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import dev.retryafter.client.HttpCaller.Kind;
import dev.retryafter.client.HttpCaller.Result;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.DelaySource;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.AttemptCompleted;
import dev.retryafter.testsupport.RecordingListener.StoppedWithoutAttempt;
import dev.retryafter.testsupport.RecordingSleeper;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.config.Http1Config;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A hostile or broken origin on 127.0.0.1 against a {@code RestClient} on each transport
 * Spring Boot may pick (JDK {@code HttpClient}, {@code HttpURLConnection}, Apache HttpClient
 * 5): bodies that never end, absurd {@code Retry-After} values, connections cut in the
 * middle of a response, servers that never recover, and a caller whose thread is already
 * interrupted. Each must end with a clear outcome and exact counts: no hang, no overflow, no
 * busy loop and no second copy of a request that must not be repeated. Waits go through a
 * recording sleeper on a fake clock.
 */
class HostileOriginTests {

	private static final Duration ONE_SECOND = Duration.ofSeconds(1);

	/** Longer than any test here may take: a hang fails instead of blocking the build. */
	private static final Duration HANG = Duration.ofSeconds(20);

	private static final RetrySettings NO_JITTER = RetrySettings.defaults().withJitter(0);

	private static final AttemptOutcome OTHER_FAILURE = new AttemptOutcome.IoFailure(IoFailureKind.OTHER);

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
		Thread.interrupted();
		this.server.close();
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenA503BodyNeverEndsThenTheCopyStopsAtItsCapTheConnectionIsDroppedAndTheRetryIsSent(Transport transport) {
		Reply endless = Reply.endlessBody(503).header("Retry-After", "1");
		this.server.on("/report", endless, Reply.status(200).body("ready"));

		Result result = assertTimeoutPreemptively(HANG,
				() -> transport.caller(interceptor(NO_JITTER)).get(this.server.uri("/report")));

		assertThat(result.status()).isEqualTo(200);
		assertThat(result.body()).isEqualTo("ready");
		assertThat(this.server.requests()).hasSize(2);
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND);
		// The server sees the dropped connection on its next write, a moment after the client
		// has moved on: wait for that, boundedly.
		await().atMost(Duration.ofSeconds(10)).until(endless::abandonedByClient);
		// The copy keeps 64 KiB; the rest is what socket buffers held when the client let go.
		assertThat(endless.bytesWritten()).isLessThan(32L * 1024 * 1024);
	}

	/**
	 * A body that stops arriving holds the copy before the retry only as long as the
	 * transport's read timeout allows; the retry then goes ahead without the body.
	 */
	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenA503BodyStallsThenTheCopyGivesUpAtTheReadTimeoutAndTheRetryIsSent(Transport transport) {
		this.server.on("/report", Reply.stalledBody(503, "partial", 1000).header("Retry-After", "1"),
				Reply.status(200).body("ready"));

		Result result = assertTimeoutPreemptively(HANG, () -> transport
			.caller(interceptor(NO_JITTER), Duration.ofMillis(500))
			.get(this.server.uri("/report")));

		assertThat(result.status()).isEqualTo(200);
		assertThat(result.body()).isEqualTo("ready");
		assertThat(this.server.requests()).hasSize(2);
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND);
	}

	/**
	 * HttpClient 5.6 refuses the field line before the interceptor sees the response (see
	 * {@link Transport#limitsFieldLines()}); every other transport hands the value over.
	 */
	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenRetryAfterIsAQuarterMegabyteOfDigitsThenAbandonsAtOnceAsTooLong(Transport transport) {
		String digits = "9".repeat(256 * 1024);
		this.server.on("/report", Reply.status(429).header("Retry-After", digits).body("later"));
		HttpCaller caller = transport.caller(interceptor(NO_JITTER));

		if (transport.limitsFieldLines()) {
			assertRefusedUntilMaxAttempts(caller, "Maximum line length limit exceeded", 3);
			return;
		}
		Result result = assertTimeoutPreemptively(HANG, () -> caller.get(this.server.uri("/report")));

		assertThat(result.status()).isEqualTo(429);
		assertThat(result.body()).isEqualTo("later");
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				response(429, new RetryAfter.Delay(RetryAfter.MAX_DELAY, RetryAfter.Form.SECONDS)),
				new RetryDecision.Stop(StopReason.RETRY_AFTER_TOO_LONG)));
	}

	/**
	 * HttpClient 5.6 refuses the field line as the JDK clients below do; HttpClient 5.5 hands
	 * the value over (see {@link Transport#limitsFieldLines()}).
	 */
	@Test
	void whenRetryAfterIsOneMegabyteOfDigitsThenHttpComponentsRefusesTheLineOrAbandonsAtOnceAsTooLong() {
		String digits = "9".repeat(1024 * 1024);
		this.server.on("/report", Reply.status(429).header("Retry-After", digits).body("later"));
		HttpCaller caller = Transport.HTTP_COMPONENTS.caller(interceptor(NO_JITTER));

		if (Transport.HTTP_COMPONENTS.limitsFieldLines()) {
			assertRefusedUntilMaxAttempts(caller, "Maximum line length limit exceeded", 3);
			return;
		}
		Result result = assertTimeoutPreemptively(HANG, () -> caller.get(this.server.uri("/report")));

		assertThat(result.status()).isEqualTo(429);
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.attempts()).extracting(AttemptCompleted::decision)
			.containsExactly(new RetryDecision.Stop(StopReason.RETRY_AFTER_TOO_LONG));
	}

	/**
	 * The JDK's two clients refuse a header section over 384 KiB ({@code jdk.http.maxHeaderSize})
	 * before the interceptor sees the response: an I/O failure after sending, which a GET may
	 * retry, so the interceptor makes exactly {@code max-attempts} attempts and the caller gets
	 * the last failure. {@code HttpURLConnection} itself sends a request without a streamed
	 * body once more when it cannot read the response head (there is no switch for it), so
	 * the origin sees two requests per attempt on that transport.
	 */
	@ParameterizedTest
	@EnumSource(value = Transport.class, names = { "JDK", "SIMPLE" })
	void whenRetryAfterIsOneMegabyteOfDigitsThenTheJdkClientsRefuseTheHeaderAndTheGetStopsAtMaxAttempts(
			Transport transport) {
		String digits = "9".repeat(1024 * 1024);
		this.server.on("/report", Reply.status(429).header("Retry-After", digits).body("later"));
		HttpCaller caller = transport.caller(interceptor(NO_JITTER));

		assertRefusedUntilMaxAttempts(caller, "Header size too big", (transport == Transport.SIMPLE) ? 6 : 3);
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenRetryAfterComesAsAThousandFieldLinesThenItIsInvalidAndTheRetryBacksOff(Transport transport) {
		Reply flooded = Reply.status(429);
		for (int i = 0; i < 1000; i++) {
			flooded.header("Retry-After", "1");
		}
		this.server.on("/report", flooded, Reply.status(200).body("ready"));

		Result result = transport.caller(interceptor(NO_JITTER)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(200);
		assertThat(this.server.requests()).hasSize(2);
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND);
		// HttpClient 5.6 refuses more than 100 field lines: an I/O failure after sending, which
		// backs off the same way.
		AttemptOutcome first = transport.limitsFieldLines() ? OTHER_FAILURE
				: response(429, new RetryAfter.Invalid("multiple Retry-After field lines"));
		assertThat(this.listener.attempts().get(0)).isEqualTo(new AttemptCompleted("default", "GET", 1, first,
				new RetryDecision.Retry(ONE_SECOND, ONE_SECOND, DelaySource.BACKOFF)));
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenRetryAfterHoldsControlOrNonAsciiBytesThenItIsInvalidAndTheRetryBacksOff(Transport transport) {
		// As ISO-8859-1 on the wire: a control character between digits (at either end a
		// transport may trim it), a Latin-1 letter, and the UTF-8 bytes of ARABIC-INDIC DIGIT
		// THREE.
		this.server.on("/report", Reply.status(503).header("Retry-After", "1\u00010"), Reply.status(503)
			.header("Retry-After", "\u00e9"), Reply.status(503).header("Retry-After", "\u00d9\u00a3"),
				Reply.status(200).body("ready"));

		RetrySettings settings = NO_JITTER.withMaxAttempts(4).withTotalBudget(Duration.ofSeconds(30));

		Result result = transport.caller(interceptor(settings)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(200);
		assertThat(this.server.requests()).hasSize(4);
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND, Duration.ofSeconds(2), Duration.ofSeconds(4));
		// The JDK client refuses a control character in a field value outright: an I/O
		// failure after sending, retried like the invalid values.
		AttemptOutcome first = (transport == Transport.JDK) ? OTHER_FAILURE : invalid(503);
		assertThat(this.listener.attempts()).extracting(AttemptCompleted::outcome)
			.containsExactly(first, invalid(503), invalid(503), response(200, RetryAfter.ABSENT));
	}

	/**
	 * {@code HttpURLConnection} takes the end of the stream as the end of the header section
	 * and hands over a 503; the other clients fail with an I/O error after sending. Either
	 * way the POST is sent once.
	 */
	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenTheConnectionClosesInTheMiddleOfTheHeadersOfAPostThenItIsSentOnce(Transport transport) {
		this.server.on("/orders", Reply.closeMidHeaders("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConte"),
				Reply.status(201));
		HttpCaller caller = transport.caller(interceptor(NO_JITTER));
		byte[] order = "{\"pay\":1}".getBytes(StandardCharsets.UTF_8);

		Throwable thrown = catchThrowable(() -> caller.call(HttpMethod.POST, this.server.uri("/orders"),
				new HttpHeaders(), order, (attributes) -> {
				}));

		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.server.requests().get(0).bodyText()).isEqualTo("{\"pay\":1}");
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.attempts()).hasSize(1);
		AttemptCompleted only = this.listener.attempts().get(0);
		assertThat(only.decision()).isEqualTo(new RetryDecision.Stop(StopReason.NON_IDEMPOTENT));
		if (transport == Transport.SIMPLE) {
			assertThat(thrown).isNull();
			assertThat(only.outcome()).isEqualTo(response(503, seconds(1)));
		}
		else {
			assertThat(thrown).isInstanceOf(ResourceAccessException.class);
			assertThat(only.outcome()).isInstanceOf(AttemptOutcome.IoFailure.class);
			assertThat(((AttemptOutcome.IoFailure) only.outcome()).kind().maybeSent()).isTrue();
		}
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenTheOriginAnswers503ForeverThenStopsAtExactlyMaxAttempts(Transport transport) {
		this.server.on("/report", Reply.status(503).body("down"));
		RetrySettings settings = NO_JITTER.withMaxAttempts(5).withTotalBudget(Duration.ofSeconds(60));

		Result result = transport.caller(interceptor(settings)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(503);
		assertThat(result.body()).isEqualTo("down");
		assertThat(this.server.requests()).hasSize(5);
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND, Duration.ofSeconds(2), Duration.ofSeconds(4),
				Duration.ofSeconds(8));
		assertThat(this.listener.attempts()).extracting(AttemptCompleted::attempt).containsExactly(1, 2, 3, 4, 5);
		assertThat(this.listener.attempts().get(4).decision())
			.isEqualTo(new RetryDecision.Stop(StopReason.MAX_ATTEMPTS));
	}

	@Test
	void whenRetryAfterIsZeroEveryTimeThenEachWaitIsStillTheLocalBackoff() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "0"));

		Result result = Transport.JDK.caller(interceptor(NO_JITTER)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(429);
		assertThat(this.server.requests()).hasSize(3);
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND, Duration.ofSeconds(2));
		assertThat(this.listener.attempts()).extracting(AttemptCompleted::decision)
			.containsExactly(new RetryDecision.Retry(ONE_SECOND, ONE_SECOND, DelaySource.BACKOFF),
					new RetryDecision.Retry(Duration.ofSeconds(2), Duration.ofSeconds(2), DelaySource.BACKOFF),
					new RetryDecision.Stop(StopReason.MAX_ATTEMPTS));
	}

	@Test
	void whenRetryAfterIsADateInTheYear9999ThenAbandonsAtOnceAsTooLong() {
		this.server.on("/report", Reply.status(503).header("Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT"));

		Result result = Transport.JDK.caller(interceptor(NO_JITTER)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(503);
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				response(503, new RetryAfter.Delay(RetryAfter.MAX_DELAY, RetryAfter.Form.DATE)),
				new RetryDecision.Stop(StopReason.RETRY_AFTER_TOO_LONG)));
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenTheCallingThreadIsAlreadyInterruptedThenNothingIsSentTwiceAndTheFlagIsKept(Transport transport)
			throws InterruptedException {
		this.server.on("/report", Reply.status(503).header("Retry-After", "1"), Reply.status(200));
		HttpCaller caller = transport.caller(interceptor(NO_JITTER));

		AtomicReference<Throwable> thrown = callOnItsOwnThread(caller, true);

		assertThat(this.sleeper.sleeps()).isEmpty();
		if (transport == Transport.HTTP_COMPONENTS) {
			// HttpClient 5 will not lease a connection to an interrupted thread, and Spring's
			// factory lets its CancellationException through as is: nothing was sent.
			assertThat(thrown.get()).isInstanceOf(CancellationException.class);
			assertThat(this.listener.events()).isEmpty();
			assertThat(this.server.requests()).isEmpty();
		}
		else {
			// HttpURLConnection sends regardless; the JDK client may or may not have sent
			// before it noticed. Either way the wait before a second attempt stops at once.
			assertThat(thrown.get()).isInstanceOf(ResourceAccessException.class)
				.cause()
				.isInstanceOf(InterruptedIOException.class);
			assertThat(this.listener.events()).last()
				.isEqualTo(new StoppedWithoutAttempt("default", "GET", StopReason.INTERRUPTED));
			assertThat(this.server.requests()).hasSizeLessThanOrEqualTo(1);
		}
	}

	/**
	 * The thread is interrupted as the answer arrives (as when the JDK client's response is
	 * complete before Spring waits for it, which then never looks at the flag). The copy of
	 * the answer kept for the wait must not clear the flag, as JDK 17's body stream does when
	 * read: the wait then stops at once, nothing is sent again, and the caller's flag is kept.
	 */
	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenTheThreadIsInterruptedAsTheAnswerArrivesThenTheRetryIsNotSentAndTheFlagIsKept(Transport transport)
			throws InterruptedException {
		this.server.on("/report", Reply.status(503).header("Retry-After", "1").body("busy"), Reply.status(200));
		ClientHttpRequestInterceptor interruptedOnAnswer = (request, body, execution) -> {
			ClientHttpResponse response = execution.execute(request, body);
			Thread.currentThread().interrupt();
			return response;
		};
		HttpCaller caller = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER), transport.factory.get(),
				interruptedOnAnswer);

		AtomicReference<Throwable> thrown = callOnItsOwnThread(caller, false);

		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.server.requests()).hasSize(1);
		assertThat(thrown.get()).isInstanceOf(ResourceAccessException.class)
			.cause()
			.isInstanceOf(InterruptedIOException.class);
		assertThat(this.listener.events()).last()
			.isEqualTo(new StoppedWithoutAttempt("default", "GET", StopReason.INTERRUPTED));
	}

	@Test
	void whenTheServerDelaysUseUpTheTotalBudgetThenStopsWithRetryAfterExceedsBudget() {
		this.server.on("/report", Reply.status(503).header("Retry-After", "4").body("busy"));
		RetrySettings settings = NO_JITTER.withMaxAttempts(10);

		Result result = Transport.JDK.caller(interceptor(settings)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(503);
		assertThat(result.body()).isEqualTo("busy");
		// 0 s, 4 s, 8 s: then 4 s + 500 ms reserve no longer fit the 2 s left of 10 s.
		assertThat(this.server.requests()).hasSize(3);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(4), Duration.ofSeconds(4));
		assertThat(this.listener.attempts().get(2).decision())
			.isEqualTo(new RetryDecision.Stop(StopReason.RETRY_AFTER_EXCEEDS_BUDGET));
	}

	@Test
	void whenTheBackoffUsesUpTheTotalBudgetThenStopsWithBudgetExhausted() {
		this.server.on("/report", Reply.status(503));
		RetrySettings settings = NO_JITTER.withMaxAttempts(10);

		Result result = Transport.JDK.caller(interceptor(settings)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(503);
		// 0 s, 1 s, 3 s, 7 s: then 8 s of backoff + 500 ms reserve no longer fit the 3 s left.
		assertThat(this.server.requests()).hasSize(4);
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND, Duration.ofSeconds(2), Duration.ofSeconds(4));
		assertThat(this.listener.attempts().get(3).decision())
			.isEqualTo(new RetryDecision.Stop(StopReason.BUDGET_EXHAUSTED));
	}

	/**
	 * The transport refused every response head before the interceptor saw it: an I/O failure
	 * after sending, which a GET retries until {@code max-attempts} (3), the caller getting the
	 * last failure.
	 */
	private void assertRefusedUntilMaxAttempts(HttpCaller caller, String message, int requests) {
		assertTimeoutPreemptively(HANG, () -> assertThatExceptionOfType(ResourceAccessException.class)
			.isThrownBy(() -> caller.get(this.server.uri("/report")))
			.withMessageContaining(message));

		assertThat(this.server.requests()).hasSize(requests);
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND, Duration.ofSeconds(2));
		assertThat(this.listener.attempts()).extracting(AttemptCompleted::outcome)
			.containsExactly(OTHER_FAILURE, OTHER_FAILURE, OTHER_FAILURE);
		assertThat(this.listener.attempts().get(2).decision())
			.isEqualTo(new RetryDecision.Stop(StopReason.MAX_ATTEMPTS));
	}

	/**
	 * Calls on a thread of its own (interrupted before the call when {@code interruptedFirst}),
	 * which must end within {@link #HANG} with its interrupt flag set.
	 * @return what the call threw, if anything
	 */
	private AtomicReference<Throwable> callOnItsOwnThread(HttpCaller caller, boolean interruptedFirst)
			throws InterruptedException {
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		AtomicBoolean interruptedAfterwards = new AtomicBoolean();
		Thread calling = new Thread(() -> {
			if (interruptedFirst) {
				Thread.currentThread().interrupt();
			}
			try {
				caller.get(this.server.uri("/report"));
			}
			catch (Throwable ex) {
				thrown.set(ex);
			}
			interruptedAfterwards.set(Thread.currentThread().isInterrupted());
		});
		calling.start();
		calling.join(HANG.toMillis());
		assertThat(calling.isAlive()).isFalse();
		assertThat(interruptedAfterwards).as("the calling thread's interrupt flag afterwards").isTrue();
		return thrown;
	}

	private RetryAfterInterceptor interceptor(RetrySettings settings) {
		return Interceptors.create(ClientSettingsCatalog.of(settings), this.listener, this.sleeper, this.clock, this.clock,
				() -> 0L);
	}

	private static AttemptOutcome.Response response(int status, RetryAfter retryAfter) {
		return new AttemptOutcome.Response(status, retryAfter);
	}

	private static RetryAfter.Delay seconds(long seconds) {
		return new RetryAfter.Delay(Duration.ofSeconds(seconds), RetryAfter.Form.SECONDS);
	}

	private static AttemptOutcome.Response invalid(int status) {
		return response(status, new RetryAfter.Invalid("not delay-seconds or an HTTP-date"));
	}

	/** The request factories Spring Boot may choose for a {@code RestClient}. */
	enum Transport {

		JDK(JdkClientHttpRequestFactory::new), SIMPLE(SimpleClientHttpRequestFactory::new),
		// HttpClient's own retries off, as the starter configures it: one retry layer.
		HTTP_COMPONENTS(() -> new HttpComponentsClientHttpRequestFactory(
				HttpClients.custom().disableAutomaticRetries().build()));

		private final Supplier<ClientHttpRequestFactory> factory;

		Transport(Supplier<ClientHttpRequestFactory> factory) {
			this.factory = factory;
		}

		/**
		 * Whether the transport refuses a response with a field line over 8192 characters or
		 * more than 100 field lines before any interceptor sees it. HttpClient 5.6 does by
		 * default (HttpCore 5.4's {@code Http1Config}; Spring Boot 4.1 manages both); HttpClient
		 * 5.5 (Spring Boot 4.0) has no such limits.
		 */
		boolean limitsFieldLines() {
			return this == HTTP_COMPONENTS && Http1Config.DEFAULT.getMaxLineLength() > 0
					&& Http1Config.DEFAULT.getMaxHeaderCount() > 0;
		}

		HttpCaller caller(RetryAfterInterceptor interceptor) {
			return Kind.REST_CLIENT_JDK.create(interceptor, this.factory.get());
		}

		HttpCaller caller(RetryAfterInterceptor interceptor, Duration readTimeout) {
			ClientHttpRequestFactory factory = this.factory.get();
			if (factory instanceof JdkClientHttpRequestFactory jdk) {
				jdk.setReadTimeout(readTimeout);
			}
			else if (factory instanceof SimpleClientHttpRequestFactory simple) {
				simple.setReadTimeout(readTimeout);
			}
			else if (factory instanceof HttpComponentsClientHttpRequestFactory httpComponents) {
				httpComponents.setReadTimeout(readTimeout);
			}
			return Kind.REST_CLIENT_JDK.create(interceptor, factory);
		}

	}

}
