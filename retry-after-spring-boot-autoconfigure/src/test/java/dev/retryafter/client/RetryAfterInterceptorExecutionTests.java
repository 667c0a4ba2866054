package dev.retryafter.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.DelaySource;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.ClientSettingsCatalog;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.RetrySettings;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import dev.retryafter.testsupport.FakeClock;
import dev.retryafter.testsupport.FixedRandom;
import dev.retryafter.testsupport.RecordingListener;
import dev.retryafter.testsupport.RecordingListener.AttemptCompleted;
import dev.retryafter.testsupport.RecordingSleeper;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.mock.http.client.MockClientHttpRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Tests of {@link RetryAfterInterceptor} against a scripted {@link ClientHttpRequestExecution}:
 * what the caller gets back is the very object the last attempt produced, and responses are
 * closed whenever the interceptor lets go of them.
 */
class RetryAfterInterceptorExecutionTests {

	private static final RetrySettings NO_JITTER = RetrySettings.defaults().withJitter(0);

	private final FakeClock clock = new FakeClock();

	private final RecordingSleeper sleeper = new RecordingSleeper(this.clock);

	private final RecordingListener listener = new RecordingListener();

	private final MockClientHttpRequest request = new MockClientHttpRequest(HttpMethod.GET,
			URI.create("http://127.0.0.1:8080/report"));

	private final byte[] body = new byte[0];

	@Test
	void whenAttemptsRunOutThenTheLastResponseIsReturnedAsReceivedAndEarlierOnesAreClosed() throws IOException {
		Script script = new Script(status(503), status(503), status(503));

		ClientHttpResponse result = interceptor(this.listener).intercept(this.request, this.body, script);

		assertThat(result).isSameAs(script.produced.get(2));
		assertThat(script.produced).extracting((response) -> response.closed).containsExactly(true, true, false);
		assertThat(this.listener.attempts()).last()
			.extracting(AttemptCompleted::decision)
			.isEqualTo(new RetryDecision.Stop(StopReason.MAX_ATTEMPTS));
	}

	@Test
	void whenEveryAttemptGetsTheSameRequestAndBodyObjects() throws IOException {
		byte[] payload = { 1, 2, 3 };
		List<Object[]> seen = new ArrayList<>();
		ClientHttpRequestExecution recording = (request, body) -> {
			seen.add(new Object[] { request, body });
			return (seen.size() < 3) ? status(503) : status(200);
		};

		interceptor(this.listener).intercept(this.request, payload, recording);

		assertThat(seen).hasSize(3).allSatisfy((call) -> {
			assertThat(call[0]).isSameAs(this.request);
			assertThat(call[1]).isSameAs(payload);
		});
	}

	@Test
	void whenAttemptsRunOutOnFailuresThenTheLastExceptionIsRethrownAsThrown() {
		List<IOException> thrown = new ArrayList<>();
		ClientHttpRequestExecution refusing = (request, body) -> {
			IOException failure = new ConnectException("Connection refused " + (thrown.size() + 1));
			thrown.add(failure);
			throw failure;
		};

		Throwable result = catchThrowable(
				() -> interceptor(this.listener).intercept(this.request, this.body, refusing));

		assertThat(thrown).hasSize(3);
		assertThat(result).isSameAs(thrown.get(2));
	}

