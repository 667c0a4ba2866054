package dev.retryafter.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import java.util.stream.Stream;

import dev.retryafter.api.RetryAfterAttributes;
import dev.retryafter.api.RetryInterruptedException;
import dev.retryafter.api.RetryRefusedException;
import dev.retryafter.client.HttpCaller.Kind;
import dev.retryafter.client.HttpCaller.Result;
import dev.retryafter.client.HttpCaller.Transport;
import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.DelaySource;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.OnInvalidRetryAfter;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.Sleeper;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.DateReference;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.LoopbackHttpServer;
import dev.retryafter.testsupport.LoopbackHttpServer.RecordedRequest;
import dev.retryafter.testsupport.LoopbackHttpServer.Reply;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.AttemptCompleted;
import dev.retryafter.testsupport.RecordingListener.StoppedWithoutAttempt;
import dev.retryafter.testsupport.RecordingListener.Waited;
import dev.retryafter.testsupport.RecordingSleeper;
import dev.retryafter.testsupport.TrackingRequestFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * End-to-end tests of {@link RetryAfterInterceptor}: real requests through a
 * {@code RestClient} or {@code RestTemplate} (JDK and {@code HttpURLConnection} transports) to
 * a scripted server on 127.0.0.1, with a fake clock and a recording sleeper, so nothing waits
 * for real except where a transport's own timeout is the point.
 */
class RetryAfterInterceptorTests {

	private static final Duration ONE_SECOND = Duration.ofSeconds(1);

	/** Without jitter a wait is exactly its base, whatever the random source. */
	private static final RetrySettings NO_JITTER = RetrySettings.defaults().withJitter(0);

	/** Always the middle of the range: {@code nextDouble()} is 0.5. */
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
		Thread.interrupted();
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenTooManyRequestsWithRetryAfterSecondsThenWaitsThatLongAndRetriesOnce(Kind kind) {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3").body("slow down"),
				Reply.status(200).body("ready"));

