package dev.retryafter.logging;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.DelaySource;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.IoFailureKind;
import dev.retryafter.core.Origin;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import org.apache.commons.logging.Log;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LoggingRetryListener}.
 */
class LoggingRetryListenerTests {

	private final RecordingLog log = new RecordingLog(true, false);

	private final LoggingRetryListener listener = new LoggingRetryListener(this.log);

	@Test
	void whenRetryPlannedThenLineHasWaitBaseAndSource() {
		RetryAfter oneSecond = new RetryAfter.Delay(Duration.ofSeconds(1), RetryAfter.Form.SECONDS);
		this.listener.attemptCompleted("default", "GET", 1, new AttemptOutcome.Response(429, oneSecond),
				new RetryDecision.Retry(Duration.ofMillis(1137), Duration.ofSeconds(1),
						DelaySource.RETRY_AFTER_SECONDS));
		assertThat(this.log.debug).containsExactly("retry decision: client=default method=GET attempt=1 status=429"
				+ " retry-after=1000ms -> retry wait=1137ms base=1000ms source=retry-after-seconds");
	}

	@Test
	void whenStoppedThenLineHasReason() {
		this.listener.attemptCompleted("default", "GET", 3, new AttemptOutcome.Response(503, RetryAfter.ABSENT),
				new RetryDecision.Stop(StopReason.MAX_ATTEMPTS));
		assertThat(this.log.debug).containsExactly(
				"retry decision: client=default method=GET attempt=3 status=503 -> stop reason=max-attempts");
	}

	@Test
	void whenRetryAfterInvalidThenLineHasWhyButNoValue() {
		this.listener.attemptCompleted("default", "GET", 1,
				new AttemptOutcome.Response(429, new RetryAfter.Invalid("not delay-seconds or HTTP-date")),
				new RetryDecision.Stop(StopReason.INVALID_RETRY_AFTER));
		assertThat(this.log.debug).containsExactly("retry decision: client=default method=GET attempt=1 status=429"
				+ " retry-after=invalid(not delay-seconds or HTTP-date) -> stop reason=invalid-retry-after");
	}

	@Test
	void whenIoFailureThenLineHasFailureKind() {
		this.listener.attemptCompleted("payments", "POST", 1, new AttemptOutcome.IoFailure(IoFailureKind.READ_TIMEOUT),
				new RetryDecision.Stop(StopReason.NON_IDEMPOTENT));
		this.listener.attemptCompleted("payments", "POST", 1,
				new AttemptOutcome.IoFailure(IoFailureKind.CONNECT_REFUSED),
				new RetryDecision.Retry(Duration.ofMillis(1000), Duration.ofMillis(1000), DelaySource.BACKOFF));
		assertThat(this.log.debug).containsExactly(
				"retry decision: client=payments method=POST attempt=1 failure=read-timeout"
						+ " -> stop reason=non-idempotent",
				"retry decision: client=payments method=POST attempt=1 failure=connect-refused"
						+ " -> retry wait=1000ms base=1000ms source=backoff");
	}

	@Test
	void whenTlsFailsThenLineNamesTheKind() {
		this.listener.attemptCompleted("default", "GET", 1, new AttemptOutcome.IoFailure(IoFailureKind.TLS_FAILURE),
				new RetryDecision.Stop(StopReason.NOT_RETRYABLE));
		assertThat(this.log.debug).containsExactly(
				"retry decision: client=default method=GET attempt=1 failure=tls-failure -> stop reason=not-retryable");
	}

	@Test
	void whenHeldThenLineHasOriginAndHeldTimeOnly() {
		this.listener.held("payments", "POST", CooldownKey.of(Origin.of("https", "pay.example.com", -1)),
				Duration.ofMillis(1250));
		assertThat(this.log.debug).containsExactly(
				"cooldown held: client=payments method=POST origin=https://pay.example.com:443 held=1250ms");
	}

	@Test
	void whenHeldThenLineSaysWhatHeldTheRequest() {
		CooldownKey key = CooldownKey.of(Origin.of("https", "pay.example.com", -1));
		this.listener.held("payments", "POST", key, Duration.ofMillis(1250), HoldReason.COOLDOWN);
		this.listener.held("payments", "POST", key, Duration.ofMillis(800), HoldReason.RELEASE_WINDOW);
		this.listener.held("payments", "POST", key, Duration.ofMillis(2929), HoldReason.PACING);
		assertThat(this.log.debug).containsExactly(
				"cooldown held: client=payments method=POST origin=https://pay.example.com:443 held=1250ms reason=cooldown",
				"cooldown held: client=payments method=POST origin=https://pay.example.com:443 held=800ms reason=release-window",
				"cooldown held: client=payments method=POST origin=https://pay.example.com:443 held=2929ms reason=pacing");
	}