	@Test
	void whenReadingTheStatusFailsUnexpectedlyThenTheResponseIsClosedAndTheFailurePropagates() {
		ScriptedResponse broken = new ScriptedResponse(new ByteArrayInputStream(new byte[0]), 200) {

			@Override
			public HttpStatusCode getStatusCode() {
				throw new IllegalStateException("no status");
			}

		};
		Script script = new Script(broken, status(200));

		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> interceptor(this.listener).intercept(this.request, this.body, script))
			.withMessage("no status");
		assertThat(broken.closed).isTrue();
		assertThat(script.produced).hasSize(1);
	}

	@Test
	void whenReadingTheStatusThrowsAnIOExceptionThenItIsClassifiedAndRetried() throws IOException {
		// HttpURLConnection sends a body, returns, and only reads the response (and times out
		// reading it) when asked for its status.
		ScriptedResponse timingOut = new ScriptedResponse(new ByteArrayInputStream(new byte[0]), 200) {

			@Override
			public HttpStatusCode getStatusCode() throws IOException {
				throw new SocketTimeoutException("Read timed out");
			}

		};
		Script script = new Script(timingOut, status(200));

		ClientHttpResponse result = interceptor(this.listener).intercept(this.request, this.body, script);

		assertThat(result).isSameAs(script.produced.get(1));
		assertThat(timingOut.closed).isTrue();
		assertThat(this.listener.attempts().get(0)).isEqualTo(new AttemptCompleted("default", "GET", 1,
				new AttemptOutcome.IoFailure(IoFailureKind.READ_TIMEOUT),
				new RetryDecision.Retry(Duration.ofSeconds(1), Duration.ofSeconds(1), DelaySource.BACKOFF)));
	}

	@Test
	void whenTheListenerThrowsThenTheResponseIsClosedAndTheFailurePropagates() {
		RetryListener throwing = new RetryListener() {

			@Override
			public void attemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
					RetryDecision decision) {
				throw new IllegalStateException("listener failed");
			}

		};
		Script script = new Script(status(200));

		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> interceptor(throwing).intercept(this.request, this.body, script))
			.withMessage("listener failed");
		assertThat(script.produced.get(0).closed).isTrue();
	}

	@Test
	void whenRetryAfterIsAbsentOnTheFinalResponseThenOutcomeSaysSo() throws IOException {
		Script script = new Script(status(200));

		interceptor(this.listener).intercept(this.request, this.body, script);

		assertThat(this.listener.events()).containsExactly(new AttemptCompleted("default", "GET", 1,
				new AttemptOutcome.Response(200, RetryAfter.ABSENT), new RetryDecision.Stop(StopReason.SUCCESS)));
		assertThat(this.sleeper.sleeps()).isEmpty();
	}

	@Test
	void whenANamedClientListsAHostWithItsDefaultPortThenARequestWithoutAPortUsesThatClient() throws IOException {
		ClientSettingsCatalog clients = new ClientSettingsCatalog(NO_JITTER,
				Map.of("billing",
						new ClientSettingsCatalog.NamedClient(Set.of("api.example.com:443"), NO_JITTER.withMaxAttempts(2)),
						"plain",
						new ClientSettingsCatalog.NamedClient(Set.of("plain.example.com:80"), NO_JITTER.withMaxAttempts(2))));
		RetryAfterInterceptor interceptor = Interceptors.create(clients, this.listener, this.sleeper, this.clock,
				this.clock, new FixedRandom(0.5));

		for (String uri : new String[] { "https://api.example.com/charges", "http://plain.example.com/x" }) {
			interceptor.intercept(new MockClientHttpRequest(HttpMethod.GET, URI.create(uri)), this.body,
					new Script(status(503), status(503), status(503)));
		}

		assertThat(this.listener.attempts()).extracting(AttemptCompleted::client)
			.containsExactly("billing", "billing", "plain", "plain");
	}

	private RetryAfterInterceptor interceptor(RetryListener listener) {
		return Interceptors.create(ClientSettingsCatalog.of(NO_JITTER), listener, this.sleeper, this.clock, this.clock,
				() -> 0L);
	}

	private static ScriptedResponse status(int status) {
		return new ScriptedResponse(new ByteArrayInputStream(new byte[0]), status);
	}

	/** Hands out the given responses in order and remembers them. */
	private static final class Script implements ClientHttpRequestExecution {

		private final Deque<ScriptedResponse> pending;

		private final List<ScriptedResponse> produced = new ArrayList<>();

		Script(ScriptedResponse... responses) {
			this.pending = new ArrayDeque<>(List.of(responses));
		}

		@Override
		public ClientHttpResponse execute(HttpRequest request, byte[] body) {
			ScriptedResponse response = this.pending.removeFirst();
			this.produced.add(response);
			return response;
		}

	}

	private static class ScriptedResponse implements ClientHttpResponse {

		private final InputStream body;

		private final int status;

		private final HttpHeaders headers = new HttpHeaders();

		private boolean closed;

		ScriptedResponse(InputStream body, int status) {
			this.body = body;
			this.status = status;
		}

		@Override
		public HttpStatusCode getStatusCode() throws IOException {
			return HttpStatusCode.valueOf(this.status);
		}

		@Override
		public String getStatusText() {
			return "";
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

		@Override
		public InputStream getBody() {
			return this.body;
		}

		@Override
		public void close() {
			this.closed = true;
		}

	}

}
