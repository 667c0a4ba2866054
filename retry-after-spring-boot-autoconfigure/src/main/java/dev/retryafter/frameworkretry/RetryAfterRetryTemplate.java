package dev.retryafter.frameworkretry;

import dev.retryafter.spi.RetriedInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.core.retry.Retryable;

/**
 * A Spring Framework {@link RetryTemplate} on a {@link RetryAfterRetryPolicy} that is one
 * retry layer with the HTTP client adapters: for the whole of each execution it tells them
 * (through {@link FrameworkRetryDetector}) that this template retries, so they send one
 * attempt per template attempt and report each response's {@code Retry-After} instant to
 * the policy. {@code invoke(...)} runs through {@link #execute} and is covered too.
 * <p>
 * A plain {@code RetryTemplate} cannot be told apart: it calls nothing on its policy before
 * its first attempt.
 *
 * @since 0.1.0
 */
public class RetryAfterRetryTemplate extends RetryTemplate {

	private final RetryAfterRetryPolicy policy;

	/**
	 * Creates a template on the policy.
	 * @param policy the policy, usually the {@code retryAfterRetryPolicy} bean
	 */
	public RetryAfterRetryTemplate(RetryAfterRetryPolicy policy) {
		super(policy);
		this.policy = policy;
	}

	/**
	 * Runs the operation, retrying it as the policy decides, with the HTTP client adapters
	 * sending one attempt per template attempt. Another policy set later with
	 * {@code setRetryPolicy} plans its own waits without {@code Retry-After}, so then the
	 * adapters retry as usual.
	 */
	@Override
	public <R extends @Nullable Object> R execute(Retryable<R> retryable) throws RetryException {
		if (getRetryPolicy() != this.policy) {
			return super.execute(retryable);
		}
		RetriedInvocation invocation = new RetriedInvocation(this.policy.retries().monotonicClock().nanoTime());
		try (FrameworkRetryDetector.Scope scope = FrameworkRetryDetector.bind(invocation)) {
			return super.execute(retryable);
		}
	}

}
