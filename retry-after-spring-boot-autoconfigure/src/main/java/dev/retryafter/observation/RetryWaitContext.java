package dev.retryafter.observation;

import java.time.Duration;

import dev.retryafter.core.StopReason;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What an {@code http.client.retry.wait} observation knows about one wait: a retry's planned
 * wait, or a hold for an origin's cooldown (or its paced slot) before a request is sent.
 *
 * @since 0.2.0
 */
public class RetryWaitContext extends Observation.Context {

	private final String client;

	private final String method;

	private final Duration planned;

	private final boolean hold;

	private @Nullable Duration actual;

	private @Nullable StopReason stopReason;

	/**
	 * Creates the context of a wait about to begin.
	 * @param client the named client, or {@code default}
	 * @param method the HTTP method
	 * @param planned how long the wait is planned to last
	 * @param hold {@code true} for a cooldown hold, {@code false} for a retry's wait
	 */
	public RetryWaitContext(String client, String method, Duration planned, boolean hold) {
		this.client = client;
		this.method = method;
		this.planned = planned;
		this.hold = hold;
	}

	/**
	 * The named client the request belongs to.
	 * @return the client name, or {@code default}
	 */
	public String getClient() {
		return this.client;
	}

	/**
	 * The request method.
	 * @return the method as the retry policy saw it
	 */
	public String getMethod() {
		return this.method;
	}

	/**
	 * How long the wait was planned to last.
	 * @return the planned wait
	 */
	public Duration getPlanned() {
		return this.planned;
	}

	/**
	 * Whether this is a cooldown hold rather than a retry's wait.
	 * @return {@code true} for a hold
	 */
	public boolean isHold() {
		return this.hold;
	}

	/**
	 * The time actually waited, on the monotonic clock.
	 * @return the time waited, or {@code null} while waiting or when the wait was cut short
	 */
	public @Nullable Duration getActual() {
		return this.actual;
	}

	/**
	 * Why retrying stopped during the wait.
	 * @return the reason ({@code interrupted}, {@code cancelled}), or {@code null} when the
	 * wait ran its course
	 */
	public @Nullable StopReason getStopReason() {
		return this.stopReason;
	}

	void ended(Duration actual) {
		this.actual = actual;
	}

	void stopped(StopReason reason) {
		this.stopReason = reason;
	}

}