		Result result = kind.create(interceptor(NO_JITTER)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(200);
		assertThat(result.body()).isEqualTo("ready");
		assertThat(this.server.requests()).hasSize(2);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(3));
		assertThat(this.listener.events()).containsExactly(
				new AttemptCompleted("default", "GET", 1, response(429, seconds(3)),
						new RetryDecision.Retry(Duration.ofSeconds(3), Duration.ofSeconds(3),
								DelaySource.RETRY_AFTER_SECONDS)),
				new Waited("default", Duration.ofSeconds(3), Duration.ofSeconds(3)),
				new AttemptCompleted("default", "GET", 2, response(200, RetryAfter.ABSENT),
						new RetryDecision.Stop(StopReason.SUCCESS)));
	}

	@Test
	void whenJitterIsOnThenWaitIsServerDelayPlusJitterFromTheRandomSource() {
		this.server.on("/report", Reply.status(429).header("Retry-After", "3"), Reply.status(200));
		RetryAfterInterceptor interceptor = Interceptors.create(ClientSettingsCatalog.of(RetrySettings.defaults()),
				this.listener, this.sleeper, this.clock, this.clock, MIDDLE);

		Result result = Kind.REST_CLIENT_JDK.create(interceptor).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(200);
		assertThat(this.server.requests()).hasSize(2);
		// base 3 s + 0.5 x (0.2 x 3 s)
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofMillis(3300));
	}

	static Stream<Arguments> dateForms() {
		List<Arguments> arguments = new ArrayList<>();
		for (Transport transport : Transport.values()) {
			arguments.add(arguments(transport, "IMF-fixdate", "Tue, 08 Sep 2026 11:00:07 GMT"));
			arguments.add(arguments(transport, "RFC 850", "Tuesday, 08-Sep-26 11:00:07 GMT"));
			arguments.add(arguments(transport, "asctime", "Tue Sep  8 11:00:07 2026"));
		}
		return arguments.stream();
	}

	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("dateForms")
	void whenServiceUnavailableWithRetryAfterDateThenWaitIsMeasuredAgainstTheServerDate(Transport transport,
			String form, String date) {
		// The server's clock is an hour behind the local one: only its own Date field gives 7 s.
		this.server.on("/report",
				Reply.status(503).header("Date", "Tue, 08 Sep 2026 11:00:00 GMT").header("Retry-After", date),
				Reply.status(200));

		Result result = restClient(transport, interceptor(NO_JITTER)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(200);
		assertThat(this.server.requests()).hasSize(2);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(7));
		assertThat(this.listener.attempts().get(0)).isEqualTo(new AttemptCompleted("default", "GET", 1,
				response(503, new RetryAfter.Delay(Duration.ofSeconds(7), RetryAfter.Form.DATE)),
				new RetryDecision.Retry(Duration.ofSeconds(7), Duration.ofSeconds(7), DelaySource.RETRY_AFTER_DATE)));
	}

	@Test
	void whenDateReferenceIsLocalClockThenAServerDateInTheLocalPastMeansNoServerDelay() {
		this.server.on("/report",
				Reply.status(503)
					.header("Date", "Tue, 08 Sep 2026 11:00:00 GMT")
					.header("Retry-After", "Tue, 08 Sep 2026 11:00:07 GMT"),
				Reply.status(200));
		RetrySettings localClock = NO_JITTER.withHeader(new RetrySettings.Header(Duration.ofSeconds(60),
				OnInvalidRetryAfter.BACKOFF, DateReference.LOCAL_CLOCK));

		Kind.REST_CLIENT_JDK.create(interceptor(localClock)).get(this.server.uri("/report"));

		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND);
		assertThat(this.listener.attempts().get(0).decision())
			.isEqualTo(new RetryDecision.Retry(ONE_SECOND, ONE_SECOND, DelaySource.BACKOFF));
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenRetryAfterIsInvalidThenFallsBackToBackoff(Transport transport) {
		this.server.on("/report", Reply.status(503).header("Retry-After", "soon"), Reply.status(200));

		Result result = restClient(transport, interceptor(NO_JITTER)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(200);
		assertThat(this.server.requests()).hasSize(2);
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND);
		AttemptCompleted first = this.listener.attempts().get(0);
		assertThat(((AttemptOutcome.Response) first.outcome()).retryAfter()).isInstanceOf(RetryAfter.Invalid.class);
		assertThat(first.decision()).isEqualTo(new RetryDecision.Retry(ONE_SECOND, ONE_SECOND, DelaySource.BACKOFF));
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenRetryAfterHasTwoFieldLinesThenInvalidAndFallsBackToBackoff(Transport transport) {
		this.server.on("/report", Reply.status(503).header("Retry-After", "1").header("Retry-After", "2"),
				Reply.status(200));

		restClient(transport, interceptor(NO_JITTER)).get(this.server.uri("/report"));

		assertThat(this.server.requests()).hasSize(2);
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND);
		AttemptCompleted first = this.listener.attempts().get(0);
		assertThat(((AttemptOutcome.Response) first.outcome()).retryAfter()).isInstanceOf(RetryAfter.Invalid.class);
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenRetryAfterIsHugeThenAbandonsAtOnceAndReturnsTheResponseUnchanged(Kind kind) {
		this.server.on("/report", Reply.status(503).header("Retry-After", "9".repeat(5000)).body("down"));

		Result result = kind.create(interceptor(NO_JITTER)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(503);
		assertThat(result.body()).isEqualTo("down");
		assertThat(result.headers().getFirst("Retry-After")).isEqualTo("9".repeat(5000));
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				response(503, new RetryAfter.Delay(RetryAfter.MAX_DELAY, RetryAfter.Form.SECONDS)),
				new RetryDecision.Stop(StopReason.RETRY_AFTER_TOO_LONG)));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenPostGetsServiceUnavailableThenSentOnce(Kind kind) {
		this.server.on("/orders", Reply.status(503).header("Retry-After", "1").body("busy"));

		Result result = kind.create(interceptor(NO_JITTER))
			.call(HttpMethod.POST, this.server.uri("/orders"), new HttpHeaders(), bytes("{\"id\":42}"), none());

		assertThat(result.status()).isEqualTo(503);
		assertThat(result.body()).isEqualTo("busy");
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "POST", 1,
				response(503, seconds(1)), new RetryDecision.Stop(StopReason.NON_IDEMPOTENT)));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenPostCarriesIdempotencyKeyThenReplayedWithTheSameKeyAndBody(Kind kind) {
		this.server.on("/orders", Reply.status(503).header("Retry-After", "2"), Reply.status(201).body("created"));
		HttpHeaders headers = new HttpHeaders();
		headers.add("Idempotency-Key", "order-42");
		byte[] body = bytes("{\"id\":42,\"note\":\"\u00e9t\u00e9\"}");

		Result result = kind.create(interceptor(NO_JITTER))
			.call(HttpMethod.POST, this.server.uri("/orders"), headers, body, none());

		assertThat(result.status()).isEqualTo(201);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(2));
		List<RecordedRequest> requests = this.server.requests();
		assertThat(requests).hasSize(2);
		assertThat(requests).extracting(RecordedRequest::method).containsExactly("POST", "POST");
		assertThat(requests).extracting((request) -> request.header("Idempotency-Key"))
			.containsExactly("order-42", "order-42");
		assertThat(requests.get(0).body()).isEqualTo(body);
		assertThat(requests.get(1).body()).isEqualTo(body);
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenPostIsMarkedIdempotentThenReplayed(Kind kind) {
		this.server.on("/orders", Reply.status(503), Reply.status(200));

		Result result = kind.create(interceptor(NO_JITTER))
			.call(HttpMethod.POST, this.server.uri("/orders"), new HttpHeaders(), bytes("42"),
					RetryAfterAttributes.idempotent());

		assertThat(result.status()).isEqualTo(200);
		assertThat(this.server.requests()).extracting(RecordedRequest::bodyText).containsExactly("42", "42");
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND);
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenGetIsMarkedNotIdempotentThenSentOnce(Kind kind) {
		this.server.on("/counter", Reply.status(503).header("Retry-After", "1"));

		Result result = kind.create(interceptor(NO_JITTER))
			.call(HttpMethod.GET, this.server.uri("/counter"), new HttpHeaders(), new byte[0],
					(attributes) -> attributes.put(RetryAfterAttributes.IDEMPOTENT, false));

		assertThat(result.status()).isEqualTo(503);
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				response(503, seconds(1)), new RetryDecision.Stop(StopReason.NON_IDEMPOTENT)));
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenPostTimesOutReadingThenSentOnceAndTheTimeoutReachesTheCaller(Transport transport) {
		this.server.on("/warm-up", Reply.status(200));
		this.server.on("/orders", Reply.status(201).after(Duration.ofSeconds(30)));
		HttpCaller caller = restClient(transport, interceptor(NO_JITTER), shortReadTimeout(transport));
		// The JDK client's first use is slow to start, and its read timeout runs from the
		// moment the request is handed over: start it before the timed request.
		caller.get(this.server.uri("/warm-up"));

		assertThatExceptionOfType(ResourceAccessException.class).isThrownBy(() -> caller
			.call(HttpMethod.POST, this.server.uri("/orders"), new HttpHeaders(), bytes("42"), none()))
			.withCauseInstanceOf((transport == Transport.JDK) ? HttpTimeoutException.class
					: SocketTimeoutException.class);

		assertThat(this.server.requests()).extracting(RecordedRequest::path).containsExactly("/warm-up", "/orders");
		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.attempts()).last()
			.isEqualTo(new AttemptCompleted("default", "POST", 1,
					new AttemptOutcome.IoFailure(IoFailureKind.READ_TIMEOUT),
					new RetryDecision.Stop(StopReason.NON_IDEMPOTENT)));
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenGetTimesOutReadingThenRetriedAfterBackoff(Transport transport) {
		this.server.on("/warm-up", Reply.status(200));
		this.server.on("/report", Reply.status(200).body("late").after(Duration.ofSeconds(30)),
				Reply.status(200).body("ready"));
		HttpCaller caller = restClient(transport, interceptor(NO_JITTER), shortReadTimeout(transport));
		caller.get(this.server.uri("/warm-up"));

		Result result = caller.get(this.server.uri("/report"));

		assertThat(result.body()).isEqualTo("ready");
		assertThat(this.server.requests()).extracting(RecordedRequest::path)
			.containsExactly("/warm-up", "/report", "/report");
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND);
		assertThat(this.listener.attempts()).extracting(AttemptCompleted::outcome)
			.containsExactly(response(200, RetryAfter.ABSENT),
					new AttemptOutcome.IoFailure(IoFailureKind.READ_TIMEOUT), response(200, RetryAfter.ABSENT));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenConnectionIsRefusedThenRetriedUntilMaxAttemptsAndTheLastExceptionIsRethrown(Kind kind)
			throws IOException {
		URI closedPort = closedPortUri();

		assertThatExceptionOfType(ResourceAccessException.class)
			.isThrownBy(() -> kind.create(interceptor(NO_JITTER))
				.call(HttpMethod.POST, closedPort, new HttpHeaders(), bytes("42"), none()))
			.withCauseInstanceOf(ConnectException.class);

		AttemptOutcome refused = new AttemptOutcome.IoFailure(IoFailureKind.CONNECT_REFUSED);
		assertThat(this.listener.events()).containsExactly(
				new AttemptCompleted("default", "POST", 1, refused,
						new RetryDecision.Retry(ONE_SECOND, ONE_SECOND, DelaySource.BACKOFF)),
				new Waited("default", ONE_SECOND, ONE_SECOND),
				new AttemptCompleted("default", "POST", 2, refused,
						new RetryDecision.Retry(Duration.ofSeconds(2), Duration.ofSeconds(2), DelaySource.BACKOFF)),
				new Waited("default", Duration.ofSeconds(2), Duration.ofSeconds(2)),
				new AttemptCompleted("default", "POST", 3, refused, new RetryDecision.Stop(StopReason.MAX_ATTEMPTS)));
		assertThat(this.sleeper.sleeps()).containsExactly(ONE_SECOND, Duration.ofSeconds(2));
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenHostIsUnknownThenNotRetried(Transport transport) {
		assertThatExceptionOfType(ResourceAccessException.class)
			.isThrownBy(() -> restClient(transport, interceptor(NO_JITTER))
				.get(URI.create("http://retry-after-test.invalid/report")))
			.withCauseInstanceOf((transport == Transport.JDK) ? ConnectException.class : UnknownHostException.class);

		assertThat(this.sleeper.sleeps()).isEmpty();
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				new AttemptOutcome.IoFailure(IoFailureKind.UNKNOWN_HOST),
				new RetryDecision.Stop(StopReason.NOT_RETRYABLE)));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenRetriedThenEveryDownstreamInterceptorRunsOncePerAttempt(Kind kind) {
		this.server.on("/report", Reply.status(429), Reply.status(503), Reply.status(200));
		AtomicInteger calls = new AtomicInteger();
		ClientHttpRequestInterceptor stamping = (request, body, execution) -> {
			request.getHeaders().set("X-Attempt", Integer.toString(calls.incrementAndGet()));
			return execution.execute(request, body);
		};

		Result result = kind.create(interceptor(NO_JITTER), stamping).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(200);
		assertThat(calls).hasValue(3);
		assertThat(this.server.requests()).extracting((request) -> request.header("X-Attempt"))
			.containsExactly("1", "2", "3");
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenRetriedThenEachFailedResponseIsClosedBeforeTheWait(Kind kind) {
		this.server.on("/report", Reply.status(503).body("busy"), Reply.status(429).body("slow down"),
				Reply.status(200).body("ready"));
		List<String> events = Collections.synchronizedList(new ArrayList<>());
		Sleeper logging = (duration) -> {
			events.add("sleep " + duration);
			this.sleeper.sleep(duration);
		};
		RetryAfterInterceptor interceptor = Interceptors.create(ClientSettingsCatalog.of(NO_JITTER), this.listener,
				logging, this.clock, this.clock, MIDDLE);

		Result result = kind.create(interceptor, (factory) -> new TrackingRequestFactory(factory, events))
			.get(this.server.uri("/report"));

		assertThat(result.body()).isEqualTo("ready");
		assertThat(events).containsExactly("response 1", "close 1", "sleep PT1S", "response 2", "close 2",
				"sleep PT2S", "response 3", "close 3");
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenInterruptedWhileWaitingThenStopsAtOnceWithInterruptedIOExceptionAndTheFlagRestored(Transport transport)
			throws InterruptedException {
		this.server.on("/report", Reply.status(503).header("Retry-After", "5"), Reply.status(200));
		CountDownLatch waiting = new CountDownLatch(1);
		Sleeper blocking = (duration) -> {
			waiting.countDown();
			new CountDownLatch(1).await();
		};
		RetryAfterInterceptor interceptor = Interceptors.create(ClientSettingsCatalog.of(NO_JITTER), this.listener,
				blocking, this.clock, this.clock, MIDDLE);
		HttpCaller caller = restClient(transport, interceptor);
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		AtomicBoolean interruptedAfterwards = new AtomicBoolean();
		Thread calling = new Thread(() -> {
			try {
				caller.get(this.server.uri("/report"));
			}
			catch (Throwable ex) {
				thrown.set(ex);
			}
			interruptedAfterwards.set(Thread.currentThread().isInterrupted());
		});

		calling.start();
		assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
		calling.interrupt();
		calling.join(10_000);

		assertThat(calling.isAlive()).isFalse();
		assertThat(thrown.get()).isInstanceOf(ResourceAccessException.class)
			.cause()
			.isInstanceOf(InterruptedIOException.class)
			.isInstanceOf(RetryInterruptedException.class)
			.hasMessage("Retry of GET request to http://127.0.0.1:" + this.server.port()
					+ " interrupted while waiting 5.0s before the next attempt")
			.cause()
			.isInstanceOf(InterruptedException.class);
		assertThat(interruptedAfterwards).isTrue();
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.listener.events()).containsExactly(
				new AttemptCompleted("default", "GET", 1, response(503, seconds(5)),
						new RetryDecision.Retry(Duration.ofSeconds(5), Duration.ofSeconds(5),
								DelaySource.RETRY_AFTER_SECONDS)),
				new StoppedWithoutAttempt("default", "GET", StopReason.INTERRUPTED));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenTheWaitOverranTheWholeBudgetThenTheLastResponseIsReturnedWithoutSending(Kind kind) {
		this.server.on("/report", Reply.status(503).header("Retry-After", "3").body("busy"), Reply.status(200));
		// Planned 3 s of a 10 s budget; the thread wakes up 7 s late: nothing is left.
		Sleeper late = overrunning(Duration.ofSeconds(7));

		Result result = kind.create(interceptor(NO_JITTER, late)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(503);
		assertThat(result.body()).isEqualTo("busy");
		assertThat(result.headers().getFirst("Retry-After")).isEqualTo("3");
		assertThat(this.server.requests()).hasSize(1);
		assertThat(this.listener.events()).containsExactly(
				new AttemptCompleted("default", "GET", 1, response(503, seconds(3)),
						new RetryDecision.Retry(Duration.ofSeconds(3), Duration.ofSeconds(3),
								DelaySource.RETRY_AFTER_SECONDS)),
				new Waited("default", Duration.ofSeconds(3), Duration.ofSeconds(10)),
				new StoppedWithoutAttempt("default", "GET", StopReason.BUDGET_EXHAUSTED));
	}

	@Test
	void whenTheWaitOverranIntoTheReserveOnlyThenTheAttemptIsStillSent() {
		this.server.on("/report", Reply.status(503).header("Retry-After", "3"), Reply.status(200));
		// 3 s + 6.9 s = 9.9 s of the 10 s budget: the overrun ate most of the 500 ms reserve.
		Sleeper late = overrunning(Duration.ofMillis(6900));

		Result result = Kind.REST_CLIENT_JDK.create(interceptor(NO_JITTER, late)).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(200);
		assertThat(this.server.requests()).hasSize(2);
		assertThat(this.listener.events())
			.contains(new Waited("default", Duration.ofSeconds(3), Duration.ofMillis(9900)))
			.doesNotHaveAnyElementsOfTypes(StoppedWithoutAttempt.class);
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenTheWaitOverranTheBudgetAfterAResponseTooLargeToKeepThenRefused(Transport transport) {
		byte[] large = new byte[65_537];
		this.server.on("/report", Reply.status(503).header("Retry-After", "3").body(large), Reply.status(200));

		assertThatExceptionOfType(ResourceAccessException.class)
			.isThrownBy(() -> restClient(transport, interceptor(NO_JITTER, overrunning(Duration.ofSeconds(8))))
				.get(this.server.uri("/report")))
			.havingCause()
			.isInstanceOf(RetryRefusedException.class)
			.withMessage("Request to http://127.0.0.1:" + this.server.port()
					+ " not sent: budget-exhausted, 0.0s left");
		assertThat(this.server.requests()).hasSize(1);
	}

	@ParameterizedTest
	@EnumSource(Transport.class)
	void whenTheWaitOverranTheBudgetAfterAConnectionFailureThenThatFailureIsRethrown(Transport transport)
			throws IOException {
		URI closedPort = closedPortUri();

		assertThatExceptionOfType(ResourceAccessException.class)
			.isThrownBy(() -> restClient(transport, interceptor(NO_JITTER, overrunning(Duration.ofSeconds(9))))
				.get(closedPort))
			.withCauseInstanceOf(ConnectException.class);
		assertThat(this.listener.events()).hasSize(3)
			.last()
			.isEqualTo(new StoppedWithoutAttempt("default", "GET", StopReason.BUDGET_EXHAUSTED));
	}

	@Test
	void whenHostBelongsToANamedClientThenItsNameAndSettingsApply() {
		this.server.on("/report", Reply.status(503), Reply.status(200));
		RetrySettings orders = NO_JITTER.withMaxAttempts(1);
		ClientSettingsCatalog clients = new ClientSettingsCatalog(NO_JITTER,
				Map.of("orders", new ClientSettingsCatalog.NamedClient(Set.of("127.0.0.1"), orders)));
		RetryAfterInterceptor interceptor = Interceptors.create(clients, this.listener, this.sleeper,
				this.clock, this.clock, MIDDLE);

		Result result = Kind.REST_CLIENT_JDK.create(interceptor).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(503);
		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("orders", "GET", 1,
				response(503, RetryAfter.ABSENT), new RetryDecision.Stop(StopReason.MAX_ATTEMPTS)));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenNoResponseCarriesRetryAfterThenTheWallClockIsNeverRead(Kind kind) {
		this.server.on("/report", Reply.status(503).header("Date", "Tue, 08 Sep 2026 11:00:00 GMT"),
				Reply.status(200).body("ready"));
		CountingClock wallClock = new CountingClock(this.clock);
		RetryAfterInterceptor interceptor = Interceptors.create(ClientSettingsCatalog.of(NO_JITTER), this.listener,
				this.sleeper, this.clock, wallClock, MIDDLE);

		Result result = kind.create(interceptor).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(200);
		assertThat(wallClock.reads()).isZero();
		assertThat(this.listener.attempts()).extracting(AttemptCompleted::outcome)
			.containsExactly(response(503, RetryAfter.ABSENT), response(200, RetryAfter.ABSENT));
	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	void whenAResponseCarriesRetryAfterThenTheWallClockIsReadOnceForIt(Kind kind) {
		this.server.on("/report", Reply.status(429).header("retry-after", "2"), Reply.status(200).body("ready"));
		CountingClock wallClock = new CountingClock(this.clock);
		RetryAfterInterceptor interceptor = Interceptors.create(ClientSettingsCatalog.of(NO_JITTER), this.listener,
				this.sleeper, this.clock, wallClock, MIDDLE);

		Result result = kind.create(interceptor).get(this.server.uri("/report"));

		assertThat(result.status()).isEqualTo(200);
		assertThat(wallClock.reads()).isEqualTo(1);
		assertThat(this.sleeper.sleeps()).containsExactly(Duration.ofSeconds(2));
	}

	private RetryAfterInterceptor interceptor(RetrySettings settings) {
		return interceptor(settings, this.sleeper);
	}

	private RetryAfterInterceptor interceptor(RetrySettings settings, Sleeper sleeper) {
		return Interceptors.create(ClientSettingsCatalog.of(settings), this.listener, sleeper, this.clock, this.clock,
				MIDDLE);
	}

	/** Advances the fake clock by the planned wait plus {@code overrun}, as a late wake-up. */
	private Sleeper overrunning(Duration overrun) {
		return (duration) -> this.sleeper.sleep(duration.plus(overrun));
	}

	private static HttpCaller restClient(Transport transport, RetryAfterInterceptor interceptor) {
		return (transport == Transport.JDK) ? Kind.REST_CLIENT_JDK.create(interceptor)
				: Kind.REST_CLIENT_SIMPLE.create(interceptor);
	}

	private static HttpCaller restClient(Transport transport, RetryAfterInterceptor interceptor,
			ClientHttpRequestFactory factory) {
		return (transport == Transport.JDK) ? Kind.REST_CLIENT_JDK.create(interceptor, factory)
				: Kind.REST_CLIENT_SIMPLE.create(interceptor, factory);
	}

	private static ClientHttpRequestFactory shortReadTimeout(Transport transport) {
		Duration timeout = Duration.ofMillis(500);
		if (transport == Transport.JDK) {
			JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory();
			factory.setReadTimeout(timeout);
			return factory;
		}
		SimpleClientHttpRequestFactory factory = new SimpleClientHttpRequestFactory();
		factory.setReadTimeout(timeout);
		return factory;
	}

	private static URI closedPortUri() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/report");
		}
	}

	/**
	 * A wall clock that counts how often it is read.
	 */
	private static final class CountingClock extends Clock {

		private final Clock delegate;

		private final AtomicInteger reads = new AtomicInteger();

		CountingClock(Clock delegate) {
			this.delegate = delegate;
		}

		int reads() {
			return this.reads.get();
		}

		@Override
		public Instant instant() {
			this.reads.incrementAndGet();
			return this.delegate.instant();
		}

		@Override
		public ZoneId getZone() {
			return this.delegate.getZone();
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException("not needed");
		}

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

}