	@Test
	void whenHeldByAPartitionThenLineHasTheDigestPrefixNeverTheDigest() {
		String digest = "1a2b3c4d5e6f708192a3b4c5d6e7f809";
		this.listener.held("default", "GET", new CooldownKey(Origin.of("http", "127.0.0.1", 8080), digest),
				Duration.ofMillis(40));
		assertThat(this.log.debug).containsExactly(
				"cooldown held: client=default method=GET origin=http://127.0.0.1:8080 partition=1a2b3c4d held=40ms");
		assertThat(this.log.debug.get(0)).doesNotContain(digest);
	}

	@Test
	void whenStoppedWithoutAttemptThenLineSaysNoAttemptSent() {
		this.listener.stoppedWithoutAttempt("default", "GET", StopReason.COOLDOWN);
		assertThat(this.log.debug)
			.containsExactly("retry decision: client=default method=GET no attempt sent -> stop reason=cooldown");
	}

	@Test
	void whenWaitedThenTraceLineOnlyWhenTraceEnabled() {
		this.listener.waited("default", Duration.ofMillis(1137), Duration.ofMillis(1140));
		assertThat(this.log.trace).isEmpty();
		RecordingLog traceLog = new RecordingLog(true, true);
		new LoggingRetryListener(traceLog).waited("default", Duration.ofMillis(1137), Duration.ofMillis(1140));
		assertThat(traceLog.trace).containsExactly("retry waited: client=default planned=1137ms actual=1140ms");
	}

	@Test
	void whenDebugDisabledThenNothingLogged() {
		RecordingLog quiet = new RecordingLog(false, false);
		LoggingRetryListener listener = new LoggingRetryListener(quiet);
		listener.attemptCompleted("default", "GET", 1, new AttemptOutcome.Response(200, RetryAfter.ABSENT),
				new RetryDecision.Stop(StopReason.SUCCESS));
		listener.stoppedWithoutAttempt("default", "GET", StopReason.INTERRUPTED);
		listener.held("default", "GET", CooldownKey.of(Origin.of("http", "127.0.0.1", 8080)), Duration.ofMillis(5));
		assertThat(quiet.debug).isEmpty();
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void shouldLogUnderDevRetryafter(CapturedOutput output) {
		ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory
			.getLogger("dev.retryafter");
		ch.qos.logback.classic.Level previous = logger.getLevel();
		logger.setLevel(ch.qos.logback.classic.Level.DEBUG);
		try {
			new LoggingRetryListener().stoppedWithoutAttempt("default", "GET", StopReason.INTERRUPTED);
		}
		finally {
			logger.setLevel(previous);
		}
		assertThat(output).contains("dev.retryafter.logging.LoggingRetryListener")
			.contains("retry decision: client=default method=GET no attempt sent -> stop reason=interrupted");
	}

	static final class RecordingLog implements Log {

		final List<String> debug = new ArrayList<>();

		final List<String> trace = new ArrayList<>();

		private final boolean debugEnabled;

		private final boolean traceEnabled;

		RecordingLog(boolean debugEnabled, boolean traceEnabled) {
			this.debugEnabled = debugEnabled;
			this.traceEnabled = traceEnabled;
		}

		@Override
		public boolean isDebugEnabled() {
			return this.debugEnabled;
		}

		@Override
		public boolean isTraceEnabled() {
			return this.traceEnabled;
		}

		@Override
		public void debug(Object message) {
			this.debug.add(String.valueOf(message));
		}

		@Override
		public void trace(Object message) {
			this.trace.add(String.valueOf(message));
		}

		@Override
		public boolean isErrorEnabled() {
			return false;
		}

		@Override
		public boolean isFatalEnabled() {
			return false;
		}

		@Override
		public boolean isInfoEnabled() {
			return false;
		}

		@Override
		public boolean isWarnEnabled() {
			return false;
		}

		@Override
		public void debug(Object message, Throwable t) {
			this.debug.add(String.valueOf(message));
		}

		@Override
		public void error(Object message) {
		}

		@Override
		public void error(Object message, Throwable t) {
		}

		@Override
		public void fatal(Object message) {
		}

		@Override
		public void fatal(Object message, Throwable t) {
		}

		@Override
		public void info(Object message) {
		}

		@Override
		public void info(Object message, Throwable t) {
		}

		@Override
		public void trace(Object message, Throwable t) {
			this.trace.add(String.valueOf(message));
		}

		@Override
		public void warn(Object message) {
		}

		@Override
		public void warn(Object message, Throwable t) {
		}

	}

}
