package dev.retryafter.logging;

import java.time.Duration;

import dev.retryafter.core.AttemptOutcome;
import dev.retryafter.core.CooldownKey;
import dev.retryafter.core.HoldReason;
import dev.retryafter.core.RetryDecision;
import dev.retryafter.core.RetryListener;
import dev.retryafter.core.StopReason;
import dev.retryafter.core.header.RetryAfter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Logs one DEBUG line per retry decision, for example:
 * <pre>
 * retry decision: client=default method=GET attempt=1 status=429 retry-after=1000ms
 *     -&gt; retry wait=1137ms base=1000ms source=retry-after-seconds
 * retry decision: client=default method=GET attempt=3 status=429 retry-after=1000ms -&gt; stop reason=max-attempts
 * retry decision: client=payments method=POST attempt=1 failure=read-timeout -&gt; stop reason=non-idempotent
 * retry decision: client=default method=GET no attempt sent -&gt; stop reason=cooldown
 * cooldown held: client=default method=GET origin=https://api.example.com:443 partition=1a2b3c4d held=1250ms reason=pacing
 * </pre>
 * (the first line is one line in the log), and the time actually waited at TRACE.
 * <p>
 * A line holds only the client name, the method, the attempt number, the status or failure
 * kind, the delay derived from {@code Retry-After}, and the decision; a hold also names the
 * origin ({@code scheme://host:port}) and the first digits of its partition digest. It never
 * holds paths, query strings, header values, full partition digests, or bodies: they may
 * carry credentials or personal data. A hold's {@code reason} says what held the request:
 * {@code cooldown} (the cooldown's instant), {@code release-window} (requests the cooldown
 * held were still leaving) or {@code pacing} (the learned rate's next free slot), each shown
 * per key by the {@code retryafter} endpoint.
 *
 * @since 0.1.0
 */
public class LoggingRetryListener implements RetryListener {

	private final Log logger;

	/**
	 * Creates a listener logging to {@code dev.retryafter.logging.LoggingRetryListener}.
	 */
	public LoggingRetryListener() {
		this(LogFactory.getLog(LoggingRetryListener.class));
	}

	LoggingRetryListener(Log logger) {
		this.logger = logger;
	}

	@Override
	public void attemptCompleted(String client, String method, int attempt, AttemptOutcome outcome,
			RetryDecision decision) {
		if (!this.logger.isDebugEnabled()) {
			return;
		}
		StringBuilder line = line("retry decision", client, method).append(" attempt=").append(attempt);
		if (outcome instanceof AttemptOutcome.Response response) {
			line.append(" status=").append(response.status());
			appendRetryAfter(line, response.retryAfter());
		}
		else if (outcome instanceof AttemptOutcome.IoFailure failure) {
			line.append(" failure=").append(failure.kind().tagValue());
		}
		if (decision instanceof RetryDecision.Retry retry) {
			line.append(" -> retry wait=")
				.append(millis(retry.delay()))
				.append(" base=")
				.append(millis(retry.base()))
				.append(" source=")
				.append(retry.source().tagValue());
		}
		else if (decision instanceof RetryDecision.Stop stop) {
			line.append(" -> stop reason=").append(stop.reason().tagValue());
		}
		this.logger.debug(line.toString());
	}

	@Override
	public void waited(String client, Duration planned, Duration actual) {
		if (this.logger.isTraceEnabled()) {
			this.logger.trace("retry waited: client=" + client + " planned=" + millis(planned) + " actual="
					+ millis(actual));
		}
	}

	@Override
	public void stoppedWithoutAttempt(String client, String method, StopReason reason) {
		if (this.logger.isDebugEnabled()) {
			this.logger.debug(line("retry decision", client, method).append(" no attempt sent -> stop reason=")
				.append(reason.tagValue())
				.toString());
		}
	}

	@Override
	public void held(String client, String method, CooldownKey key, Duration heldFor) {
		held(client, method, key, heldFor, null);
	}

	@Override
	public void held(String client, String method, CooldownKey key, Duration heldFor, @Nullable HoldReason reason) {
		if (!this.logger.isDebugEnabled()) {
			return;
		}
		StringBuilder line = line("cooldown held", client, method).append(" origin=").append(key.origin());
		String partition = key.partitionPrefix();
		if (partition != null) {
			line.append(" partition=").append(partition);
		}
		if (key.scope() != null) {
			line.append(" scope=").append(key.scope());
		}
		line.append(" held=").append(millis(heldFor));
		if (reason != null) {
			line.append(" reason=").append(reason.tagValue());
		}
		this.logger.debug(line.toString());
	}

	/**
	 * Starts a DEBUG line with what every one of them names first: the event, the client and
	 * the method.
	 */
	private static StringBuilder line(String event, String client, String method) {
		return new StringBuilder(160).append(event)
			.append(": client=")
			.append(client)
			.append(" method=")
			.append(method);
	}

	private static void appendRetryAfter(StringBuilder line, RetryAfter retryAfter) {
		// Only the parsed delay (or why it was unusable) is logged, never the raw field value.
		if (retryAfter instanceof RetryAfter.Delay delay) {
			line.append(" retry-after=").append(millis(delay.delay()));
		}
		else if (retryAfter instanceof RetryAfter.Invalid invalid) {
			line.append(" retry-after=invalid(").append(invalid.why()).append(')');
		}
	}

	private static String millis(Duration duration) {
		// One unit for every value keeps lines comparable and easy to grep; sub-millisecond
		// jitter is noise at this level.
		return duration.toMillis() + "ms";
	}

}
